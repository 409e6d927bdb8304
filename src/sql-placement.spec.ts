import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

// Compiled layout: dist/src/this-file.js; the sources are read from the repository's src/.
const src = join(import.meta.dirname, '..', '..', 'src');

/**
 * Where SQL may be run (docs/architecture.md, "The database"): repositories (`*.repository.ts`), the
 * drivers (src/persistence/), the migrations, the façade that hands statements to the driver
 * (persistence/database.ts) and the snapshots' recorders, which run nothing.
 */
const MAY_RUN_SQL = [
  /\.repository\.ts$/,
  /^persistence\//,
  /^database\/migrations\//,
  /\.spec\.ts$/,
  /^persistence\/database\.ts$/,
  /^guarantee-sql\.ts$/,
  /^repository-sql(-\w+)?\.ts$/,
  /^recording-database\.ts$/,
];

/** A statement sent to the database: through the façade, a DataSource, a query runner or an entity manager. */
const RUNS_SQL =
  /\b(db|this\.db|dataSource|this\.dataSource|runner|queryRunner|manager|this\.manager)\s*\.\s*(query|queryArrays|run|causalRead|write|transientWrite)\s*(<[^()]*>)?\s*\(/;
/** TypeORM's query builder, whose writes are read through `.affected`. */
const QUERY_BUILDER = /\bcreateQueryBuilder\s*\(/;

function sources(): string[] {
  return readdirSync(src, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => file.split('\\').join('/'));
}

function offending(pattern: RegExp): string[] {
  const found: string[] = [];
  for (const file of sources()) {
    if (MAY_RUN_SQL.some((allowed) => allowed.test(file))) continue;
    readFileSync(join(src, file), 'utf8')
      .split('\n')
      .forEach((line, index) => {
        if (pattern.test(line)) found.push(`src/${file}:${index + 1}: ${line.trim()}`);
      });
  }
  return found;
}

describe('SQL lives in repositories', () => {
  it('no file but a repository, a driver, a migration or the façade runs a statement', () => {
    const found = offending(RUNS_SQL);
    assert.deepEqual(found, [], `make each a named method of the repository of its table:\n${found.join('\n')}`);
  });

  it('no file but a repository or a migration builds a query with TypeORM', () => {
    const found = offending(QUERY_BUILDER);
    assert.deepEqual(found, [], `make each a named method of the repository of its table:\n${found.join('\n')}`);
  });

  it('the patterns find what they look for', () => {
    assert.ok(RUNS_SQL.test('const [row] = await db.query(`SELECT 1`, [], manager);'));
    assert.ok(RUNS_SQL.test('await this.dataSource.query<Array<{ Owner: string | null }>>(sql, [name]);'));
    assert.ok(RUNS_SQL.test('await runner.query(statement);'));
    assert.ok(RUNS_SQL.test('return (await db.run(sql, parameters, manager)).affected === 1;'));
    assert.ok(QUERY_BUILDER.test('await manager.createQueryBuilder().update(Product)'));
    assert.ok(!RUNS_SQL.test('await idempotency.run(request, reply, scope, work);'));
  });
});

/**
 * Where TypeORM's connection may be handled (docs/architecture.md, "The unit of work"): the persistence
 * layer (src/persistence/: the drivers, the façade, `Tx`) and the schema (src/database/: migrations,
 * their helpers, schema repair), which run on TypeORM's query runners. Everywhere else a transaction
 * is a `Tx`, which only persistence unwraps (`managerOf`), and an import from 'typeorm' names only
 * what declares entities or reads their metadata.
 */
const MAY_HOLD_A_CONNECTION = [/^persistence\//, /^database\//, /^sql-placement\.spec\.ts$/];
const CONNECTION = /\b(EntityManager|QueryRunner|managerOf)\b/;
const TYPEORM_NAMES_ALLOWED = new Set([
  'Entity',
  'Index',
  'Column',
  'ColumnOptions',
  'PrimaryGeneratedColumn',
  'ForeignKey',
  'getMetadataArgsStorage',
  'DataSource',
  'DataSourceOptions',
]);
const TYPEORM_IMPORT = /import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'typeorm'/g;

function outsidePersistence(): Array<{ file: string; text: string }> {
  return sources()
    .filter((file) => !MAY_HOLD_A_CONNECTION.some((allowed) => allowed.test(file)))
    .map((file) => ({ file, text: readFileSync(join(src, file), 'utf8') }));
}

/** The names a file imports from 'typeorm' that are not in TYPEORM_NAMES_ALLOWED. */
function typeormNamesRefused(text: string): string[] {
  const refused: string[] = [];
  for (const [, names] of text.matchAll(TYPEORM_IMPORT)) {
    for (const name of names.split(',').map((one) => one.trim().replace(/^type\s+/, ''))) {
      if (name && !TYPEORM_NAMES_ALLOWED.has(name)) refused.push(name);
    }
  }
  return refused;
}

describe('the connection stays in the persistence layer', () => {
  it('no file outside src/persistence/ and the schema names an entity manager or a query runner', () => {
    const found: string[] = [];
    for (const { file, text } of outsidePersistence()) {
      text.split('\n').forEach((line, index) => {
        if (CONNECTION.test(line)) found.push(`src/${file}:${index + 1}: ${line.trim()}`);
      });
    }
    assert.deepEqual(found, [], `take a \`tx: Tx\` and send statements through Database:\n${found.join('\n')}`);
  });

  it("no file outside src/persistence/ and the schema imports from 'typeorm' more than entity declarations and metadata", () => {
    const found = outsidePersistence().flatMap(({ file, text }) => typeormNamesRefused(text).map((name) => `src/${file}: ${name}`));
    assert.deepEqual(found, [], `only persistence may use these:\n${found.join('\n')}`);
  });

  it('the patterns find what they look for', () => {
    assert.ok(CONNECTION.test('async hold(id: number, manager: EntityManager): Promise<void> {'));
    assert.ok(CONNECTION.test('const runner: QueryRunner = dataSource.createQueryRunner();'));
    assert.ok(!CONNECTION.test('const runner = dataSource.createQueryRunner();'));
    assert.deepEqual(typeormNamesRefused("import { In, Not, type EntityManager } from 'typeorm';"), ['In', 'Not', 'EntityManager']);
    assert.deepEqual(typeormNamesRefused("import { Entity, Index } from 'typeorm';"), []);
  });
});

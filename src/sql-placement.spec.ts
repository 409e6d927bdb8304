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
  /^repository-sql\.ts$/,
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

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { describe, it } from 'node:test';
import { getMetadataStorage } from 'class-validator';
import { BasicStrategy } from 'passport-http';
import mysql from 'mysql2/promise';
import { DataSource } from 'typeorm';
import { MYSQL_SERVER_URL } from '../test/support/test-app.js';

// Every place where the service relies on something private of a library it uses, in one file. An
// upgrade that moves one of them fails here, with a message naming the library, the member and the
// file that needs it, instead of failing somewhere inside a request.
//
// Of TypeORM and mysql2, only the database drivers (src/persistence/sqlite/, src/persistence/mysql/)
// touch private fields: the connections TypeORM holds (statements go straight to them, the hot path),
// the pool's counts (metrics) and the MySQL driver's connection options (a connection apart for KILL
// QUERY). Left outside them, and why: `buildMetadatas()` of a DataSource, called by the SQL snapshots'
// offline database and overridden by ServiceDataSource (entity metadata without a connection), and by
// a spec building a plan. The last test below keeps it so.

const FAILS = (library: string, member: string, user: string) =>
  `${library} no longer has ${member}: ${user} relies on it (see the comment there)`;

describe('library internals the service relies on', () => {
  it('TypeORM: the SQLite driver keeps its better-sqlite3 connection as `databaseConnection`; a DataSource has `buildMetadatas()`', async () => {
    const dataSource = new DataSource({ type: 'better-sqlite3', database: ':memory:' });
    assert.equal(
      typeof (dataSource as unknown as { buildMetadatas?: unknown }).buildMetadatas,
      'function',
      FAILS('TypeORM DataSource', 'buildMetadatas()', 'src/sql-snapshots.ts offlineDatabase'),
    );
    await dataSource.initialize();
    try {
      const connection = (dataSource.driver as unknown as { databaseConnection?: { prepare?: unknown; inTransaction?: unknown } })
        .databaseConnection;
      assert.equal(
        typeof connection?.prepare,
        'function',
        FAILS(
          'TypeORM BetterSqlite3Driver',
          'databaseConnection (a better-sqlite3 Database)',
          'src/persistence/sqlite/sqlite-driver.ts connection',
        ),
      );
      // better-sqlite3's run() result is what inserts and conditional updates read.
      const outcome = (connection as unknown as { prepare(sql: string): { run(): { changes: number; lastInsertRowid: number | bigint } } })
        .prepare('CREATE TABLE t (id INTEGER PRIMARY KEY)')
        .run();
      assert.ok(
        'changes' in outcome && 'lastInsertRowid' in outcome,
        FAILS('better-sqlite3', 'run() → { changes, lastInsertRowid }', 'src/persistence/sqlite/sqlite-driver.ts run'),
      );
    } finally {
      await dataSource.destroy();
    }
  });

  it('TypeORM: the MySQL driver keeps its mysql2 pool as `pool`, and a query runner in a transaction its connection as `databaseConnection`', async (t) => {
    const server = new URL(MYSQL_SERVER_URL);
    const options = {
      host: server.hostname,
      port: Number(server.port || 3306),
      username: decodeURIComponent(server.username),
      password: decodeURIComponent(server.password),
    };
    try {
      await (
        await mysql.createConnection({
          host: options.host,
          port: options.port,
          user: options.username,
          password: options.password,
          connectTimeout: 2000,
        })
      ).end();
    } catch {
      return t.skip(`MariaDB is not reachable at ${server.host}`);
    }
    const dataSource = await new DataSource({ type: 'mysql', ...options }).initialize();
    try {
      const pool = (dataSource.driver as unknown as { pool?: { getConnection?: unknown } }).pool;
      assert.equal(
        typeof pool?.getConnection,
        'function',
        FAILS('TypeORM MysqlDriver', 'pool (a mysql2 pool)', 'src/persistence/mysql/mysql-driver.ts pool'),
      );
      // The pool's connection counts, for the metrics (no public accessor in mysql2).
      const counts = pool as unknown as {
        config?: { connectionLimit?: unknown };
        _allConnections?: { length?: unknown };
        _freeConnections?: { length?: unknown };
        _connectionQueue?: { length?: unknown };
      };
      for (const member of ['_allConnections', '_freeConnections', '_connectionQueue'] as const) {
        assert.equal(
          typeof counts[member]?.length,
          'number',
          FAILS('mysql2 Pool', `${member}.length`, 'src/persistence/mysql/mysql-driver.ts poolUse'),
        );
      }
      assert.equal(
        typeof counts.config?.connectionLimit,
        'number',
        FAILS('mysql2 Pool', 'config.connectionLimit', 'src/persistence/mysql/mysql-driver.ts poolUse'),
      );
      const runner = dataSource.createQueryRunner();
      await runner.connect();
      try {
        const connection = (runner as unknown as { databaseConnection?: { execute?: unknown } }).databaseConnection;
        assert.equal(
          typeof connection?.execute,
          'function',
          FAILS(
            'TypeORM MysqlQueryRunner',
            'databaseConnection (a mysql2 connection)',
            'src/persistence/mysql/connections.ts transactionConnection',
          ),
        );
        // The connection apart for KILL QUERY is made with the driver's own options and mysql2 module.
        const driver = dataSource.driver as unknown as {
          mysql?: { createConnection?: unknown };
          options?: unknown;
          createConnectionOptions?: unknown;
        };
        const killer = 'src/persistence/mysql/connections.ts StatementKiller';
        assert.equal(typeof driver.mysql?.createConnection, 'function', FAILS('TypeORM MysqlDriver', 'mysql (the mysql2 module)', killer));
        assert.equal(typeof driver.createConnectionOptions, 'function', FAILS('TypeORM MysqlDriver', 'createConnectionOptions()', killer));
        assert.equal(typeof driver.options, 'object', FAILS('TypeORM MysqlDriver', 'options', killer));
      } finally {
        await runner.release();
      }
    } finally {
      await dataSource.destroy();
    }
  });

  it('passport-http: BasicStrategy keeps `_verify`, `_passReqToCallback` and `_challenge()`', () => {
    const strategy = new BasicStrategy({ passReqToCallback: true }, () => undefined) as unknown as Record<string, unknown>;
    const user = 'src/auth/rfc7617-basic.strategy.ts';
    assert.equal(typeof strategy._verify, 'function', FAILS('passport-http BasicStrategy', '_verify', user));
    assert.equal(strategy._passReqToCallback, true, FAILS('passport-http BasicStrategy', '_passReqToCallback', user));
    assert.equal(typeof strategy._challenge, 'function', FAILS('passport-http BasicStrategy', '_challenge()', user));
  });

  it('class-validator and class-transformer: the rule and transform metadata the compiled validation reads', async () => {
    const user = 'src/records/validation/compiled.ts';
    const { IsInt, IsOptional, Min, ValidationTypes } = await import('class-validator');
    const { Expose, Transform, TransformationType } = await import('class-transformer');
    const { createRequire } = await import('node:module');
    class Probe {
      @IsOptional() @IsInt() @Min(3, { each: true }) @Expose() @Transform(({ value }) => value) Count?: number;
    }
    const storage = getMetadataStorage();
    const rules = storage.getTargetValidationMetadatas(Probe, '', false, false);
    const min = rules.find((rule) => rule.name === 'min');
    assert.ok(
      min,
      FAILS('class-validator MetadataStorage', 'getTargetValidationMetadatas() → metadata with `name` (the rule name, e.g. "min")', user),
    );
    assert.deepEqual(min.constraints, [3], FAILS('class-validator ValidationMetadata', '`constraints` (the decorator arguments)', user));
    assert.equal(min.each, true, FAILS('class-validator ValidationMetadata', '`each`', user));
    assert.equal(
      min.type,
      ValidationTypes.CUSTOM_VALIDATION,
      FAILS('class-validator ValidationMetadata', "`type` 'customValidation' for a built-in rule", user),
    );
    const [constraint] = storage.getTargetValidatorConstraints(min.constraintCls);
    assert.equal(
      constraint?.instance.validate(3, { constraints: [3], value: 3, targetName: 'Probe', object: {}, property: 'Count' }),
      true,
      FAILS('class-validator ConstraintMetadata', '`instance.validate(value, args)` of `constraintCls`', user),
    );
    const optional = rules.find((rule) => rule.type === ValidationTypes.CONDITIONAL_VALIDATION);
    assert.equal(
      typeof optional?.constraints[0],
      'function',
      FAILS('class-validator ValidationMetadata', "IsOptional's condition as `constraints[0](object, value)`", user),
    );
    const require = createRequire(import.meta.url);
    const { defaultMetadataStorage } = require('class-transformer/cjs/storage.js') as {
      defaultMetadataStorage: Record<string, (...args: unknown[]) => unknown>;
    };
    const transforms = defaultMetadataStorage.findTransformMetadatas(Probe, 'Count', TransformationType.PLAIN_TO_CLASS) as {
      transformFn?: unknown;
    }[];
    assert.equal(
      typeof transforms?.[0]?.transformFn,
      'function',
      FAILS('class-transformer', "'cjs/storage.js' defaultMetadataStorage.findTransformMetadatas() → `transformFn`", user),
    );
    assert.deepEqual(
      defaultMetadataStorage.getExposedProperties(Probe, TransformationType.PLAIN_TO_CLASS),
      ['Count'],
      FAILS('class-transformer', 'defaultMetadataStorage.getExposedProperties()', user),
    );
    for (const member of ['getStrategy', 'getExcludedMetadatas', 'getExposedMetadatas', 'findTypeMetadata']) {
      assert.equal(
        typeof defaultMetadataStorage[member],
        'function',
        FAILS('class-transformer defaultMetadataStorage', `${member}()`, user),
      );
    }
    const { defaultOptions } = require('class-transformer/cjs/constants/default-options.constant.js') as { defaultOptions?: unknown };
    assert.equal(
      typeof defaultOptions,
      'object',
      FAILS('class-transformer', "'cjs/constants/default-options.constant.js' defaultOptions", user),
    );
    // The differential test (compiled.spec.ts) lists the DTO classes from the storage's private map.
    assert.ok(
      (storage as unknown as { validationMetadatas?: unknown }).validationMetadatas instanceof Map,
      FAILS('class-validator MetadataStorage', 'validationMetadatas (a Map by class)', 'src/records/validation/compiled.spec.ts'),
    );
  });

  it('fontkit: a font keeps its glyphs in `_glyphs`, made with the characters first asked for; PDFKit takes a parsed font', async () => {
    const { readFileSync } = await import('node:fs');
    const { createRequire } = await import('node:module');
    const fontkit = await import('fontkit');
    const PDFDocument = (await import('pdfkit')).default;
    const file = createRequire(import.meta.url).resolve('@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf');
    const font = fontkit.create(readFileSync(file)) as unknown as { _glyphs?: unknown; layout(text: string): unknown };
    font.layout('z');
    assert.equal(
      typeof font._glyphs,
      'object',
      FAILS('fontkit TTFFont', '_glyphs (the glyph cache)', 'src/billing/invoice-pdf/invoice-pdf.ts forDocument'),
    );
    const doc = new PDFDocument({ font: font as unknown as string });
    assert.doesNotThrow(
      () =>
        doc
          .registerFont('parsed', font as unknown as Buffer)
          .font('parsed')
          .text('z'),
      FAILS('PDFKit', 'fonts given as parsed fontkit fonts', 'src/billing/invoice-pdf/invoice-pdf.ts'),
    );
    doc.end();
  });

  it('Nest: ValidationPipe validates through its protected `validate(object, options)`; TypeORM DataSource builds metadata in `buildMetadatas()`', async () => {
    const { ValidationPipe } = await import('@nestjs/common');
    assert.equal(
      typeof (ValidationPipe.prototype as unknown as Record<string, unknown>).validate,
      'function',
      FAILS('@nestjs/common ValidationPipe', 'validate()', 'src/records/validation/validation.ts PartialValidationPipe'),
    );
    assert.equal(
      typeof (DataSource.prototype as unknown as Record<string, unknown>).buildMetadatas,
      'function',
      FAILS('TypeORM DataSource', 'buildMetadatas()', 'src/database/service-data-source.ts'),
    );
  });

  it("no file outside the database drivers reads TypeORM's or mysql2's private fields", () => {
    const src = import.meta.dirname;
    const PRIVATE =
      /\b(databaseConnection|_allConnections|_freeConnections|_connectionQueue|createConnectionOptions)\b|driver as unknown as \{ pool|\.driver\.(pool|mysql)\b/;
    const drivers = [join('persistence', 'sqlite') + sep, join('persistence', 'mysql') + sep];
    const outside = readdirSync(src, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.js') && !file.endsWith('.spec.js'))
      .filter((file) => !drivers.some((folder) => file.startsWith(folder)))
      .filter((file) => PRIVATE.test(readFileSync(join(src, file), 'utf8')));
    assert.deepEqual(outside, [], "only src/persistence/sqlite/ and src/persistence/mysql/ may read the drivers' private fields");
  });
});

import type { DataSource, QueryRunner } from 'typeorm';

/** A pair of names in a schema: a table and one of its columns, indexes or foreign keys. */
export interface NamePair {
  t: string;
  n: string;
}

/**
 * The SQL of the migrations' own bookkeeping (migration-runner.ts, schema-repair.ts,
 * migration-helpers.ts): TypeORM's table of applied migrations, the names in a MySQL schema, the
 * drops that undo a half-done migration, and the rows a migration seeds.
 */
export class SchemaRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** TypeORM's table of applied migrations, created as it would create it but with `tableOptions` (MySQL). */
  async ensureMigrationsTable(tableOptions: string): Promise<void> {
    await this.dataSource.query(
      'CREATE TABLE IF NOT EXISTS `migrations` (`id` int NOT NULL AUTO_INCREMENT, `timestamp` bigint NOT NULL, `name` varchar(255) NOT NULL, ' +
        `PRIMARY KEY (\`id\`)) ${tableOptions}`,
    );
  }

  /** The names of the migrations TypeORM recorded as applied (fails when its table does not exist). */
  async appliedMigrations(): Promise<string[]> {
    const { dataSource } = this;
    const table = dataSource.driver.escape(dataSource.options.migrationsTableName ?? 'migrations');
    const rows = await dataSource.query<Array<{ name: string }>>(`SELECT ${dataSource.driver.escape('name')} AS name FROM ${table}`);
    return rows.map((row) => row.name);
  }

  /** Whether TypeORM recorded the migration as applied. */
  async isApplied(migration: string): Promise<boolean> {
    const { dataSource } = this;
    const [applied] = await dataSource.query<unknown[]>(
      `SELECT 1 FROM ${dataSource.driver.escape('migrations')} WHERE ${dataSource.driver.escape('name')} = ?`,
      [migration],
    );
    return Boolean(applied);
  }

  /** The base tables of the current MySQL database. */
  async tables(): Promise<string[]> {
    return (
      await this.dataSource.query<Array<{ t: string }>>(
        `SELECT TABLE_NAME AS t FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_TYPE = 'BASE TABLE'`,
      )
    ).map((row) => row.t);
  }

  /** The columns of the current MySQL database's tables. */
  columns(): Promise<NamePair[]> {
    return this.dataSource.query<NamePair[]>(
      'SELECT TABLE_NAME AS t, COLUMN_NAME AS n FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE()',
    );
  }

  /** The indexes of the current MySQL database's tables. */
  indexes(): Promise<NamePair[]> {
    return this.dataSource.query<NamePair[]>(
      'SELECT DISTINCT TABLE_NAME AS t, INDEX_NAME AS n FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE()',
    );
  }

  /** The foreign keys of the current MySQL database's tables. */
  foreignKeys(): Promise<NamePair[]> {
    return this.dataSource.query<NamePair[]>(
      `SELECT TABLE_NAME AS t, CONSTRAINT_NAME AS n FROM information_schema.TABLE_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = DATABASE() AND CONSTRAINT_TYPE = 'FOREIGN KEY'`,
    );
  }

  /**
   * Runs DDL `statements` (drops) on one connection with foreign-key checks off (MySQL), so that new
   * tables referring to each other can go in any order; the connection goes back with the checks on.
   */
  async withoutForeignKeyChecks(statements: readonly string[]): Promise<void> {
    const runner = this.dataSource.createQueryRunner();
    try {
      await runner.query('SET FOREIGN_KEY_CHECKS = 0');
      for (const statement of statements) await runner.query(statement);
    } finally {
      // The connection goes back to the pool with the checks on (if this fails, the connection is broken).
      await runner.query('SET FOREIGN_KEY_CHECKS = 1').catch(() => undefined);
      await runner.release();
    }
  }

  /** Inserts `rows` (non-empty) of values of `columns` into `table`, as bound parameters, in the migration's transaction. */
  static async insertRows(
    runner: QueryRunner,
    table: string,
    columns: readonly string[],
    rows: ReadonlyArray<ReadonlyArray<unknown>>,
  ): Promise<void> {
    const q = (name: string) => runner.connection.driver.escape(name);
    const placeholders = rows.map(() => `(${columns.map(() => '?').join(', ')})`).join(', ');
    await runner.query(`INSERT INTO ${q(table)} (${columns.map(q).join(', ')}) VALUES ${placeholders}`, rows.flat());
  }
}

import { TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { column, createTable } from '../migration-helpers.js';

/**
 * Safe writes behind a load balancer (docs/api.md §11.6): a Version on every record table (the
 * ETag; createRecordTable adds it to tables made later), and the Idempotency-Key table.
 */
export class SafeWrites1764200000000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    const q = (name: string) => runner.connection.driver.escape(name);
    for (const table of await tablesWith(runner, 'UniqueId', 'Version')) {
      await runner.query(`ALTER TABLE ${q(table)} ADD COLUMN ${q('Version')} int NOT NULL DEFAULT 1`);
    }
    await createTable(runner, {
      name: 'idempotency_key',
      columns: [
        { name: 'Id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
        // SHA-256 (hex) of the acting user, method, path and key: one row per key and scope.
        column.text('ScopeHash', { length: 64, nullable: false }),
        // SHA-256 (hex) of the request body as parsed JSON with sorted keys.
        column.text('RequestHash', { length: 64, nullable: false }),
        // Null while the first request is being processed; then the answer, exactly as sent.
        column.int('Status'),
        column.longText('Body'),
        column.text('ETag'),
        column.dateTime('CreatedOn', { nullable: false }),
        column.dateTime('ExpiresOn', { nullable: false }),
      ],
      indices: [
        new TableIndex({ name: 'UQ_idempotency_key_ScopeHash', columnNames: ['ScopeHash'], isUnique: true }),
        new TableIndex({ name: 'IX_idempotency_key_ExpiresOn', columnNames: ['ExpiresOn'] }),
      ],
    });
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropTable('idempotency_key');
    const q = (name: string) => runner.connection.driver.escape(name);
    for (const table of await tablesWith(runner, 'Version')) await runner.query(`ALTER TABLE ${q(table)} DROP COLUMN ${q('Version')}`);
  }
}

/**
 * The tables of this database with column `present` and without column `absent`. Record tables are
 * those with the common UniqueId column (join tables and counters have none).
 */
async function tablesWith(runner: QueryRunner, present: string, absent?: string): Promise<string[]> {
  const rows: Array<{ name: string }> =
    runner.connection.driver.options.type === 'better-sqlite3'
      ? await runner.query(
          "SELECT m.name AS name FROM sqlite_master m WHERE m.type = 'table' AND EXISTS (SELECT 1 FROM pragma_table_info(m.name) c WHERE c.name = ?) " +
            'AND NOT EXISTS (SELECT 1 FROM pragma_table_info(m.name) c WHERE c.name = ?)',
          [present, absent ?? ''],
        )
      : await runner.query(
          'SELECT c.TABLE_NAME AS name FROM information_schema.COLUMNS c WHERE c.TABLE_SCHEMA = DATABASE() AND c.COLUMN_NAME = ? AND NOT EXISTS ' +
            '(SELECT 1 FROM information_schema.COLUMNS v WHERE v.TABLE_SCHEMA = c.TABLE_SCHEMA AND v.TABLE_NAME = c.TABLE_NAME AND v.COLUMN_NAME = ?)',
          [present, absent ?? ''],
        );
  return rows.map((row) => row.name);
}

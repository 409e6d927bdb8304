import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { column } from '../migration-helpers.js';

/**
 * Safe writes behind a load balancer (README, "Safe writes"): a Version on every record table (the
 * ETag; createRecordTable adds it to tables made later), and the Idempotency-Key table.
 */
export class SafeWrites1764200000000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    const q = (name: string) => runner.connection.driver.escape(name);
    // Record tables are those with the common UniqueId column (join tables and counters have none).
    for (const table of await runner.getTables()) {
      const names = new Set(table.columns.map((c) => c.name));
      if (!names.has('UniqueId') || names.has('Version')) continue;
      await runner.query(`ALTER TABLE ${q(table.name)} ADD COLUMN ${q('Version')} int NOT NULL DEFAULT 1`);
    }
    await runner.createTable(new Table({
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
    }));
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropTable('idempotency_key');
    const q = (name: string) => runner.connection.driver.escape(name);
    for (const table of await runner.getTables()) {
      if (table.columns.some((c) => c.name === 'Version')) await runner.query(`ALTER TABLE ${q(table.name)} DROP COLUMN ${q('Version')}`);
    }
  }
}

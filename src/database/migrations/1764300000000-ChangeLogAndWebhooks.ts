import { TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { column, createRecordTable, createTable } from '../migration-helpers.js';

/** Text that may exceed 64 KiB (a record with several long texts, before and after): MEDIUMTEXT on MySQL. */
const large = (runner: QueryRunner) => (runner.connection.options.type === 'better-sqlite3' ? 'text' : 'mediumtext');

/**
 * The change log (one row per create, update or delete of a record, written with the change), the
 * WebHook record type, and its deliveries (the outbox the delivery worker reads; docs/api.md §11.7).
 */
export class ChangeLogAndWebhooks1764300000000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await createTable(runner, {
      name: 'change_log',
      columns: [
        { name: 'Id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
        column.text('Entity', { length: 64, nullable: false }),
        column.int('RecordId', { nullable: false }),
        column.text('Action', { length: 8, nullable: false }),
        column.dateTime('On', { nullable: false }),
        column.text('By'),
        column.text('RequestId', { length: 128 }),
        // The record's business when the entry was written: history is scoped by it.
        column.int('BusinessId'),
        { name: 'Changes', type: large(runner), isNullable: true },
      ],
      indices: [new TableIndex({ name: 'IX_change_log_Entity_RecordId', columnNames: ['Entity', 'RecordId', 'Id'] })],
    });

    await createRecordTable(
      runner,
      'webhook',
      [
        column.int('BusinessId', { nullable: false }),
        column.text('Name', { nullable: false }),
        column.int('Action', { nullable: false }),
        column.text('URL', { length: 2048, nullable: false }),
        column.longText('Description'),
        column.bool('Active', { default: true }),
        column.text('Secret', { nullable: false }),
        column.longText('LastError'),
        column.int('ErrorCount', { nullable: false, default: 0 }),
        column.dateTime('LastTrigger'),
      ],
      {
        foreignKeys: [{ column: 'BusinessId', references: 'business' }],
        // Every write looks up the active hooks of its business and action.
        indexes: ['Name', ['BusinessId', 'Action']],
      },
    );

    await createTable(runner, {
      name: 'webhook_delivery',
      columns: [
        { name: 'Id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
        column.int('WebHookId', { nullable: false }),
        column.text('EventId', { length: 36, nullable: false }),
        column.int('Action', { nullable: false }),
        column.text('Entity', { length: 64, nullable: false }),
        column.int('RecordId', { nullable: false }),
        { name: 'Body', type: large(runner), isNullable: false },
        column.text('Status', { length: 16, nullable: false }),
        column.int('Attempts', { nullable: false, default: 0 }),
        column.dateTime('CreatedOn', { nullable: false }),
        column.dateTime('LastAttemptOn'),
        column.dateTime('NextAttemptOn'),
        column.int('LastStatusCode'),
        column.longText('LastError'),
        // Which instance holds the delivery while it makes an attempt, and until when.
        column.text('LeaseOwner', { length: 64 }),
        column.dateTime('LeaseUntil'),
      ],
      indices: [
        new TableIndex({ name: 'IX_webhook_delivery_WebHookId', columnNames: ['WebHookId', 'Id'] }),
        new TableIndex({ name: 'IX_webhook_delivery_Status_NextAttemptOn', columnNames: ['Status', 'NextAttemptOn'] }),
        new TableIndex({ name: 'IX_webhook_delivery_CreatedOn', columnNames: ['CreatedOn'] }),
      ],
      foreignKeys: [
        new TableForeignKey({
          name: 'FK_webhook_delivery_WebHookId',
          columnNames: ['WebHookId'],
          referencedTableName: 'webhook',
          referencedColumnNames: ['Id'],
          onDelete: 'CASCADE',
        }),
      ],
    });
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropTable('webhook_delivery');
    await runner.dropTable('webhook');
    await runner.dropTable('change_log');
  }
}

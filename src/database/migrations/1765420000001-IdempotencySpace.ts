import { TableColumn, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { column } from '../migration-helpers.js';

/**
 * The stored answers of a user's Idempotency-Keys count against a bounded space (docs/api.md §5.2): each
 * key row names its user (`UserId`, 0 for requests without one) and the room its answer takes
 * (`StoredBytes`). Keys stored before this migration have neither and expire within 24 hours.
 */
export class IdempotencySpace1765420000001 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await runner.addColumn('idempotency_key', new TableColumn(column.int('UserId')));
    await runner.addColumn('idempotency_key', new TableColumn(column.int('StoredBytes', { nullable: false, default: 0 })));
    await runner.createIndex('idempotency_key', new TableIndex({ name: 'IX_idempotency_key_UserId', columnNames: ['UserId'] }));
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropIndex('idempotency_key', 'IX_idempotency_key_UserId');
    await runner.dropColumn('idempotency_key', 'StoredBytes');
    await runner.dropColumn('idempotency_key', 'UserId');
  }
}

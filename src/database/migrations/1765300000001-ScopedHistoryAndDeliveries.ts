import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';
import { column } from '../migration-helpers.js';

/**
 * History and delivery logs scoped by the business of their time (docs/api.md §6, §7.4): a change-log
 * entry of a record moved between businesses names the business it left (`PreviousBusinessId`), and a
 * webhook delivery keeps the business its hook had when it was made (`BusinessId`; the deliveries made
 * before this migration are given their hook's present business).
 */
export class ScopedHistoryAndDeliveries1765300000001 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await runner.addColumn('change_log', new TableColumn(column.int('PreviousBusinessId')));
    await runner.addColumn('webhook_delivery', new TableColumn(column.int('BusinessId')));
    const q = (name: string) => runner.connection.driver.escape(name);
    await runner.query(
      `UPDATE ${q('webhook_delivery')} SET ${q('BusinessId')} = (SELECT h.${q('BusinessId')} FROM ${q('webhook')} h WHERE h.${q('Id')} = ${q('webhook_delivery')}.${q('WebHookId')})`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropColumn('webhook_delivery', 'BusinessId');
    await runner.dropColumn('change_log', 'PreviousBusinessId');
  }
}

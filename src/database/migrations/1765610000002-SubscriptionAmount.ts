import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';
import { column } from '../migration-helpers.js';

/** CoworkerInvoice.SubscriptionAmount (docs/billing.md "SubscriptionAmount"): 0 on every invoice made before. */
export class SubscriptionAmount1765610000002 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await runner.addColumn('coworkerinvoice', new TableColumn(column.money('SubscriptionAmount', { nullable: false, default: 0 })));
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropColumn('coworkerinvoice', 'SubscriptionAmount');
  }
}

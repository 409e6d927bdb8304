import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';
import { column } from '../migration-helpers.js';

/** Stock alerts (docs/stock-and-deliveries.md): when a sale took a product's stock to its alert level; null while armed. */
export class LowStockAlerts1765630000000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await runner.addColumn('product', new TableColumn(column.dateTime('LowStockAlertedOn')));
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropColumn('product', 'LowStockAlertedOn');
  }
}

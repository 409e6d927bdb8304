import { TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { column, createTable } from '../migration-helpers.js';

/**
 * One row per stock change of a product, keyed by the product's Version after the change: two sales that
 * took stock from the same row version collide on the unique key (docs/stock-and-deliveries.md, "Stock on a
 * Galera cluster").
 */
export class ProductStockChanges1765640000000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await createTable(runner, {
      name: 'product_stock_change',
      columns: [
        { name: 'Id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
        column.int('ProductId', { nullable: false }),
        column.int('Version', { nullable: false }),
        column.int('Quantity', { nullable: false }),
        column.dateTime('ChangedOn', { nullable: false }),
      ],
      indices: [new TableIndex({ name: 'UQ_product_stock_change_ProductId_Version', columnNames: ['ProductId', 'Version'], isUnique: true })],
      foreignKeys: [new TableForeignKey({ name: 'FK_product_stock_change_ProductId', columnNames: ['ProductId'], referencedTableName: 'product', referencedColumnNames: ['Id'], onDelete: 'CASCADE' })],
    });
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropTable('product_stock_change');
  }
}

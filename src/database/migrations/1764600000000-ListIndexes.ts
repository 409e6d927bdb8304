import { TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * A business's invoices within a range of due dates (`Invoice_Business=…&from_Invoice_DueDate=…`), or in
 * due-date order: read from one index range, counted without reading the rows, and already in the
 * list's order (DueDate, then Id). IX_<table>_BusinessId stays: it holds a business's rows in Id order.
 */
const indexes = ['invoice', 'coworkerinvoice'].map((table) => ({
  table,
  index: new TableIndex({ name: `IX_${table}_BusinessId_DueDate`, columnNames: ['BusinessId', 'DueDate'] }),
}));

export class ListIndexes1764600000000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    for (const { table, index } of indexes) await runner.createIndex(table, index);
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const { table, index } of indexes) await runner.dropIndex(table, index.name!);
  }
}

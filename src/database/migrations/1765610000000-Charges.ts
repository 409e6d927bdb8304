import { TableColumn, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { column, createRecordTable } from '../migration-helpers.js';

/** Charges (docs/billing.md "Charges"): ad-hoc amounts billed once by the next run; an invoice line may bill one. */
export class Charges1765610000000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await createRecordTable(
      runner,
      'charge',
      [
        column.int('BusinessId', { nullable: false }),
        column.int('CoworkerId', { nullable: false }),
        column.longText('Description', { nullable: false }),
        column.money('TotalAmount', { nullable: false, default: 0 }),
        column.text('InvoiceLineDisplayAs'),
        column.int('TaxRateId'),
        column.dateTime('SaleDate', { nullable: false }),
        column.dateTime('DueDate'),
        column.text('PurchaseOrder'),
        column.bool('Invoiced'),
        column.dateTime('InvoicedOn'),
        column.int('CoworkerInvoiceId'),
        column.money('CreditAmount', { nullable: false, default: 0 }),
      ],
      {
        // A customer, business or tax rate with charges cannot be deleted.
        foreignKeys: [
          { column: 'BusinessId', references: 'business' },
          { column: 'CoworkerId', references: 'coworker' },
          { column: 'TaxRateId', references: 'taxrate' },
        ],
        indexes: [['CoworkerId', 'Invoiced']],
      },
    );
    await runner.addColumn('coworkerinvoiceline', new TableColumn(column.text('CoworkerChargeUniqueId', { length: 36 })));
    await runner.createIndex(
      'coworkerinvoiceline',
      new TableIndex({ name: 'IX_coworkerinvoiceline_CoworkerChargeUniqueId', columnNames: ['CoworkerChargeUniqueId'] }),
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropIndex('coworkerinvoiceline', 'IX_coworkerinvoiceline_CoworkerChargeUniqueId');
    await runner.dropColumn('coworkerinvoiceline', 'CoworkerChargeUniqueId');
    await runner.dropTable('charge');
  }
}

import { TableColumn, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { column, createRecordTable } from '../migration-helpers.js';

const INVOICE_COLUMNS = [
  column.bool('Draft'),
  column.money('PaidAmount', { nullable: false, default: 0 }),
  column.money('DueAmount'),
  column.bool('CreditNote'),
  column.text('OriginalInvoiceGuid', { length: 36 }),
  column.bool('Refunded'),
  column.dateTime('RefundedOn'),
  column.money('RefundedAmount', { nullable: false, default: 0 }),
  column.text('BusinessName'),
];

/**
 * Customer invoice lines (docs/billing.md) and the invoice's settlement fields. Invoices made before
 * are taken as settled by their Paid flag: a paid one was paid in full, an unpaid one is due in full.
 */
export class InvoiceLines1765000100000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await createRecordTable(
      runner,
      'coworkerinvoiceline',
      [
        column.int('CoworkerInvoiceId', { nullable: false }),
        column.longText('Description'),
        column.int('Quantity', { nullable: false, default: 1 }),
        column.money('UnitPrice', { nullable: false, default: 0 }),
        column.money('SubTotal', { nullable: false, default: 0 }),
        column.int('TaxRateId'),
        column.money('TaxRate', { nullable: false, default: 0 }),
        column.money('TaxAmount', { nullable: false, default: 0 }),
        column.money('TotalAmount', { nullable: false, default: 0 }),
        column.dateTime('PeriodFrom'),
        column.dateTime('PeriodTo'),
        column.int('Position', { nullable: false, default: 1 }),
        column.text('CoworkerContractUniqueId', { length: 36 }),
        column.text('ContractProductUniqueId', { length: 36 }),
        column.text('CoworkerProductUniqueId', { length: 36 }),
        column.text('BookingUniqueId', { length: 36 }),
        column.text('BilledItemKey', { length: 64 }),
      ],
      {
        // An invoice with lines, or a tax rate a line names, cannot be deleted.
        foreignKeys: [
          { column: 'CoworkerInvoiceId', references: 'coworkerinvoice' },
          { column: 'TaxRateId', references: 'taxrate' },
        ],
        indexes: [
          ['CoworkerInvoiceId', 'Position'],
          'CoworkerContractUniqueId',
          'ContractProductUniqueId',
          'CoworkerProductUniqueId',
          'BookingUniqueId',
        ],
        // One line per billed item and period, whatever runs at once (docs/billing.md, "Exactly once").
        unique: [['BilledItemKey']],
      },
    );
    await runner.addColumns(
      'coworkerinvoice',
      INVOICE_COLUMNS.map((options) => new TableColumn(options)),
    );
    const q = (name: string) => runner.connection.driver.escape(name);
    await runner.query(
      `UPDATE ${q('coworkerinvoice')} SET ${q('PaidAmount')} = CASE WHEN ${q('Paid')} = 1 THEN COALESCE(${q('TotalAmount')}, 0) ELSE 0 END, ` +
        `${q('DueAmount')} = CASE WHEN ${q('Paid')} = 1 THEN 0 ELSE COALESCE(${q('TotalAmount')}, 0) END, ` +
        `${q('BusinessName')} = (SELECT b.${q('Name')} FROM ${q('business')} b WHERE b.${q('Id')} = ${q('coworkerinvoice')}.${q('BusinessId')})`,
    );
    await runner.createIndex('coworkerinvoice', new TableIndex({ name: 'IX_coworkerinvoice_PaidOn', columnNames: ['PaidOn'] }));
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropIndex('coworkerinvoice', 'IX_coworkerinvoice_PaidOn');
    for (const options of [...INVOICE_COLUMNS].reverse()) await runner.dropColumn('coworkerinvoice', options.name);
    await runner.dropTable('coworkerinvoiceline');
  }
}

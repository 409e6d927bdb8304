import { TableForeignKey, type MigrationInterface, type QueryRunner } from 'typeorm';
import { column, createRecordTable, createTable } from '../migration-helpers.js';

/** The platform's invoices, customer invoices with their payment tokens, and the invoice number counters. */
export class Invoices1763900100000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    // The bill-to snapshot: required on the platform's invoices, copied from the customer on customer invoices.
    const billTo = (required: boolean) => [
      column.text('BillToName', { nullable: !required }),
      column.text('BillToAddress', { nullable: !required }),
      column.text('BillToCity', { nullable: !required }),
      column.text('BillToTaxIDNumber'),
      column.text('BillToPostCode', { nullable: !required }),
      column.text('BillToPhone'),
      column.text('BillToFax'),
      column.int('BillToCountryId', { nullable: !required }),
      column.text('BillToCountryName'),
    ];
    await createRecordTable(
      runner,
      'invoice',
      [
        column.int('BusinessId', { nullable: false }),
        column.text('InvoiceNumber', { length: 32, nullable: false }),
        ...billTo(true),
        column.longText('Description'),
        column.money('DiscountAmount'),
        column.dateTime('DueDate'),
        column.dateTime('InvoiceFromDate'),
        column.dateTime('InvoiceToDate'),
        column.money('SubscriptionAmount'),
        column.money('ResellerAmount'),
        column.money('TotalAmount'),
        column.int('CurrencyId', { nullable: false }),
        column.text('CurrencyCode', { length: 3 }),
        column.money('TaxAmount'),
        column.bool('Paid'),
        column.dateTime('PaidOn'),
        column.longText('CustomData'),
        column.int('PaymentAttemptsCount'),
      ],
      {
        foreignKeys: [
          { column: 'BusinessId', references: 'business' },
          { column: 'BillToCountryId', references: 'country' },
          { column: 'CurrencyId', references: 'currency' },
        ],
        unique: [['BusinessId', 'InvoiceNumber']],
        indexes: ['DueDate'],
      },
    );

    await createRecordTable(
      runner,
      'coworkerinvoice',
      [
        column.int('CoworkerId', { nullable: false }),
        column.text('CoworkerFullName'),
        column.int('BusinessId', { nullable: false }),
        column.text('InvoiceNumber', { length: 32, nullable: false }),
        column.int('CurrencyId', { nullable: false }),
        column.text('CurrencyCode', { length: 3 }),
        column.longText('Description'),
        column.dateTime('DueDate'),
        column.dateTime('InvoiceFromDate'),
        column.dateTime('InvoiceToDate'),
        column.money('TotalAmount'),
        column.money('TaxAmount'),
        column.money('DiscountAmount'),
        column.bool('Paid'),
        column.dateTime('PaidOn'),
        column.bool('Void'),
        ...billTo(false),
      ],
      {
        foreignKeys: [
          // A customer with invoices cannot be deleted.
          { column: 'CoworkerId', references: 'coworker' },
          { column: 'BusinessId', references: 'business' },
          { column: 'CurrencyId', references: 'currency' },
          { column: 'BillToCountryId', references: 'country' },
        ],
        unique: [['BusinessId', 'InvoiceNumber']],
        indexes: ['DueDate'],
      },
    );

    await createRecordTable(
      runner,
      'coworkerinvoicepaymenttoken',
      [
        column.int('CoworkerInvoiceId', { nullable: false }),
        column.int('RegularPaymentProvider'),
        column.longText('Token'),
        column.longText('Notes'),
      ],
      {
        // An invoice with payment tokens cannot be deleted.
        foreignKeys: [{ column: 'CoworkerInvoiceId', references: 'coworkerinvoice' }],
      },
    );

    // Invoice number counters: one row per (series, business), bumped inside the issuing transaction.
    await createTable(runner, {
      name: 'invoice_sequence',
      columns: [
        { ...column.text('Series', { length: 32, nullable: false }), isPrimary: true },
        { ...column.int('BusinessId', { nullable: false }), isPrimary: true },
        column.int('LastNumber', { nullable: false }),
      ],
      foreignKeys: [
        new TableForeignKey({
          name: 'FK_invoice_sequence_BusinessId',
          columnNames: ['BusinessId'],
          referencedTableName: 'business',
          referencedColumnNames: ['Id'],
          onDelete: 'CASCADE',
        }),
      ],
    });
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropTable('invoice_sequence');
    await runner.dropTable('coworkerinvoicepaymenttoken');
    await runner.dropTable('coworkerinvoice');
    await runner.dropTable('invoice');
  }
}

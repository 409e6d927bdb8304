import { TableColumn, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { column, createRecordTable } from '../migration-helpers.js';

/**
 * Presence (docs/presence.md): kinds of passes, customers' passes, check-ins; a DayPass product names
 * the TimePass its sales release; an invoice line may bill a pass.
 */
export class Presence1765540000000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await createRecordTable(
      runner,
      'timepass',
      [
        column.int('BusinessId', { nullable: false }),
        column.text('Name', { nullable: false }),
        column.money('Price', { nullable: false }),
        column.int('CurrencyId', { nullable: false }),
        column.text('InvoiceDisplay'),
        column.int('TaxRateId'),
        column.bool('PaygContacts'),
        column.bool('PaygMembers'),
        column.int('UsePriority'),
        column.int('ValidityDays'),
        column.int('MinutesIncluded'),
        column.bool('Archived'),
      ],
      {
        foreignKeys: [
          { column: 'BusinessId', references: 'business' },
          { column: 'CurrencyId', references: 'currency' },
        ],
        indexes: ['Name'],
      },
    );

    await createRecordTable(
      runner,
      'coworkertimepass',
      [
        column.int('CoworkerId', { nullable: false }),
        column.int('BusinessId', { nullable: false }),
        column.int('TimePassId', { nullable: false }),
        column.dateTime('ExpireDate'),
        column.bool('Free'),
        column.money('Price', { nullable: false, default: 0 }),
        column.dateTime('SaleDate', { nullable: false }),
        column.longText('Notes'),
        column.text('PurchaseOrder'),
        column.bool('Used'),
        column.dateTime('UsedDate'),
        column.bool('IsPayAsYouGo'),
        column.text('CoworkerProductUniqueId', { length: 36 }),
        column.bool('Invoiced'),
        column.dateTime('InvoicedOn'),
        column.int('CoworkerInvoiceId'),
      ],
      {
        // A customer, business or TimePass with passes cannot be deleted.
        foreignKeys: [
          { column: 'CoworkerId', references: 'coworker' },
          { column: 'BusinessId', references: 'business' },
          { column: 'TimePassId', references: 'timepass' },
        ],
        indexes: ['CoworkerProductUniqueId', ['CoworkerId', 'Used', 'ExpireDate'], ['CoworkerId', 'Invoiced']],
      },
    );

    await createRecordTable(
      runner,
      'checkin',
      [
        column.int('BusinessId', { nullable: false }),
        column.int('CoworkerId', { nullable: false }),
        column.dateTime('FromTime', { nullable: false }),
        column.dateTime('ToTime'),
        column.text('Source'),
        column.bool('AutoCheckout'),
        column.bool('CountsTowardsPlanLimits'),
        column.text('CoworkerTimePassGuid', { length: 36 }),
        // `<CoworkerId>/<BusinessId>` while open, else null: unique, so a customer has one open check-in per business.
        column.text('OpenKey', { length: 32 }),
      ],
      {
        foreignKeys: [
          { column: 'BusinessId', references: 'business' },
          { column: 'CoworkerId', references: 'coworker' },
        ],
        indexes: ['FromTime', 'CoworkerTimePassGuid', ['CoworkerId', 'FromTime']],
        unique: [['OpenKey']],
      },
    );

    // Checked by the products' rules (a TimePass of the product's business), without a foreign key.
    await runner.addColumn('product', new TableColumn(column.int('TimePassId')));
    await runner.addColumn('product', new TableColumn(column.int('TimePassQuantity', { nullable: false, default: 1 })));
    await runner.addColumn('coworkerinvoiceline', new TableColumn(column.text('CoworkerTimePassUniqueId', { length: 36 })));
    await runner.createIndex(
      'coworkerinvoiceline',
      new TableIndex({ name: 'IX_coworkerinvoiceline_CoworkerTimePassUniqueId', columnNames: ['CoworkerTimePassUniqueId'] }),
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropIndex('coworkerinvoiceline', 'IX_coworkerinvoiceline_CoworkerTimePassUniqueId');
    await runner.dropColumn('coworkerinvoiceline', 'CoworkerTimePassUniqueId');
    await runner.dropColumn('product', 'TimePassQuantity');
    await runner.dropColumn('product', 'TimePassId');
    await runner.dropTable('checkin');
    await runner.dropTable('coworkertimepass');
    await runner.dropTable('timepass');
  }
}

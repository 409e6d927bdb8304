import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';
import { column, createRecordTable } from '../migration-helpers.js';

/**
 * Tax rates (docs/billing.md) and the tariff's billing fields. Products' tax rate ids were columns
 * already; values stored before stay as they are. A tariff's TaxRateId has no foreign key, like a
 * product's: deleting a rate in use is refused by TaxRatesService.
 */
export class TaxRates1765000000000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await createRecordTable(
      runner,
      'taxrate',
      [
        column.int('BusinessId', { nullable: false }),
        column.text('Name', { nullable: false }),
        column.money('Rate', { nullable: false }),
        column.int('ExemptionReason', { nullable: false, default: 1 }),
        column.longText('Description'),
      ],
      { foreignKeys: [{ column: 'BusinessId', references: 'business' }], indexes: ['Name'] },
    );
    await runner.addColumns('tariff', [
      new TableColumn(column.int('TaxRateId')),
      new TableColumn(column.int('InvoiceEvery', { nullable: false, default: 1 })),
    ]);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropColumn('tariff', 'InvoiceEvery');
    await runner.dropColumn('tariff', 'TaxRateId');
    await runner.dropTable('taxrate');
  }
}

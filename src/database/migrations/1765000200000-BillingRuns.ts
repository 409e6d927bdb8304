import { TableColumn, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { column, createRecordTable, createTable } from '../migration-helpers.js';

const CONTRACT_COLUMNS = [
  column.int('BillingDay', { nullable: false, default: 1 }),
  column.bool('ApplyProRating', { default: true }),
  column.dateTime('InvoicedPeriod'),
  column.dateTime('RenewalDate'),
];

const SALE_COLUMNS = [
  column.bool('RegularCharge'),
  column.int('RepeatCycle'),
  column.int('RepeatUnit', { nullable: false, default: 1 }),
  column.dateTime('RepeatFrom'),
  column.dateTime('RepeatUntil'),
  column.dateTime('InvoicedOn'),
  column.int('CoworkerInvoiceId'),
  column.text('CoworkerInvoiceNumber', { length: 32 }),
  column.dateTime('InvoicedPeriod'),
];

/**
 * Billing runs (docs/billing.md): the contract's billing fields (BillingDay from its start day, 28 at
 * most; RenewalDate = the next period to bill, indexed for the automatic run), recurring sales,
 * contract products, the record of each run, and the leases instances take to share automatic runs.
 */
export class BillingRuns1765000200000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    const mySql = ['mysql', 'mariadb'].includes(runner.connection.options.type);
    const q = (name: string) => runner.connection.driver.escape(name);
    await runner.addColumns(
      'coworkercontract',
      CONTRACT_COLUMNS.map((options) => new TableColumn(options)),
    );
    const day = mySql ? `LEAST(DAYOFMONTH(${q('StartDate')}), 28)` : `MIN(CAST(strftime('%d', ${q('StartDate')}) AS INTEGER), 28)`;
    const midnight = mySql ? `CAST(DATE(${q('StartDate')}) AS DATETIME)` : `date(${q('StartDate')}) || ' 00:00:00'`;
    await runner.query(
      `UPDATE ${q('coworkercontract')} SET ${q('BillingDay')} = ${day}, ${q('RenewalDate')} = CASE WHEN ${q('CancellationDate')} IS NULL OR ${q('CancellationDate')} > ${midnight} THEN ${midnight} ELSE NULL END`,
    );
    await runner.createIndex('coworkercontract', new TableIndex({ name: 'IX_coworkercontract_RenewalDate', columnNames: ['RenewalDate'] }));
    await runner.addColumns(
      'coworkerproduct',
      SALE_COLUMNS.map((options) => new TableColumn(options)),
    );
    await runner.createIndex(
      'coworkerproduct',
      new TableIndex({ name: 'IX_coworkerproduct_CoworkerId_Invoiced', columnNames: ['CoworkerId', 'Invoiced'] }),
    );

    await createRecordTable(
      runner,
      'contractproduct',
      [
        column.int('CoworkerContractId', { nullable: false }),
        column.int('ProductId', { nullable: false }),
        column.int('Quantity', { nullable: false, default: 1 }),
        column.money('Price', { nullable: false }),
        column.dateTime('RepeatFrom'),
        column.dateTime('RepeatUntil'),
        column.longText('Notes'),
        column.dateTime('InvoicedPeriod'),
        column.int('CoworkerId', { nullable: false }),
      ],
      {
        foreignKeys: [
          { column: 'CoworkerContractId', references: 'coworkercontract' },
          { column: 'ProductId', references: 'product' },
        ],
        indexes: ['CoworkerId'],
      },
    );

    await createRecordTable(
      runner,
      'billingrun',
      [
        column.int('BusinessId', { nullable: false }),
        column.text('Trigger', { length: 16, nullable: false }),
        column.dateTime('StartedOn', { nullable: false }),
        column.dateTime('FinishedOn'),
        column.dateTime('Until', { nullable: false }),
        column.int('CustomersBilled', { nullable: false, default: 0 }),
        column.idList('InvoiceIds'),
        column.longText('ErrorList'),
      ],
      { foreignKeys: [{ column: 'BusinessId', references: 'business', onDelete: 'CASCADE' }], indexes: ['StartedOn'] },
    );

    // One row per business while an instance bills it automatically (docs/billing.md, "Automatic runs").
    await createTable(runner, {
      name: 'billing_lease',
      columns: [
        { name: 'BusinessId', type: 'int', isPrimary: true, isNullable: false },
        { name: 'Holder', type: 'varchar', length: '80', isNullable: true },
        { name: 'LeaseUntil', type: 'datetime', isNullable: false },
        { name: 'LastRunOn', type: 'datetime', isNullable: true },
      ],
    });
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropTable('billing_lease');
    await runner.dropTable('billingrun');
    await runner.dropTable('contractproduct');
    await runner.dropIndex('coworkerproduct', 'IX_coworkerproduct_CoworkerId_Invoiced');
    for (const options of [...SALE_COLUMNS].reverse()) await runner.dropColumn('coworkerproduct', options.name);
    await runner.dropIndex('coworkercontract', 'IX_coworkercontract_RenewalDate');
    for (const options of [...CONTRACT_COLUMNS].reverse()) await runner.dropColumn('coworkercontract', options.name);
  }
}

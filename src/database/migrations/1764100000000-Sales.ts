import type { MigrationInterface, QueryRunner } from 'typeorm';
import { column, createRecordTable } from '../migration-helpers.js';

/** Sales (coworkerproduct) and the booking credits on customers' accounts (coworkerbookingcredit). */
export class Sales1764100000000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await createRecordTable(
      runner,
      'coworkerproduct',
      [
        column.int('CoworkerId', { nullable: false }),
        column.int('ProductId', { nullable: false }),
        column.int('Quantity', { nullable: false, default: 1 }),
        column.money('Price', { nullable: false }),
        column.dateTime('SaleDate', { nullable: false }),
        column.longText('Notes'),
        column.bool('Invoiced'),
      ],
      {
        // A customer or a product with sales cannot be deleted.
        foreignKeys: [
          { column: 'CoworkerId', references: 'coworker' },
          { column: 'ProductId', references: 'product' },
        ],
        indexes: ['SaleDate'],
      },
    );

    await createRecordTable(
      runner,
      'coworkerbookingcredit',
      [
        column.int('CoworkerId', { nullable: false }),
        column.int('BusinessId', { nullable: false }),
        column.longText('Description'),
        column.money('TotalCredit', { nullable: false, default: 0 }),
        column.money('RemainingCredit', { nullable: false, default: 0 }),
        column.dateTime('ValidFrom'),
        column.dateTime('ExpireDate'),
        column.idList('ElegibleResourceTypes'),
        column.idList('ElegibleProducts'),
        column.idList('ElegibleTariffs'),
        column.bool('CaneBeUsedForBookings'),
        column.bool('CaneBeUsedForEvents'),
        column.idList('EventCategories'),
        column.bool('IsUniversalCredit'),
        column.idList('ElegiblePasses'),
        column.bool('AppliesToCharges'),
        column.text('CoworkerProductUniqueId', { length: 36 }),
      ],
      {
        // A customer with credits cannot be deleted. The sale is named by its UniqueId, not a foreign
        // key: credits written by hand have none.
        foreignKeys: [
          { column: 'CoworkerId', references: 'coworker' },
          { column: 'BusinessId', references: 'business' },
        ],
        indexes: ['ExpireDate', 'CoworkerProductUniqueId'],
      },
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropTable('coworkerbookingcredit');
    await runner.dropTable('coworkerproduct');
  }
}

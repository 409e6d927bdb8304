import type { MigrationInterface, QueryRunner } from 'typeorm';
import { column, createRecordTable } from '../migration-helpers.js';

/** Deliveries (docs/stock-and-deliveries.md): kept for customers until collected, some made by sales. */
export class CoworkerDeliveries1765630000001 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await createRecordTable(
      runner,
      'coworkerdelivery',
      [
        column.int('BusinessId', { nullable: false }),
        column.text('Name', { nullable: false }),
        column.int('DeliveryType', { nullable: false }),
        column.int('CoworkerId'),
        column.text('Location'),
        column.text('ReceivedBy'),
        column.longText('Notes'),
        column.bool('RequiresSignature'),
        column.bool('Signed'),
        column.bool('Collected'),
        column.dateTime('CollectedOn'),
        // The UniqueId of the sale that made it: a sale's delete finds its deliveries by it.
        column.text('CoworkerProductUniqueId', { length: 36 }),
      ],
      {
        foreignKeys: [
          { column: 'BusinessId', references: 'business' },
          { column: 'CoworkerId', references: 'coworker' },
        ],
        indexes: ['CoworkerProductUniqueId', ['CoworkerId', 'Collected']],
      },
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropTable('coworkerdelivery');
  }
}

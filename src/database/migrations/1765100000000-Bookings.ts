import type { MigrationInterface, QueryRunner } from 'typeorm';
import { column, createRecordTable } from '../migration-helpers.js';

/**
 * Bookings paid with booking credits (docs/bookings.md): resource types, resources, bookings, the
 * products sold with them, and the use history of the credits they spent.
 */
export class Bookings1765100000000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await createRecordTable(
      runner,
      'resourcetype',
      [column.int('BusinessId', { nullable: false }), column.text('Name', { nullable: false })],
      { foreignKeys: [{ column: 'BusinessId', references: 'business' }], indexes: ['Name'] },
    );

    await createRecordTable(
      runner,
      'resource',
      [
        column.int('BusinessId', { nullable: false }),
        column.text('Name', { nullable: false }),
        column.int('ResourceTypeId', { nullable: false }),
        column.longText('Description'),
        column.int('Allocation', { nullable: false, default: 1 }),
        column.bool('Visible', { default: true }),
        column.bool('Archived'),
        column.bool('OnlyForMembers'),
        column.money('HourlyPrice', { nullable: false, default: 0 }),
        column.int('CurrencyId', { nullable: false }),
        column.int('TaxRateId'),
        column.int('MinBookingMinutes'),
        column.int('MaxBookingMinutes'),
        // Raised by every booking write of the resource: the write that serialises them.
        column.int('BookingSequence', { nullable: false, default: 0 }),
      ],
      {
        foreignKeys: [
          { column: 'BusinessId', references: 'business' },
          { column: 'ResourceTypeId', references: 'resourcetype' },
          { column: 'CurrencyId', references: 'currency' },
        ],
        indexes: ['Name'],
      },
    );

    await createRecordTable(
      runner,
      'booking',
      [
        column.int('ResourceId', { nullable: false }),
        column.int('CoworkerId', { nullable: false }),
        column.int('BusinessId', { nullable: false }),
        column.dateTime('FromTime', { nullable: false }),
        column.dateTime('ToTime', { nullable: false }),
        column.bool('Tentative'),
        column.longText('Notes'),
        column.bool('DoNotUseBookingCredit'),
        column.money('Price', { nullable: false, default: 0 }),
        column.money('CreditUsed', { nullable: false, default: 0 }),
        column.money('ChargeAmount', { nullable: false, default: 0 }),
        column.bool('Invoiced'),
        column.int('CoworkerInvoiceId'),
      ],
      {
        // A resource or customer with bookings cannot be deleted.
        foreignKeys: [
          { column: 'ResourceId', references: 'resource' },
          { column: 'CoworkerId', references: 'coworker' },
          { column: 'BusinessId', references: 'business' },
        ],
        indexes: ['FromTime', ['ResourceId', 'ToTime']],
      },
    );

    await createRecordTable(
      runner,
      'bookingproduct',
      [
        column.int('BookingId', { nullable: false }),
        column.int('ProductId', { nullable: false }),
        column.int('Quantity', { nullable: false, default: 1 }),
        column.int('CoworkerProductId', { nullable: false }),
      ],
      {
        foreignKeys: [
          { column: 'BookingId', references: 'booking' },
          { column: 'ProductId', references: 'product' },
          { column: 'CoworkerProductId', references: 'coworkerproduct' },
        ],
      },
    );

    await createRecordTable(
      runner,
      'coworkerbookingcredituse',
      [
        column.int('CoworkerBookingCreditId', { nullable: false }),
        column.int('BookingId', { nullable: false }),
        column.money('CreditUsed', { nullable: false, default: 0 }),
        column.bool('Returned'),
        column.int('CoworkerId', { nullable: false }),
      ],
      {
        // The record of a spend goes with its credit; it outlives its booking (named by Id).
        foreignKeys: [
          { column: 'CoworkerBookingCreditId', references: 'coworkerbookingcredit', onDelete: 'CASCADE' },
          { column: 'CoworkerId', references: 'coworker' },
        ],
        indexes: ['BookingId'],
      },
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropTable('coworkerbookingcredituse');
    await runner.dropTable('bookingproduct');
    await runner.dropTable('booking');
    await runner.dropTable('resource');
    await runner.dropTable('resourcetype');
  }
}

import { TableColumn, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { column } from '../migration-helpers.js';

/**
 * Universal credits pay invoice lines (docs/billing.md "Universal credits"): a credit line names the
 * credit, a paid line says how much credits paid, and a use of a credit names the line it paid (its
 * BookingId null then).
 */
export class UniversalCredits1765610000001 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await runner.addColumn('coworkerinvoiceline', new TableColumn(column.text('CoworkerBookingCreditUniqueId', { length: 36 })));
    await runner.createIndex(
      'coworkerinvoiceline',
      new TableIndex({ name: 'IX_coworkerinvoiceline_CoworkerBookingCreditUniqueId', columnNames: ['CoworkerBookingCreditUniqueId'] }),
    );
    await runner.addColumn('coworkerinvoiceline', new TableColumn(column.money('CreditAmount', { nullable: false, default: 0 })));
    await runner.changeColumn('coworkerbookingcredituse', 'BookingId', new TableColumn(column.int('BookingId')));
    await runner.addColumn('coworkerbookingcredituse', new TableColumn(column.int('CoworkerInvoiceLineId')));
    await runner.createIndex(
      'coworkerbookingcredituse',
      new TableIndex({ name: 'IX_coworkerbookingcredituse_CoworkerInvoiceLineId', columnNames: ['CoworkerInvoiceLineId'] }),
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropIndex('coworkerbookingcredituse', 'IX_coworkerbookingcredituse_CoworkerInvoiceLineId');
    await runner.dropColumn('coworkerbookingcredituse', 'CoworkerInvoiceLineId');
    await runner.query(`DELETE FROM coworkerbookingcredituse WHERE BookingId IS NULL`);
    await runner.changeColumn('coworkerbookingcredituse', 'BookingId', new TableColumn(column.int('BookingId', { nullable: false })));
    await runner.dropColumn('coworkerinvoiceline', 'CreditAmount');
    await runner.dropIndex('coworkerinvoiceline', 'IX_coworkerinvoiceline_CoworkerBookingCreditUniqueId');
    await runner.dropColumn('coworkerinvoiceline', 'CoworkerBookingCreditUniqueId');
  }
}

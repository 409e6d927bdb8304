import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The new columns: table → [column, SQL type]. */
const COLUMNS: ReadonlyArray<[table: string, column: string, type: string]> = [
  ['business', 'LegalName', 'varchar(255) NULL'],
  ['business', 'TaxIDNumber', 'varchar(255) NULL'],
  ['business', 'LegalRegistrationNumber', 'varchar(255) NULL'],
  ['business', 'BankAccountIban', 'varchar(255) NULL'],
  ['business', 'BankAccountBic', 'varchar(255) NULL'],
  ['business', 'PaymentMeansCode', 'int NOT NULL DEFAULT 58'],
  ['taxrate', 'VatCategoryCode', 'varchar(2) NULL'],
  ['taxrate', 'VatExemptionReasonText', 'varchar(255) NULL'],
  ['taxrate', 'VatExemptionReasonCode', 'varchar(255) NULL'],
  ['coworker', 'BuyerReference', 'varchar(255) NULL'],
];

/**
 * The data e-invoices need and the service lacked (docs/einvoices.md): the seller's legal name, VAT
 * identifier, registration number, bank account and payment means on the business; the VAT category and
 * exemption reason on tax rates; the buyer reference on customers. All optional; the payment means
 * defaults to 58 (SEPA credit transfer), for the businesses there are too. Plain ALTER TABLE, as
 * CustomerBillingTurn does: TypeORM's addColumn rebuilds a SQLite table from the columns it cached,
 * which do not hold those added by SQL (coworker.BillingSequence would be lost).
 */
export class EInvoiceFields1765600000000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    const q = (name: string) => runner.connection.driver.escape(name);
    for (const [table, column, type] of COLUMNS) await runner.query(`ALTER TABLE ${q(table)} ADD COLUMN ${q(column)} ${type}`);
  }

  async down(runner: QueryRunner): Promise<void> {
    const q = (name: string) => runner.connection.driver.escape(name);
    for (const [table, column] of [...COLUMNS].reverse()) await runner.query(`ALTER TABLE ${q(table)} DROP COLUMN ${q(column)}`);
  }
}

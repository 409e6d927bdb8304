import { TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { column, createRecordTable, createTable } from '../migration-helpers.js';

/**
 * Settlement (docs/settlement.md): customers' ledger entries (payments and refunds of invoices), and the
 * files a print command leaves for download by an unguessable token (kept in the database, so any
 * instance serves a token another one issued).
 */
export class Settlement1765200000000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await createRecordTable(
      runner,
      'coworkerledgerentry',
      [
        column.int('BusinessId', { nullable: false }),
        column.int('CoworkerId', { nullable: false }),
        column.int('CoworkerInvoiceId'),
        column.longText('Description'),
        column.text('Code'),
        column.money('Debit', { nullable: false, default: 0 }),
        column.money('Credit', { nullable: false, default: 0 }),
        column.int('PaymentGatewayName', { nullable: false, default: 11 }),
        column.dateTime('TransactionDate', { nullable: false }),
      ],
      {
        foreignKeys: [
          { column: 'BusinessId', references: 'business' },
          { column: 'CoworkerId', references: 'coworker' },
          { column: 'CoworkerInvoiceId', references: 'coworkerinvoice' },
        ],
        // A customer's running Balance adds its entries up in TransactionDate order.
        indexes: [['CoworkerId', 'TransactionDate']],
      },
    );
    const mySql = ['mysql', 'mariadb'].includes(runner.connection.driver.options.type);
    await createTable(runner, {
      name: 'download_file',
      columns: [
        { name: 'Id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
        // SHA-256 (hex) of the token: the table alone does not give a working download link.
        column.text('TokenHash', { length: 64, nullable: false }),
        column.text('FileName', { nullable: false }),
        column.text('ContentType', { length: 100, nullable: false }),
        { name: 'Content', type: mySql ? 'longblob' : 'blob', isNullable: false },
        column.dateTime('CreatedOn', { nullable: false }),
        column.dateTime('ExpiresOn', { nullable: false }),
      ],
      indices: [
        new TableIndex({ name: 'UQ_download_file_TokenHash', columnNames: ['TokenHash'], isUnique: true }),
        new TableIndex({ name: 'IX_download_file_ExpiresOn', columnNames: ['ExpiresOn'] }),
      ],
    });
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropTable('download_file');
    await runner.dropTable('coworkerledgerentry');
  }
}

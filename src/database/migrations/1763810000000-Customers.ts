import type { MigrationInterface, QueryRunner } from 'typeorm';
import { column, createRecordTable } from '../migration-helpers.js';

/** Tariffs (pricing plans) and coworkers (customers). */
export class Customers1763810000000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await createRecordTable(
      runner,
      'tariff',
      [
        column.int('BusinessId', { nullable: false }),
        column.text('Name', { nullable: false }),
        column.money('Price', { nullable: false }),
        column.int('CurrencyId', { nullable: false }),
        column.longText('Description'),
        column.bool('Visible'),
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
      'coworker',
      [
        column.int('BusinessId', { nullable: false }),
        column.text('FullName', { nullable: false }),
        column.text('Email', { nullable: false }),
        column.int('CoworkerType'),
        column.text('CompanyName'),
        column.text('BillingName'),
        column.text('Address'),
        column.text('City'),
        column.text('PostCode'),
        column.int('CountryId'),
        column.text('TaxIDNumber'),
        column.text('MobilePhone'),
        column.int('TariffId'),
      ],
      {
        foreignKeys: [
          { column: 'BusinessId', references: 'business' },
          { column: 'CountryId', references: 'country' },
          { column: 'TariffId', references: 'tariff' },
        ],
        indexes: ['FullName', 'Email'],
      },
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropTable('coworker');
    await runner.dropTable('tariff');
  }
}

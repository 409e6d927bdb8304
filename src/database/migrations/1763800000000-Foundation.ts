import type { MigrationInterface, QueryRunner } from 'typeorm';
import { column, createRecordTable, seedRecords } from '../migration-helpers.js';
import { COUNTRIES } from '../reference-data/iso-countries.js';
import { CURRENCIES } from '../reference-data/iso-currencies.js';

/** Currencies and countries (seeded with ISO 4217 and ISO 3166-1) and businesses. */
export class Foundation1763800000000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await createRecordTable(
      runner,
      'currency',
      [column.text('Code', { length: 3, nullable: false }), column.text('Name', { nullable: false }), column.text('Format')],
      { unique: [['Code']] },
    );
    await createRecordTable(
      runner,
      'country',
      [
        column.text('Name', { nullable: false }),
        column.text('TwoDigitsCode', { length: 2, nullable: false }),
        column.text('Culture', { length: 16 }),
      ],
      { unique: [['TwoDigitsCode']], indexes: ['Name'] },
    );
    await createRecordTable(
      runner,
      'business',
      [
        column.text('Name', { nullable: false }),
        column.int('CurrencyId', { nullable: false }),
        column.int('CountryId', { nullable: false }),
        column.text('Address'),
        column.text('City'),
        column.text('PostCode'),
        column.text('Email'),
        column.text('WebAddress'),
        column.text('SimpleTimeZoneId'),
      ],
      {
        foreignKeys: [
          { column: 'CurrencyId', references: 'currency' },
          { column: 'CountryId', references: 'country' },
        ],
        indexes: ['Name'],
      },
    );
    await seedRecords(runner, 'currency', ['Code', 'Name', 'Format'], CURRENCIES);
    await seedRecords(runner, 'country', ['TwoDigitsCode', 'Name', 'Culture'], COUNTRIES);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropTable('business');
    await runner.dropTable('country');
    await runner.dropTable('currency');
  }
}

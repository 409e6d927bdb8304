import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Long text holds 65,535 characters of any script (docs/api.md §1): on MySQL/MariaDB the long-text
 * columns made as TEXT (65,535 bytes: 21,845 "中") become MEDIUMTEXT, keeping every stored value and
 * its nullability; the idempotency answers and the delivery errors too, which may quote such text.
 * SQLite's TEXT already holds them: nothing to do there. Tables made from now on get MEDIUMTEXT from
 * `column.longText` (migration-helpers.ts).
 */
const LONG_TEXT: ReadonlyArray<[table: string, column: string, nullable: boolean]> = [
  ['tariff', 'Description', true],
  ['product', 'Description', false],
  ['product', 'NotesForAi', true],
  ['invoice', 'Description', true],
  ['invoice', 'CustomData', true],
  ['coworkerinvoice', 'Description', true],
  ['coworkerinvoicepaymenttoken', 'Token', true],
  ['coworkerinvoicepaymenttoken', 'Notes', true],
  ['survey', 'Description', true],
  ['calendarevent', 'ShortDescription', true],
  ['calendarevent', 'LongDescription', true],
  ['coworkerproduct', 'Notes', true],
  ['coworkerbookingcredit', 'Description', true],
  ['idempotency_key', 'Body', true],
  ['webhook', 'Description', true],
  ['webhook', 'LastError', true],
  ['webhook_delivery', 'LastError', true],
  ['coworkercontract', 'Notes', true],
  ['team', 'Description', true],
];

const onMySql = (runner: QueryRunner) => ['mysql', 'mariadb'].includes(runner.connection.options.type);

async function retype(runner: QueryRunner, type: 'MEDIUMTEXT' | 'TEXT'): Promise<void> {
  if (!onMySql(runner)) return;
  for (const [table, column, nullable] of LONG_TEXT) {
    const [found] = await runner.query(
      'SELECT 1 AS x FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? AND COLUMN_NAME = ?',
      [table, column],
    );
    if (!found) continue;
    await runner.query(`ALTER TABLE \`${table}\` MODIFY \`${column}\` ${type} ${nullable ? 'NULL' : 'NOT NULL'}`);
  }
}

export class LongTextInCharacters1765300000000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await retype(runner, 'MEDIUMTEXT');
  }

  async down(runner: QueryRunner): Promise<void> {
    await retype(runner, 'TEXT');
  }
}

import { randomUUID } from 'node:crypto';
import { TableColumn, TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { column, createJoinTable, createRecordTable } from '../migration-helpers.js';

const NEW_COWORKER_COLUMNS = ['Salutation', 'BillingEmail', 'KeyFobNumber', 'AccessCardId', 'AccessPincode'];

/**
 * Customers' contracts (coworkercontract), teams (team, team_member) and the customer fields that
 * access-control and billing clients read. Every customer's TariffId becomes its main contract on that
 * tariff, from the customer's creation, at the tariff's price; the column then goes (down puts it back
 * from the main contracts).
 */
export class ContractsAndTeams1764500000000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await createRecordTable(
      runner,
      'coworkercontract',
      [
        column.int('CoworkerId', { nullable: false }),
        column.int('TariffId', { nullable: false }),
        column.dateTime('StartDate', { nullable: false }),
        column.dateTime('CancellationDate'),
        column.money('Price', { nullable: false }),
        column.longText('Notes'),
        column.bool('IsPrimaryContract'),
      ],
      {
        // A customer or a tariff with contracts cannot be deleted.
        foreignKeys: [
          { column: 'CoworkerId', references: 'coworker' },
          { column: 'TariffId', references: 'tariff' },
        ],
        indexes: ['StartDate', 'CancellationDate'],
      },
    );
    await createRecordTable(
      runner,
      'team',
      [column.int('BusinessId', { nullable: false }), column.text('Name', { nullable: false }), column.longText('Description')],
      { foreignKeys: [{ column: 'BusinessId', references: 'business' }], indexes: ['Name'] },
    );
    await createJoinTable(runner, 'team_member', [
      { column: 'TeamId', references: 'team' },
      { column: 'CoworkerId', references: 'coworker' },
    ]);

    await runner.addColumns(
      'coworker',
      NEW_COWORKER_COLUMNS.map((name) => new TableColumn(column.text(name))),
    );
    await runner.createIndices(
      'coworker',
      ['KeyFobNumber', 'AccessCardId'].map((name) => new TableIndex({ name: `IX_coworker_${name}`, columnNames: [name] })),
    );

    const q = (name: string) => runner.connection.driver.escape(name);
    const plans = (await runner.query(
      `SELECT c.${q('Id')} AS id, c.${q('TariffId')} AS tariff, c.${q('CreatedOn')} AS since, t.${q('Price')} AS price ` +
        `FROM ${q('coworker')} c JOIN ${q('tariff')} t ON t.${q('Id')} = c.${q('TariffId')} ORDER BY c.${q('Id')}`,
    )) as Array<{ id: number; tariff: number; since: unknown; price: unknown }>;
    const now = new Date().toISOString().replace('T', ' ').replace('Z', '');
    const names = [
      'UniqueId',
      'CreatedOn',
      'UpdatedOn',
      'IsNew',
      'CoworkerId',
      'TariffId',
      'StartDate',
      'Price',
      'Notes',
      'IsPrimaryContract',
    ];
    for (const plan of plans) {
      await runner.query(`INSERT INTO ${q('coworkercontract')} (${names.map(q).join(', ')}) VALUES (${names.map(() => '?').join(', ')})`, [
        randomUUID(),
        now,
        now,
        1,
        plan.id,
        plan.tariff,
        plan.since,
        plan.price,
        "The customer's plan (TariffId) when contracts were introduced.",
        1,
      ]);
    }
    await runner.dropForeignKey('coworker', 'FK_coworker_TariffId');
    await runner.dropIndex('coworker', 'IX_coworker_TariffId');
    await runner.dropColumn('coworker', 'TariffId');
  }

  async down(runner: QueryRunner): Promise<void> {
    // TypeORM rebuilds a SQLite table to change its columns, and a revert runs inside a transaction,
    // where SQLite cannot switch foreign keys off: dropping the rebuilt customer table would fail on
    // its contracts and sales. SQLite's own ALTER TABLE changes the columns in place instead.
    const sqlite = !['mysql', 'mariadb'].includes(runner.connection.options.type);
    const q = (name: string) => runner.connection.driver.escape(name);
    if (sqlite) {
      await runner.query(
        `ALTER TABLE ${q('coworker')} ADD COLUMN ${q('TariffId')} integer CONSTRAINT ${q('FK_coworker_TariffId')} REFERENCES ${q('tariff')} (${q('Id')}) ON DELETE RESTRICT`,
      );
    } else {
      await runner.addColumn('coworker', new TableColumn(column.int('TariffId')));
      await runner.createForeignKey(
        'coworker',
        new TableForeignKey({
          name: 'FK_coworker_TariffId',
          columnNames: ['TariffId'],
          referencedTableName: 'tariff',
          referencedColumnNames: ['Id'],
          onDelete: 'RESTRICT',
        }),
      );
    }
    await runner.createIndex('coworker', new TableIndex({ name: 'IX_coworker_TariffId', columnNames: ['TariffId'] }));
    const mains = (await runner.query(
      `SELECT ${q('CoworkerId')} AS coworker, ${q('TariffId')} AS tariff FROM ${q('coworkercontract')} ` +
        `WHERE ${q('CancellationDate')} IS NULL ORDER BY ${q('IsPrimaryContract')} ASC, ${q('StartDate')} DESC, ${q('Id')} DESC`,
    )) as Array<{ coworker: number; tariff: number }>;
    // The last one written for a customer wins: its primary contract, else its first started.
    for (const main of mains) {
      await runner.query(`UPDATE ${q('coworker')} SET ${q('TariffId')} = ? WHERE ${q('Id')} = ?`, [main.tariff, main.coworker]);
    }
    await runner.dropIndex('coworker', 'IX_coworker_KeyFobNumber');
    await runner.dropIndex('coworker', 'IX_coworker_AccessCardId');
    if (sqlite) for (const name of NEW_COWORKER_COLUMNS) await runner.query(`ALTER TABLE ${q('coworker')} DROP COLUMN ${q(name)}`);
    else await runner.dropColumns('coworker', NEW_COWORKER_COLUMNS);
    await runner.dropTable('team_member');
    await runner.dropTable('team');
    await runner.dropTable('coworkercontract');
  }
}

import { TableColumn, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { column } from '../migration-helpers.js';

const sqlite = (runner: QueryRunner) => !['mysql', 'mariadb'].includes(runner.connection.options.type);

/**
 * Team billing (docs/billing.md, "Team invoices"): a team's `PayingMemberId` (a customer, indexed for
 * the run's "whom does this customer pay for") and `CreateSingleInvoiceForTeam`. On SQLite the columns
 * are added and dropped in place: TypeORM would rebuild the team table, and dropping the old one inside
 * the migration's transaction, where foreign keys cannot be switched off, would delete its members
 * (team_member's foreign key cascades).
 */
export class TeamBilling1765620000000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    const q = (name: string) => runner.connection.driver.escape(name);
    if (sqlite(runner)) {
      await runner.query(`ALTER TABLE ${q('team')} ADD COLUMN ${q('PayingMemberId')} integer`);
      await runner.query(`ALTER TABLE ${q('team')} ADD COLUMN ${q('CreateSingleInvoiceForTeam')} boolean NOT NULL DEFAULT (0)`);
    } else {
      await runner.addColumns('team', [
        new TableColumn(column.int('PayingMemberId')),
        new TableColumn(column.bool('CreateSingleInvoiceForTeam')),
      ]);
    }
    await runner.createIndex('team', new TableIndex({ name: 'IX_team_PayingMemberId', columnNames: ['PayingMemberId'] }));
  }

  async down(runner: QueryRunner): Promise<void> {
    const q = (name: string) => runner.connection.driver.escape(name);
    await runner.dropIndex('team', 'IX_team_PayingMemberId');
    for (const name of ['CreateSingleInvoiceForTeam', 'PayingMemberId']) {
      if (sqlite(runner)) await runner.query(`ALTER TABLE ${q('team')} DROP COLUMN ${q(name)}`);
      else await runner.dropColumn('team', name);
    }
  }
}

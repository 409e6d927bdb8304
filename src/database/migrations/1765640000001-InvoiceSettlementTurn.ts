import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An invoice's settlement turn (docs/settlement.md): `coworkerinvoice.SettlementSequence`, which every
 * writer of the invoice's settlement bumps first on a Galera cluster, where `SELECT … FOR UPDATE` holds
 * the row on one node only. Never on the wire. (ALTER TABLE … ADD COLUMN on both databases: TypeORM's
 * addColumn rebuilds a SQLite table.)
 */
export class InvoiceSettlementTurn1765640000001 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    const q = (name: string) => runner.connection.driver.escape(name);
    await runner.query(`ALTER TABLE ${q('coworkerinvoice')} ADD COLUMN ${q('SettlementSequence')} int NOT NULL DEFAULT 0`);
  }

  async down(runner: QueryRunner): Promise<void> {
    const q = (name: string) => runner.connection.driver.escape(name);
    await runner.query(`ALTER TABLE ${q('coworkerinvoice')} DROP COLUMN ${q('SettlementSequence')}`);
  }
}

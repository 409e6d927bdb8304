import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A customer's billing turn (docs/billing.md, "Exactly once"): `coworker.BillingSequence`, which every
 * transaction that bills the customer bumps first, so that two of them write one row in common and
 * take turns on one server and across Galera nodes alike. Never on the wire.
 */
export class CustomerBillingTurn1765400000000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    const q = (name: string) => runner.connection.driver.escape(name);
    await runner.query(`ALTER TABLE ${q('coworker')} ADD COLUMN ${q('BillingSequence')} int NOT NULL DEFAULT 0`);
  }

  async down(runner: QueryRunner): Promise<void> {
    const q = (name: string) => runner.connection.driver.escape(name);
    await runner.query(`ALTER TABLE ${q('coworker')} DROP COLUMN ${q('BillingSequence')}`);
  }
}

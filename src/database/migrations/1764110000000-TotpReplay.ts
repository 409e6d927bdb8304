import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';
import { column } from '../migration-helpers.js';

/** The time step of each user's last accepted one-time code, so that no code is accepted twice. */
export class TotpReplay1764110000000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await runner.addColumn('user', new TableColumn(column.int('LastTotpStep')));
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropColumn('user', 'LastTotpStep');
  }
}

import { TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { column, createTable } from '../migration-helpers.js';

/**
 * The turns guarded writes took on a Galera cluster: one row per (table, row, turn), the turn being the
 * row's Version or sequence after the write. Two writes that took the same turn on two nodes collide on
 * the unique key (docs/architecture.md §7, "Galera causality for writes").
 */
export class RowTurns1765640000000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await createTable(runner, {
      name: 'row_turn',
      columns: [
        { name: 'Id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
        column.text('TableName', { length: 64, nullable: false }),
        column.int('RowId', { nullable: false }),
        column.int('Turn', { nullable: false }),
        column.dateTime('TakenOn', { nullable: false }),
      ],
      indices: [
        new TableIndex({ name: 'UQ_row_turn_TableName_RowId_Turn', columnNames: ['TableName', 'RowId', 'Turn'], isUnique: true }),
        new TableIndex({ name: 'IDX_row_turn_TakenOn', columnNames: ['TakenOn'] }),
      ],
    });
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropTable('row_turn');
  }
}

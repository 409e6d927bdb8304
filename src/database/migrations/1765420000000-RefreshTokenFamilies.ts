import { TableColumn, TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { column, createTable } from '../migration-helpers.js';

/**
 * Refresh-token families (docs/api.md §2.3): each password login starts a family that its refreshes
 * carry on (`refresh_token.FamilyId`, also written into the access tokens minted from it); a replay
 * revokes the family (`revoked_token_family`), and its access tokens stop within the user-state cache's
 * two seconds. Tokens issued before this migration have no family.
 */
export class RefreshTokenFamilies1765420000000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await runner.addColumn('refresh_token', new TableColumn(column.text('FamilyId', { length: 32 })));
    await createTable(runner, {
      name: 'revoked_token_family',
      columns: [
        { name: 'Id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
        column.text('FamilyId', { length: 32, nullable: false }),
        column.int('UserId', { nullable: false }),
        column.dateTime('RevokedOn', { nullable: false }),
      ],
      indices: [
        new TableIndex({ name: 'UQ_revoked_token_family_FamilyId', columnNames: ['FamilyId'], isUnique: true }),
        new TableIndex({ name: 'IX_revoked_token_family_UserId_RevokedOn', columnNames: ['UserId', 'RevokedOn'] }),
      ],
      foreignKeys: [
        new TableForeignKey({
          name: 'FK_revoked_token_family_UserId',
          columnNames: ['UserId'],
          referencedTableName: 'user',
          referencedColumnNames: ['Id'],
          onDelete: 'CASCADE',
        }),
      ],
    });
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropTable('revoked_token_family');
    await runner.dropColumn('refresh_token', 'FamilyId');
  }
}

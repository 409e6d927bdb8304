import { TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { column, createRecordTable, createTable } from '../migration-helpers.js';

/** Users, the businesses of restricted administrators, and refresh tokens. */
export class Users1763820000000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await createRecordTable(
      runner,
      'user',
      [
        column.text('Email', { nullable: false }),
        column.text('EmailKey', { nullable: false }),
        column.text('FullName', { nullable: false }),
        column.text('PasswordHash', { nullable: false }),
        column.bool('Active', { default: true }),
        column.bool('IsAdmin'),
        column.idList('Roles'),
        column.bool('TwoFactorEnabled'),
        column.text('TwoFactorSecret'),
        column.int('CoworkerId'),
        column.int('SecurityStamp', { nullable: false, default: 0 }),
        column.int('FailedLoginCount', { nullable: false, default: 0 }),
        column.dateTime('LockedUntil'),
      ],
      {
        // A customer's login goes with the customer.
        foreignKeys: [{ column: 'CoworkerId', references: 'coworker', onDelete: 'CASCADE' }],
        unique: [['EmailKey']],
        indexes: ['FullName'],
      },
    );
    await createTable(runner, {
      name: 'user_business',
      columns: [
        { name: 'UserId', type: 'int', isPrimary: true },
        { name: 'BusinessId', type: 'int', isPrimary: true },
      ],
      indices: [new TableIndex({ name: 'IX_user_business_BusinessId', columnNames: ['BusinessId'] })],
      foreignKeys: [
        new TableForeignKey({
          name: 'FK_user_business_UserId',
          columnNames: ['UserId'],
          referencedTableName: 'user',
          referencedColumnNames: ['Id'],
          onDelete: 'CASCADE',
        }),
        new TableForeignKey({
          name: 'FK_user_business_BusinessId',
          columnNames: ['BusinessId'],
          referencedTableName: 'business',
          referencedColumnNames: ['Id'],
          onDelete: 'CASCADE',
        }),
      ],
    });
    await createTable(runner, {
      name: 'refresh_token',
      columns: [
        { name: 'Id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
        column.int('UserId', { nullable: false }),
        column.text('ClientId', { nullable: false }),
        column.text('TokenHash', { length: 64, nullable: false }),
        column.dateTime('CreatedOn', { nullable: false }),
        column.dateTime('ExpiresOn', { nullable: false }),
        column.dateTime('UsedOn'),
        column.dateTime('RevokedOn'),
      ],
      indices: [
        new TableIndex({ name: 'UQ_refresh_token_TokenHash', columnNames: ['TokenHash'], isUnique: true }),
        new TableIndex({ name: 'IX_refresh_token_UserId_ClientId', columnNames: ['UserId', 'ClientId'] }),
      ],
      foreignKeys: [
        new TableForeignKey({
          name: 'FK_refresh_token_UserId',
          columnNames: ['UserId'],
          referencedTableName: 'user',
          referencedColumnNames: ['Id'],
          onDelete: 'CASCADE',
        }),
      ],
    });
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropTable('refresh_token');
    await runner.dropTable('user_business');
    await runner.dropTable('user');
  }
}

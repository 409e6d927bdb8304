import { TableColumn, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { column } from '../migration-helpers.js';

/**
 * A user's stored downloads are bounded (docs/settlement.md, "The PDF and its download"): each file names
 * the user it was made for (`UserId`, 0 for none) and its size (`ByteCount`). Files stored before this
 * migration have neither and expire within 15 minutes.
 */
export class DownloadOwners1765520000040 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await runner.addColumn('download_file', new TableColumn(column.int('UserId')));
    await runner.addColumn('download_file', new TableColumn(column.int('ByteCount', { nullable: false, default: 0 })));
    await runner.createIndex('download_file', new TableIndex({ name: 'IX_download_file_UserId', columnNames: ['UserId'] }));
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropIndex('download_file', 'IX_download_file_UserId');
    await runner.dropColumn('download_file', 'ByteCount');
    await runner.dropColumn('download_file', 'UserId');
  }
}

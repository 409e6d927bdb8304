import { Index, PrimaryGeneratedColumn } from 'typeorm';
import { BoolColumn, DateTimeColumn, IntColumn, TextColumn } from './columns.js';

/**
 * The common fields of every record (docs/api.md §1.1). The read-only extras are added on the way out.
 * Indexes and keys are those createRecordTable() makes: UniqueId unique, CreatedOn and UpdatedOn indexed.
 */
@Index(['UniqueId'], { unique: true })
export abstract class RecordEntity {
  @PrimaryGeneratedColumn({ type: 'int' })
  Id: number;

  @TextColumn({ length: 36, nullable: false })
  UniqueId: string;

  @DateTimeColumn({ nullable: false, index: true })
  CreatedOn: Date;

  @DateTimeColumn({ nullable: false, index: true })
  UpdatedOn: Date;

  @TextColumn()
  UpdatedBy: string | null;

  @BoolColumn({ default: true })
  IsNew: boolean;

  @TextColumn()
  SystemId: string | null;

  /** Raised by every update; the record's ETag, never a field on the wire (src/records/versions.ts). */
  @IntColumn({ nullable: false, default: 1 })
  Version: number;
}

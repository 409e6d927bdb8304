import { Entity, Index } from 'typeorm';
import { TextColumn } from '../../records/columns.js';
import { RecordEntity } from '../../records/record.entity.js';

/** An ISO 4217 currency; reference data, read-only. */
@Entity('currency')
@Index(['Code'], { unique: true })
export class Currency extends RecordEntity {
  @TextColumn({ length: 3, nullable: false })
  Code: string;

  @TextColumn({ nullable: false })
  Name: string;

  @TextColumn()
  Format: string | null;
}

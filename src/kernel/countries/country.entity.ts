import { Entity, Index } from 'typeorm';
import { TextColumn } from '../../records/columns.js';
import { RecordEntity } from '../../records/record.entity.js';

/** An ISO 3166-1 country; reference data, read-only. */
@Entity('country')
@Index(['TwoDigitsCode'], { unique: true })
export class Country extends RecordEntity {
  @TextColumn({ nullable: false, index: true })
  Name: string;

  @TextColumn({ length: 2, nullable: false })
  TwoDigitsCode: string;

  @TextColumn({ length: 16 })
  Culture: string | null;
}

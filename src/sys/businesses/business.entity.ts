import { Entity } from 'typeorm';
import { IntColumn, TextColumn } from '../../common/columns.js';
import { RecordEntity } from '../../common/record.entity.js';

/** A coworking business (an operator's location); restricted administrators are scoped to these. */
@Entity('business')
export class Business extends RecordEntity {
  @TextColumn({ nullable: false })
  Name: string;

  @IntColumn({ nullable: false })
  CurrencyId: number;

  @IntColumn({ nullable: false })
  CountryId: number;

  @TextColumn() Address: string | null;
  @TextColumn() City: string | null;
  @TextColumn() PostCode: string | null;
  @TextColumn() Email: string | null;
  @TextColumn() WebAddress: string | null;
  @TextColumn() SimpleTimeZoneId: string | null;
}

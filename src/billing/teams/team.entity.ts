import { Entity } from 'typeorm';
import { IntColumn, LongTextColumn, TextColumn } from '../../common/columns.js';
import { RecordEntity } from '../../common/record.entity.js';
import { Business } from '../../kernel/businesses/business.entity.js';

/** A team of customers of one business (its members are kept in team_member). */
@Entity('team')
export class Team extends RecordEntity {
  @IntColumn({ nullable: false, references: () => Business }) BusinessId: number;
  @TextColumn({ nullable: false, index: true }) Name: string;
  @LongTextColumn() Description: string | null;
}

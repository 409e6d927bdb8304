import { Entity } from 'typeorm';
import { IntColumn, TextColumn } from '../../records/columns.js';
import { RecordEntity } from '../../records/record.entity.js';
import { Business } from '../../kernel/businesses/business.entity.js';

/** A kind of bookable resource (meeting room, desk); booking credits may name the types they pay for (docs/bookings.md). */
@Entity('resourcetype')
export class ResourceType extends RecordEntity {
  @IntColumn({ nullable: false, references: () => Business }) BusinessId: number;
  @TextColumn({ nullable: false, index: true }) Name: string;
}

import { Entity } from 'typeorm';
import { BoolColumn, IntColumn, TextColumn } from '../../common/columns.js';
import { RecordEntity } from '../../common/record.entity.js';

/** A person signed up for an event; each takes one place of the event's Allocation. */
@Entity('eventattendee')
export class EventAttendee extends RecordEntity {
  @IntColumn({ nullable: false }) CalendarEventId: number;
  @TextColumn({ nullable: false }) FullName: string;
  @TextColumn({ nullable: false }) Email: string;
  @IntColumn() CoworkerId: number | null;
  @BoolColumn() CheckedIn: boolean;
}

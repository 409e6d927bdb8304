import { Entity } from 'typeorm';
import { BoolColumn, IntColumn, TextColumn } from '../../records/columns.js';
import { RecordEntity } from '../../records/record.entity.js';
import { CalendarEvent } from '../calendar-events/calendar-event.entity.js';
import { Coworker } from '../../customers/coworker.entity.js';

/** A person signed up for an event; each takes one place of the event's Allocation. */
@Entity('eventattendee')
export class EventAttendee extends RecordEntity {
  @IntColumn({ nullable: false, references: () => CalendarEvent }) CalendarEventId: number;
  @TextColumn({ nullable: false, index: true }) FullName: string;
  @TextColumn({ nullable: false, index: true }) Email: string;
  @IntColumn({ references: () => Coworker }) CoworkerId: number | null;
  @BoolColumn() CheckedIn: boolean;
}

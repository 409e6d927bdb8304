import { Entity, Index } from 'typeorm';
import { IntColumn, TextColumn } from '../../records/columns.js';
import { RecordEntity } from '../../records/record.entity.js';
import { Business } from '../../kernel/businesses/business.entity.js';
import { CalendarEvent } from '../calendar-events/calendar-event.entity.js';
import { Coworker } from '../../customers/coworker.entity.js';

/**
 * A person waiting for a place at a sold-out event. A customer is on an event's list at most once
 * (a unique index on CalendarEventId + CoworkerId); the list reads in joining order (CreatedOn).
 */
@Entity('eventwaitingattendee')
@Index(['CalendarEventId', 'CoworkerId'], { unique: true })
export class EventWaitingAttendee extends RecordEntity {
  @IntColumn({ nullable: false, references: () => Business }) BusinessId: number;
  @IntColumn({ nullable: false, references: () => CalendarEvent }) CalendarEventId: number;
  @TextColumn({ nullable: false, index: true }) FullName: string;
  @TextColumn({ nullable: false, index: true }) Email: string;
  @IntColumn({ references: () => Coworker }) CoworkerId: number | null;
}

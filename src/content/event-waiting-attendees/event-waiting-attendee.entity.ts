import { Entity } from 'typeorm';
import { IntColumn, TextColumn } from '../../common/columns.js';
import { RecordEntity } from '../../common/record.entity.js';

/**
 * A person waiting for a place at a sold-out event. A customer is on an event's list at most once
 * (a unique index on CalendarEventId + CoworkerId); the list reads in joining order (CreatedOn).
 */
@Entity('eventwaitingattendee')
export class EventWaitingAttendee extends RecordEntity {
  @IntColumn({ nullable: false }) BusinessId: number;
  @IntColumn({ nullable: false }) CalendarEventId: number;
  @TextColumn({ nullable: false }) FullName: string;
  @TextColumn({ nullable: false }) Email: string;
  @IntColumn() CoworkerId: number | null;
}

import { Entity } from 'typeorm';
import { BoolColumn, DateTimeColumn, IntColumn, LongTextColumn, TextColumn } from '../../records/columns.js';
import { RecordEntity } from '../../records/record.entity.js';
import { Business } from '../../kernel/businesses/business.entity.js';

/** An event a business runs; customers attend it, or wait for a spot when it is sold out. */
@Entity('calendarevent')
export class CalendarEvent extends RecordEntity {
  @IntColumn({ nullable: false, references: () => Business }) BusinessId: number;
  @TextColumn({ nullable: false, index: true }) Name: string;
  @DateTimeColumn({ nullable: false, index: true }) StartDate: Date;
  @DateTimeColumn({ nullable: false, index: true }) EndDate: Date;
  @LongTextColumn() ShortDescription: string | null;
  @LongTextColumn() LongDescription: string | null;
  @TextColumn() Location: string | null;
  /** Capacity; null means unlimited. */
  @IntColumn() Allocation: number | null;
  @BoolColumn() EnableWaitList: boolean;
  /** The event is public from this moment on; null means at once. */
  @DateTimeColumn({ index: true }) PublishDate: Date | null;
  @BoolColumn() OnlyForMembers: boolean;
  @BoolColumn() OnlyForContacts: boolean;
}

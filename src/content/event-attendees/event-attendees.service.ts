import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { RecordService, type SaveContext } from '../../common/record.service.js';
import { CalendarEvent } from '../calendar-events/calendar-event.entity.js';
import type { EventAttendeeDto } from './dto/event-attendee.dto.js';
import { EventAttendee } from './event-attendee.entity.js';

@Injectable()
export class EventAttendeesService extends RecordService<EventAttendee> {
  /** A new attendee, or one moved to another event, takes a place: refused when none is left. */
  protected override async beforeSave(context: SaveContext): Promise<void> {
    const eventId = (context.dto as EventAttendeeDto).CalendarEventId;
    if (context.existing && Number(context.existing.CalendarEventId) === eventId) return;
    await this.takePlace(eventId, context.manager);
  }

  /**
   * Checks that the event has a free place, holding the event's row until the transaction ends so
   * that concurrent sign-ups take turns. On SQLite write transactions already take turns. On MySQL
   * the event row is locked, and the attendees are counted with a locking read too: a plain read
   * would see the snapshot this transaction took before it waited, without the places taken since.
   */
  private async takePlace(eventId: number, manager: EntityManager): Promise<void> {
    const { db } = this;
    const forUpdate = db.isMySql ? ' FOR UPDATE' : '';
    const [event] = await db.query<{ Allocation: number | null }>(
      `SELECT ${db.id('Allocation')} AS ${db.id('Allocation')} FROM ${db.tableOf(CalendarEvent)} WHERE ${db.id('Id')} = ?${forUpdate}`,
      [eventId],
      manager,
    );
    if (!event || event.Allocation === null) return; // gone meanwhile: the foreign key refuses the write
    const [taken] = await db.query<{ n: number }>(
      `SELECT COUNT(*) AS n FROM ${db.tableOf(EventAttendee)} WHERE ${db.id('CalendarEventId')} = ?${forUpdate}`,
      [eventId],
      manager,
    );
    if (Number(taken.n) >= Number(event.Allocation)) {
      throw this.refusal(`CalendarEvent ${eventId} is sold out: all ${event.Allocation} places are taken.`);
    }
  }
}

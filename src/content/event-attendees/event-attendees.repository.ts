import { Injectable } from '@nestjs/common';
import { Database } from '../../persistence/database.js';
import { CalendarEvent } from '../calendar-events/calendar-event.entity.js';
import { EventAttendee } from './event-attendee.entity.js';
import type { Tx } from '../../persistence/tx.js';

/** An event's places as a sign-up sees them inside its transaction. */
export interface EventPlaces {
  /** Null: the event has no limit. */
  allocation: number | null;
  /** Attendees signed up; not counted when there is no limit. */
  taken: number;
}

/** The SQL of event attendees beyond the machinery's own (hand-built: it runs on every sign-up). */
@Injectable()
export class EventAttendeesRepository {
  constructor(private readonly db: Database) {}

  /**
   * The event's places, holding the event's row until the transaction ends so that concurrent
   * sign-ups take turns; null when the event is gone. On SQLite write transactions already take
   * turns. On MySQL the event row is locked, and the attendees are counted with a locking read too:
   * a plain read would see the snapshot this transaction took before it waited, without the places
   * taken since.
   */
  async lockPlaces(eventId: number, tx: Tx): Promise<EventPlaces | null> {
    const { db } = this;
    const forUpdate = db.isMySql ? ' FOR UPDATE' : '';
    const [event] = await db.query<{ Allocation: number | string | null }>(
      `SELECT ${db.id('Allocation')} AS ${db.id('Allocation')} FROM ${db.tableOf(CalendarEvent)} WHERE ${db.id('Id')} = ?${forUpdate}`,
      [eventId],
      tx,
    );
    if (!event) return null;
    if (event.Allocation === null) return { allocation: null, taken: 0 };
    const [taken] = await db.query<{ n: number | string }>(
      `SELECT COUNT(*) AS n FROM ${db.tableOf(EventAttendee)} WHERE ${db.id('CalendarEventId')} = ?${forUpdate}`,
      [eventId],
      tx,
    );
    return { allocation: Number(event.Allocation), taken: Number(taken.n) };
  }
}

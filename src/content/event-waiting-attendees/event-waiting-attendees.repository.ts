import { Injectable } from '@nestjs/common';
import { Database } from '../../persistence/database.js';
import { CalendarEvent } from '../calendar-events/calendar-event.entity.js';
import type { Tx } from '../../persistence/tx.js';

/** The reads of waiting-list entries beyond the machinery's own. */
@Injectable()
export class EventWaitingAttendeesRepository {
  constructor(private readonly db: Database) {}

  /** The business of an event, read inside the entry's transaction; null when the event is gone. */
  async businessOfEvent(eventId: number, tx: Tx): Promise<number | null> {
    const { db } = this;
    const [event] = await db.query<{ b: number | string }>(
      `SELECT ${db.id('BusinessId')} AS b FROM ${db.tableOf(CalendarEvent)} WHERE ${db.id('Id')} = ?`,
      [eventId],
      tx,
    );
    return event ? Number(event.b) : null;
  }
}

import { Injectable } from '@nestjs/common';
import { Database } from '../../persistence/database.js';
import type { SqlContext } from '../../records/record-definition.js';
import { EventAttendee } from '../event-attendees/event-attendee.entity.js';
import { EventWaitingAttendee } from '../event-waiting-attendees/event-waiting-attendee.entity.js';
import type { Tx } from '../../persistence/tx.js';

// The SQL of calendar events beyond the machinery's own: the read-only AttendeeCount field, which the
// record read and the public events (docs/api.md §3.2) both select, and the waiting list's presence.

/** The number of attendees of the event at `q.alias` (one subquery, indexed by CalendarEventId). */
export const attendeeCountSql = (q: SqlContext): string =>
  `(SELECT COUNT(*) FROM ${q.table(EventAttendee)} a WHERE a.${q.id('CalendarEventId')} = ${q.alias}.${q.id('Id')})`;

@Injectable()
export class CalendarEventsRepository {
  constructor(private readonly db: Database) {}

  /** Whether anyone is on the event's waiting list. */
  async hasWaitingAttendee(calendarEventId: unknown, tx: Tx): Promise<boolean> {
    const { db } = this;
    const [waiting] = await db.query(
      `SELECT 1 AS x FROM ${db.tableOf(EventWaitingAttendee)} WHERE ${db.id('CalendarEventId')} = ? LIMIT 1`,
      [calendarEventId],
      tx,
    );
    return Boolean(waiting);
  }
}

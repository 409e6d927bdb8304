import type { SqlContext } from '../../common/record-definition.js';
import { EventAttendee } from '../event-attendees/event-attendee.entity.js';

// The SQL of calendar events beyond the machinery's own: the read-only AttendeeCount field, which the
// record read and the public events (docs/api.md §3.2) both select.

/** The number of attendees of the event at `q.alias` (one subquery, indexed by CalendarEventId). */
export const attendeeCountSql = (q: SqlContext): string =>
  `(SELECT COUNT(*) FROM ${q.table(EventAttendee)} a WHERE a.${q.id('CalendarEventId')} = ${q.alias}.${q.id('Id')})`;

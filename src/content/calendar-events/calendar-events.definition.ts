import { defineRecord } from '../../records/record-definition.js';
import { CalendarEvent } from './calendar-event.entity.js';
import { attendeeCountSql } from './calendar-events.repository.js';
import { CalendarEventDto } from './dto/calendar-event.dto.js';

/** Contract §3.1: sold out when Allocation is set and the attendees reach it. */
export const isSoldOut = (event: { Allocation: unknown; AttendeeCount: unknown }): boolean =>
  event.Allocation !== null && event.Allocation !== undefined && Number(event.AttendeeCount) >= Number(event.Allocation);

export const calendarEvents = defineRecord({
  name: 'CalendarEvent',
  path: 'content/calendarevents',
  entity: CalendarEvent,
  dto: CalendarEventDto,
  business: { column: 'BusinessId' },
  reads: {
    AttendeeCount: { kind: 'int', nullable: false, sql: attendeeCountSql },
  },
  computed: {
    SoldOut: (e) => isSoldOut({ Allocation: e.Allocation, AttendeeCount: e.AttendeeCount }),
  },
  computedTypes: { SoldOut: { kind: 'bool', nullable: false, description: 'Read-only: Allocation is set and the attendees reach it.' } },
  toStringText: (e) => String(e.Name),
});

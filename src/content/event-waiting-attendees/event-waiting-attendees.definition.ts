import { defineRecord } from '../../records/record-definition.js';
import { Coworker } from '../../customers/coworker.entity.js';
import { CalendarEvent } from '../calendar-events/calendar-event.entity.js';
import { EventWaitingAttendeeDto } from './dto/event-waiting-attendee.dto.js';
import { EventWaitingAttendee } from './event-waiting-attendee.entity.js';

export const eventWaitingAttendees = defineRecord({
  name: 'EventWaitingAttendee',
  path: 'content/eventwaitingattendees',
  entity: EventWaitingAttendee,
  dto: EventWaitingAttendeeDto,
  business: { column: 'BusinessId' },
  reads: {
    CalendarEventName: { from: () => CalendarEvent, on: 'CalendarEventId', column: 'Name' },
    CoworkerFullName: { from: () => Coworker, on: 'CoworkerId', column: 'FullName' },
  },
  toStringText: (w) => String(w.FullName),
});

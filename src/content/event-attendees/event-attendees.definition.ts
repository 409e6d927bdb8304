import { defineRecord } from '../../records/record-definition.js';
import { CalendarEvent } from '../calendar-events/calendar-event.entity.js';
import { EventAttendeeDto } from './dto/event-attendee.dto.js';
import { EventAttendee } from './event-attendee.entity.js';

export const eventAttendees = defineRecord({
  name: 'EventAttendee',
  path: 'content/eventattendees',
  entity: EventAttendee,
  dto: EventAttendeeDto,
  business: { via: () => CalendarEvent, on: 'CalendarEventId' },
  toStringText: (a) => String(a.FullName),
});

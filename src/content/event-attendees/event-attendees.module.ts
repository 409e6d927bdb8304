import { Module } from '@nestjs/common';
import { defineRecord } from '../../common/record-definition.js';
import { recordModule } from '../../common/record.module.js';
import { CalendarEvent } from '../calendar-events/calendar-event.entity.js';
import { EventAttendeeDto } from './dto/event-attendee.dto.js';
import { EventAttendee } from './event-attendee.entity.js';
import { EventAttendeesRepository } from './event-attendees.repository.js';
import { EventAttendeesService } from './event-attendees.service.js';

export const eventAttendees = defineRecord({
  name: 'EventAttendee',
  path: 'content/eventattendees',
  entity: EventAttendee,
  dto: EventAttendeeDto,
  business: { via: () => CalendarEvent, on: 'CalendarEventId' },
  toStringText: (a) => String(a.FullName),
});

@Module(recordModule(eventAttendees, { service: EventAttendeesService, providers: [EventAttendeesRepository] }))
export class EventAttendeesModule {}

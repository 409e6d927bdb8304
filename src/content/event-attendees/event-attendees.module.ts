import { Module } from '@nestjs/common';
import { RecordModule } from '../../records/record.module.js';
import { CalendarEventsModule } from '../calendar-events/calendar-events.module.js';
import { eventAttendees } from './event-attendees.definition.js';
import { EventAttendeesRepository } from './event-attendees.repository.js';
import { EventAttendeesRules } from './event-attendees.rules.js';
import { EventAttendeeEvents } from './event-attendees.events.js';

@Module(
  RecordModule.forType({
    definition: eventAttendees,
    rules: EventAttendeesRules,
    events: EventAttendeeEvents,
    providers: [EventAttendeesRepository],
    imports: [CalendarEventsModule],
  }),
)
export class EventAttendeesModule {}

import { Module } from '@nestjs/common';
import { RecordModule } from '../../records/record.module.js';
import { calendarEvents } from './calendar-events.definition.js';
import { CalendarEventsRules } from './calendar-events.rules.js';
import { CalendarEventEvents, FreedPlaces } from './calendar-events.events.js';
import { CalendarEventsRepository } from './calendar-events.repository.js';

@Module(
  RecordModule.forType({
    definition: calendarEvents,
    rules: CalendarEventsRules,
    events: CalendarEventEvents,
    providers: [CalendarEventsRepository, FreedPlaces],
    exports: [FreedPlaces],
  }),
)
export class CalendarEventsModule {}

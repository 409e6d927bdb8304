import { Module } from '@nestjs/common';
import { RecordModule } from '../../common/record.module.js';
import { calendarEvents } from './calendar-events.definition.js';
import { CalendarEventsRules } from './calendar-events.rules.js';

@Module(RecordModule.forType({ definition: calendarEvents, rules: CalendarEventsRules }))
export class CalendarEventsModule {}

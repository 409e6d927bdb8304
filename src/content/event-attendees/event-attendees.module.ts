import { Module } from '@nestjs/common';
import { RecordModule } from '../../common/record.module.js';
import { eventAttendees } from './event-attendees.definition.js';
import { EventAttendeesRepository } from './event-attendees.repository.js';
import { EventAttendeesRules } from './event-attendees.rules.js';

@Module(RecordModule.forType({ definition: eventAttendees, rules: EventAttendeesRules, providers: [EventAttendeesRepository] }))
export class EventAttendeesModule {}

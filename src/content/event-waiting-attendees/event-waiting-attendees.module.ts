import { Module } from '@nestjs/common';
import { RecordModule } from '../../records/record.module.js';
import { eventWaitingAttendees } from './event-waiting-attendees.definition.js';
import { EventWaitingAttendeesRepository } from './event-waiting-attendees.repository.js';
import { EventWaitingAttendeesRules } from './event-waiting-attendees.rules.js';

@Module(
  RecordModule.forType({
    definition: eventWaitingAttendees,
    rules: EventWaitingAttendeesRules,
    providers: [EventWaitingAttendeesRepository],
  }),
)
export class EventWaitingAttendeesModule {}

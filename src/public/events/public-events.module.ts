import { Module } from '@nestjs/common';
import { EventWaitingAttendeesModule } from '../../content/event-waiting-attendees/event-waiting-attendees.module.js';
import { PublicEventsController } from './public-events.controller.js';
import { PublicEventsRepository } from './public-events.repository.js';
import { PublicEventsService } from './public-events.service.js';

@Module({
  imports: [EventWaitingAttendeesModule],
  controllers: [PublicEventsController],
  providers: [PublicEventsService, PublicEventsRepository],
  exports: [PublicEventsService],
})
export class PublicEventsModule {}

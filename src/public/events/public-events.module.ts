import { Module } from '@nestjs/common';
import { EventWaitingAttendeesModule } from '../../content/event-waiting-attendees/event-waiting-attendees.module.js';
import { PublicEventsController } from './public-events.controller.js';
import { PublicEventsService } from './public-events.service.js';

@Module({
  imports: [EventWaitingAttendeesModule],
  controllers: [PublicEventsController],
  providers: [PublicEventsService],
  exports: [PublicEventsService],
})
export class PublicEventsModule {}

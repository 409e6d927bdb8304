import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { CalendarEvent } from '../calendar-events/calendar-event.entity.js';

/** The reads of waiting-list entries beyond the machinery's own (TypeORM's find: no hot path). */
@Injectable()
export class EventWaitingAttendeesRepository {
  /** The business of an event, read inside the entry's transaction; null when the event is gone. */
  async businessOfEvent(eventId: number, manager: EntityManager): Promise<number | null> {
    const event = await manager.findOne(CalendarEvent, { select: { Id: true, BusinessId: true }, where: { Id: eventId } });
    return event ? Number(event.BusinessId) : null;
  }
}

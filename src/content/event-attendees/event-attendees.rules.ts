import { Inject, Injectable } from '@nestjs/common';
import type { EventAttendeeDto } from './dto/event-attendee.dto.js';
import { EventAttendeesRepository } from './event-attendees.repository.js';
import type { RecordRules, SaveContext } from '../../records/record-rules.js';
import { refusal } from '../../records/errors.js';
import type { Tx } from '../../persistence/tx.js';

@Injectable()
export class EventAttendeesRules implements RecordRules<EventAttendeeDto> {
  @Inject(EventAttendeesRepository) private readonly attendeesRepository: EventAttendeesRepository;

  /** A new attendee, or one moved to another event, takes a place: refused when none is left. */
  async beforeSave(context: SaveContext<EventAttendeeDto>): Promise<void> {
    const given = context.dto.CalendarEventId;
    // Absent on a partial update: the attendee stays at its event (docs/api.md §1.2).
    if (context.existing && (given === undefined || Number(context.existing.CalendarEventId) === given)) return;
    const eventId = given;
    await this.takePlace(eventId, context.tx);
  }

  /** Checks that the event has a free place; concurrent sign-ups take turns (EventAttendeesRepository.lockPlaces). */
  private async takePlace(eventId: number, tx: Tx): Promise<void> {
    const places = await this.attendeesRepository.lockPlaces(eventId, tx);
    if (!places || places.allocation === null) return; // gone meanwhile: the foreign key refuses the write
    if (places.taken >= places.allocation) {
      throw refusal(`CalendarEvent ${eventId} is sold out: all ${places.allocation} places are taken.`);
    }
  }
}

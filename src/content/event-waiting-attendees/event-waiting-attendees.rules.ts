import { Inject, Injectable } from '@nestjs/common';
import { isUniqueViolation } from '../../persistence/database-errors.js';
import type { ChangeAction } from '../../records/field-changes.js';
import { RecordValidationException } from '../../records/errors.js';
import type { EventWaitingAttendeeDto } from './dto/event-waiting-attendee.dto.js';
import { EventWaitingAttendeesRepository } from './event-waiting-attendees.repository.js';
import type { RecordRules, SaveContext } from '../../records/record-rules.js';

/** A second entry for the same customer and event: 400 naming CoworkerId. */
export class AlreadyOnWaitingListException extends RecordValidationException {
  constructor(coworkerId: unknown, eventId: unknown) {
    super([
      {
        PropertyName: 'CoworkerId',
        AttemptedValue: coworkerId ?? null,
        Message: `Coworker ${coworkerId} is already on the waiting list of CalendarEvent ${eventId}`,
      },
    ]);
  }
}

/**
 * Entries added by administrators are bound only by one entry per customer and event (docs/api.md §3.2).
 * That rule is the database's unique index, so concurrent writes cannot break it; its violation is a 400.
 */
@Injectable()
export class EventWaitingAttendeesRules implements RecordRules<EventWaitingAttendeeDto> {
  @Inject(EventWaitingAttendeesRepository) private readonly entriesRepository: EventWaitingAttendeesRepository;

  /** The entry belongs to the event's business, which decides who sees it. */
  async beforeSave(context: SaveContext<EventWaitingAttendeeDto>): Promise<void> {
    // A partial update names only what it changes: the rest is the stored entry's (docs/api.md §1.2).
    const merged = { ...context.existing, ...context.values } as Record<string, unknown>;
    const BusinessId = Number(merged.BusinessId);
    const CalendarEventId = Number(merged.CalendarEventId);
    const eventBusiness = await this.entriesRepository.businessOfEvent(CalendarEventId, context.tx);
    if (eventBusiness !== null && eventBusiness !== BusinessId) {
      throw RecordValidationException.field(
        'BusinessId',
        `BusinessId must be ${eventBusiness}, the business of CalendarEvent ${CalendarEventId}.`,
        BusinessId,
      );
    }
  }

  /** The unique index's refusal of a second entry (a create, or an update moving an entry) is a 400. */
  mapError(error: unknown, _operation: ChangeAction, dto?: EventWaitingAttendeeDto): unknown {
    return isUniqueViolation(error) ? new AlreadyOnWaitingListException(dto?.CoworkerId, dto?.CalendarEventId) : error;
  }
}

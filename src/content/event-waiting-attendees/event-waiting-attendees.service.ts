import { Inject, Injectable } from '@nestjs/common';
import { isUniqueViolation } from '../../common/database-errors.js';
import type { ActionConfirmation } from '../../common/envelopes.js';
import { RecordValidationException } from '../../common/errors.js';
import type { Principal } from '../../common/principal.js';
import { RecordService, type SaveContext } from '../../common/record.service.js';
import type { EventWaitingAttendeeDto } from './dto/event-waiting-attendee.dto.js';
import type { EventWaitingAttendee } from './event-waiting-attendee.entity.js';
import { EventWaitingAttendeesRepository } from './event-waiting-attendees.repository.js';

/** A second entry for the same customer and event: 400 naming CoworkerId. */
export class AlreadyOnWaitingListException extends RecordValidationException {
  constructor(coworkerId: unknown, eventId: unknown) {
    super([{ PropertyName: 'CoworkerId', AttemptedValue: coworkerId ?? null, Message: `Coworker ${coworkerId} is already on the waiting list of CalendarEvent ${eventId}` }]);
  }
}

/**
 * Entries added by administrators are bound only by one entry per customer and event (docs/api.md §3.2).
 * That rule is the database's unique index, so concurrent writes cannot break it; its violation is a 400.
 */
@Injectable()
export class EventWaitingAttendeesService extends RecordService<EventWaitingAttendee> {
  @Inject(EventWaitingAttendeesRepository) private readonly entriesRepository: EventWaitingAttendeesRepository;

  override create(dto: EventWaitingAttendeeDto, actor?: Principal): Promise<ActionConfirmation> {
    return this.oneEntryPerCustomer(dto, () => super.create(dto, actor));
  }

  override update(id: number, dto: EventWaitingAttendeeDto, actor?: Principal): Promise<ActionConfirmation> {
    return this.oneEntryPerCustomer(dto, () => super.update(id, dto, actor));
  }

  /** The entry belongs to the event's business, which decides who sees it. */
  protected override async beforeSave(context: SaveContext): Promise<void> {
    // A partial update names only what it changes: the rest is the stored entry's (docs/api.md §1.2).
    const merged = { ...context.existing, ...context.values } as Record<string, unknown>;
    const BusinessId = Number(merged.BusinessId);
    const CalendarEventId = Number(merged.CalendarEventId);
    const eventBusiness = await this.entriesRepository.businessOfEvent(CalendarEventId, context.manager);
    if (eventBusiness !== null && eventBusiness !== BusinessId) {
      throw RecordValidationException.field('BusinessId', `BusinessId must be ${eventBusiness}, the business of CalendarEvent ${CalendarEventId}.`, BusinessId);
    }
  }

  private async oneEntryPerCustomer<T>(dto: EventWaitingAttendeeDto, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const { CoworkerId, CalendarEventId } = dto;
      throw new AlreadyOnWaitingListException(CoworkerId, CalendarEventId);
    }
  }
}

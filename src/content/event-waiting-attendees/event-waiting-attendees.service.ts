import { Injectable } from '@nestjs/common';
import { isUniqueViolation } from '../../common/database.js';
import type { ActionConfirmation } from '../../common/envelopes.js';
import { RecordValidationException } from '../../common/errors.js';
import type { Principal } from '../../common/principal.js';
import { RecordService, type SaveContext } from '../../common/record.service.js';
import { CalendarEvent } from '../calendar-events/calendar-event.entity.js';
import type { EventWaitingAttendeeDto } from './dto/event-waiting-attendee.dto.js';
import type { EventWaitingAttendee } from './event-waiting-attendee.entity.js';

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
  override create(body: unknown, actor?: Principal): Promise<ActionConfirmation> {
    return this.oneEntryPerCustomer(body, () => super.create(body, actor));
  }

  override update(pathId: number | null, body: unknown, actor?: Principal): Promise<ActionConfirmation> {
    return this.oneEntryPerCustomer(body, () => super.update(pathId, body, actor));
  }

  /** The entry belongs to the event's business, which decides who sees it. */
  protected override async beforeSave(context: SaveContext): Promise<void> {
    const { BusinessId, CalendarEventId } = context.dto as EventWaitingAttendeeDto;
    const { db } = this;
    const [event] = await db.query<{ b: number }>(
      `SELECT ${db.id('BusinessId')} AS b FROM ${db.tableOf(CalendarEvent)} WHERE ${db.id('Id')} = ?`,
      [CalendarEventId],
      context.manager,
    );
    if (event && Number(event.b) !== BusinessId) {
      throw RecordValidationException.field('BusinessId', `BusinessId must be ${event.b}, the business of CalendarEvent ${CalendarEventId}.`, BusinessId);
    }
  }

  private async oneEntryPerCustomer<T>(body: unknown, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const { CoworkerId, CalendarEventId } = body as { CoworkerId?: unknown; CalendarEventId?: unknown };
      throw new AlreadyOnWaitingListException(CoworkerId, CalendarEventId);
    }
  }
}

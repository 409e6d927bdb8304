import { Injectable } from '@nestjs/common';
import { listEnvelope, type ListEnvelope } from '../../records/envelopes.js';
import { RecordNotFoundException } from '../../records/errors.js';
import type { WriteScope } from '../../persistence/write-scope.js';
import type { Principal } from '../../platform/principal.js';
import type { WireRecord } from '../../records/record-definition.js';
import { validateBody } from '../../records/validation/validation.js';
import { isSoldOut } from '../../content/calendar-events/calendar-events.definition.js';
import { eventWaitingAttendees } from '../../content/event-waiting-attendees/event-waiting-attendees.definition.js';
import { AlreadyOnWaitingListException } from '../../content/event-waiting-attendees/event-waiting-attendees.rules.js';
import { InjectRecords } from '../../records/record.module.js';
import type { RecordService } from '../../records/record.service.js';
import { JoinWaitingListDto } from './dto/join-waiting-list.dto.js';
import { EventWaitingAttendeeDto } from '../../content/event-waiting-attendees/dto/event-waiting-attendee.dto.js';
import { parsePublicEventsQuery } from './public-events-query.js';
import { PublicEventsRepository, type PublicEventRow } from './public-events.repository.js';

/** The customer joining a waiting list, as its login resolves it. */
export interface Customer {
  coworkerId: number;
  fullName: string;
  email: string;
}

export interface PublicEventList {
  PastEvents: boolean;
  CalendarEvents: ListEnvelope<WireRecord>;
}

export interface PublicEvent {
  Event: WireRecord;
  AttendeeCount: number;
}

/**
 * The customer-facing side of events (docs/api.md §3.2): published events for anyone, and joining the
 * waiting list of a sold-out one for a customer. Published means PublishDate is null or past.
 */
@Injectable()
export class PublicEventsService {
  constructor(
    private readonly events: PublicEventsRepository,
    @InjectRecords(eventWaitingAttendees) private readonly waitingList: RecordService,
  ) {}

  /** Published events that end in the future, or have ended with `pastEvents=true`; by StartDate. */
  async list(query: Readonly<Record<string, unknown>>): Promise<PublicEventList> {
    const q = parsePublicEventsQuery(query);
    const { rows, total } = await this.events.page(q, new Date());
    const page = { page: q.page, size: q.size, orderBy: 'StartDate', direction: q.pastEvents ? -1 : 1 } as const;
    return {
      PastEvents: q.pastEvents,
      CalendarEvents: listEnvelope(
        rows.map((row) => this.toPublic(row)),
        page,
        total,
      ),
    };
  }

  /** One published event; an unknown or unpublished id is 404. */
  async get(id: number): Promise<PublicEvent> {
    const row = await this.events.findPublished(id, new Date());
    if (!row) throw new RecordNotFoundException();
    return { Event: this.toPublic(row), AttendeeCount: row.attendeeCount };
  }

  /** The customer behind a login's coworker id, or null when that coworker no longer exists. */
  async customer(coworkerId: number): Promise<Customer | null> {
    const contact = await this.events.customerContact(coworkerId);
    return contact ? { coworkerId, fullName: contact.FullName, email: contact.Email } : null;
  }

  /**
   * Puts the customer on the waiting list of a published, sold-out event whose list is enabled
   * (docs/api.md §3.2): 404 for an unknown or unpublished event, 400 when the list is disabled, the event
   * is not sold out, or the customer is already on it. The body's FullName and Email default to the
   * customer's. Concurrent joins leave one entry: the unique index decides, not a read before the write.
   */
  async joinWaitingList(eventId: number, customer: Customer, body: unknown, write?: WriteScope): Promise<void> {
    const { Event: event } = await this.get(eventId);
    const dto = await validateBody(JoinWaitingListDto, body);
    if (!event.EnableWaitList) throw this.waitingList.refusal('This event has no waiting list.');
    if (!event.SoldOut) throw this.waitingList.refusal('This event is not sold out: there are places left, so there is no need to wait.');
    // The customer acts for itself: the business scoping of administrators does not apply.
    const writer: Principal = {
      userId: 0,
      email: customer.email,
      isAdmin: false,
      roles: new Set(),
      businessIds: null,
      coworkerId: customer.coworkerId,
    };
    try {
      await this.waitingList.create(
        await validateBody(EventWaitingAttendeeDto, {
          BusinessId: event.BusinessId,
          CalendarEventId: eventId,
          FullName: dto.FullName?.trim() ? dto.FullName : customer.fullName,
          Email: dto.Email?.trim() ? dto.Email : customer.email,
          CoworkerId: customer.coworkerId,
        }),
        writer,
        write,
      );
    } catch (error) {
      if (error instanceof AlreadyOnWaitingListException)
        throw this.waitingList.refusal('You are already on the waiting list of this event.');
      throw error;
    }
  }

  /** The public fields and SoldOut (docs/api.md §3.1). */
  private toPublic(row: PublicEventRow): WireRecord {
    return { ...row.event, SoldOut: isSoldOut({ Allocation: row.event.Allocation, AttendeeCount: row.attendeeCount }) };
  }
}

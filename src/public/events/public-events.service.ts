import { Injectable } from '@nestjs/common';
import { wireKindOf, type WireKind } from '../../common/columns.js';
import { Database } from '../../common/database.js';
import { listEnvelope, type ListEnvelope } from '../../common/envelopes.js';
import { RecordNotFoundException } from '../../common/errors.js';
import type { Principal } from '../../common/principal.js';
import type { WriteScope } from '../../common/write-scope.js';
import type { SqlContext, WireRecord } from '../../common/record-definition.js';
import { validateBody } from '../../common/validation/validation.js';
import { toWire } from '../../common/wire-values.js';
import { CalendarEvent } from '../../content/calendar-events/calendar-event.entity.js';
import { attendeeCountSql, isSoldOut } from '../../content/calendar-events/calendar-events.module.js';
import { AlreadyOnWaitingListException, EventWaitingAttendeesService } from '../../content/event-waiting-attendees/event-waiting-attendees.service.js';
import { Coworker } from '../../spaces/coworkers/coworker.entity.js';
import { JoinWaitingListDto } from './dto/join-waiting-list.dto.js';
import { parsePublicEventsQuery } from './public-events-query.js';

/** What the public may see of an event (no audit fields, no external ids), plus SoldOut. */
const PUBLIC_FIELDS = [
  'Id', 'UniqueId', 'BusinessId', 'Name', 'StartDate', 'EndDate', 'ShortDescription', 'LongDescription', 'Location',
  'Allocation', 'EnableWaitList', 'PublishDate', 'OnlyForMembers', 'OnlyForContacts',
] as const;

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
  private readonly kinds: ReadonlyArray<readonly [string, WireKind]> = PUBLIC_FIELDS.map((name) => [name, wireKindOf(CalendarEvent, name) ?? 'int'] as const);

  constructor(
    private readonly db: Database,
    private readonly waitingList: EventWaitingAttendeesService,
  ) {}

  /** Published events that end in the future, or have ended with `pastEvents=true`; by StartDate. */
  async list(query: Readonly<Record<string, unknown>>): Promise<PublicEventList> {
    const q = parsePublicEventsQuery(query);
    const { db } = this;
    const now = db.dateParam(new Date());
    const conditions = [this.published(), `e.${db.id('EndDate')} ${q.pastEvents ? '<' : '>='} ?`];
    const parameters: unknown[] = [now, now];
    if (q.search !== null) {
      conditions.push(`LOWER(e.${db.id('Name')}) LIKE ? ESCAPE '!'`);
      parameters.push(`%${q.search.toLowerCase().replace(/[!%_]/g, (c) => `!${c}`)}%`);
    }
    if (q.businessId !== null) {
      conditions.push(`e.${db.id('BusinessId')} = ?`);
      parameters.push(q.businessId);
    }
    const where = ` WHERE ${conditions.join(' AND ')}`;
    const dir = q.pastEvents ? 'DESC' : 'ASC';
    const rows = await db.query(
      `${this.select()}${where} ORDER BY e.${db.id('StartDate')} ${dir}, e.${db.id('Id')} ${dir} LIMIT ? OFFSET ?`,
      [...parameters, q.size, (q.page - 1) * q.size],
    );
    const [count] = await db.query<{ n: number }>(`SELECT COUNT(*) AS n FROM ${db.tableOf(CalendarEvent)} e${where}`, parameters);
    const page = { page: q.page, size: q.size, orderBy: 'StartDate', direction: q.pastEvents ? -1 : 1 } as const;
    return { PastEvents: q.pastEvents, CalendarEvents: listEnvelope(rows.map((row) => this.toPublic(row)), page, Number(count.n)) };
  }

  /** One published event; an unknown or unpublished id is 404. */
  async get(id: number): Promise<PublicEvent> {
    const [row] = await this.db.query(`${this.select()} WHERE e.${this.db.id('Id')} = ? AND ${this.published()}`, [id, this.db.dateParam(new Date())]);
    if (!row) throw new RecordNotFoundException();
    return { Event: this.toPublic(row), AttendeeCount: Number(row.AttendeeCount) };
  }

  /** The customer behind a login's coworker id, or null when that coworker no longer exists. */
  async customer(coworkerId: number): Promise<Customer | null> {
    const { db } = this;
    const [row] = await db.query<{ FullName: string; Email: string }>(
      `SELECT ${db.id('FullName')} AS ${db.id('FullName')}, ${db.id('Email')} AS ${db.id('Email')} FROM ${db.tableOf(Coworker)} WHERE ${db.id('Id')} = ?`,
      [coworkerId],
    );
    return row ? { coworkerId, fullName: row.FullName, email: row.Email } : null;
  }

  /**
   * Puts the customer on the waiting list of a published, sold-out event whose list is enabled
   * (docs/api.md §3.2): 404 for an unknown or unpublished event, 400 when the list is disabled, the event
   * is not sold out, or the customer is already on it. The body's FullName and Email default to the
   * customer's. Concurrent joins leave one entry: the unique index decides, not a read before the write.
   */
  async joinWaitingList(eventId: number, customer: Customer, body: unknown, scope?: WriteScope, requestId?: string): Promise<void> {
    const { Event: event } = await this.get(eventId);
    const dto = await validateBody(JoinWaitingListDto, body);
    if (!event.EnableWaitList) throw this.waitingList.refusal('This event has no waiting list.');
    if (!event.SoldOut) throw this.waitingList.refusal('This event is not sold out: there are places left, so there is no need to wait.');
    // The customer acts for itself: the business scoping of administrators does not apply.
    const writer: Principal = { userId: 0, email: customer.email, isAdmin: false, roles: new Set(), businessIds: null, coworkerId: customer.coworkerId, write: scope, requestId };
    try {
      await this.waitingList.create({
        BusinessId: event.BusinessId,
        CalendarEventId: eventId,
        FullName: dto.FullName?.trim() ? dto.FullName : customer.fullName,
        Email: dto.Email?.trim() ? dto.Email : customer.email,
        CoworkerId: customer.coworkerId,
      }, writer);
    } catch (error) {
      if (error instanceof AlreadyOnWaitingListException) throw this.waitingList.refusal('You are already on the waiting list of this event.');
      throw error;
    }
  }

  private published(): string {
    const publishDate = `e.${this.db.id('PublishDate')}`;
    return `(${publishDate} IS NULL OR ${publishDate} <= ?)`;
  }

  private select(): string {
    const { db } = this;
    const q: SqlContext = db.sqlContext('e');
    const columns = PUBLIC_FIELDS.map((name) => `e.${db.id(name)} AS ${db.id(name)}`);
    return `SELECT ${columns.join(', ')}, ${attendeeCountSql(q)} AS ${db.id('AttendeeCount')} FROM ${db.tableOf(CalendarEvent)} e`;
  }

  private toPublic(row: Record<string, unknown>): WireRecord {
    const event: WireRecord = {};
    for (const [name, kind] of this.kinds) event[name] = toWire(kind, row[name]);
    event.SoldOut = isSoldOut({ Allocation: event.Allocation, AttendeeCount: row.AttendeeCount });
    return event;
  }
}

import { Injectable } from '@nestjs/common';
import { wireKindOf, type WireKind } from '../../records/columns.js';
import { Database } from '../../persistence/database.js';
import type { WireRecord } from '../../records/record-definition.js';
import { toWire } from '../../records/wire-values.js';
import { CalendarEvent } from '../../content/calendar-events/calendar-event.entity.js';
import { attendeeCountSql } from '../../content/calendar-events/calendar-events.repository.js';
import { Coworker } from '../../customers/coworker.entity.js';
import type { PublicEventsQuery } from './public-events-query.js';

/** What the public may see of an event (no audit fields, no external ids). */
export const PUBLIC_FIELDS = [
  'Id',
  'UniqueId',
  'BusinessId',
  'Name',
  'StartDate',
  'EndDate',
  'ShortDescription',
  'LongDescription',
  'Location',
  'Allocation',
  'EnableWaitList',
  'PublishDate',
  'OnlyForMembers',
  'OnlyForContacts',
] as const;

/** A published event's public fields, as wire values, and its attendee count. */
export interface PublicEventRow {
  event: WireRecord;
  attendeeCount: number;
}

/** The customer behind a login, as the waiting list takes its defaults from it. */
export interface CustomerContact {
  FullName: string;
  Email: string;
}

/**
 * The SQL of the public events (docs/api.md §3.2). Published means PublishDate is null or past. Built by
 * hand: anonymous traffic reads these, and the statements are prepared once (Database.query).
 */
@Injectable()
export class PublicEventsRepository {
  private readonly kinds: ReadonlyArray<readonly [string, WireKind]> = PUBLIC_FIELDS.map(
    (name) => [name, wireKindOf(CalendarEvent, name) ?? 'int'] as const,
  );

  constructor(private readonly db: Database) {}

  /** A page of the published events the query selects, by StartDate (newest first for past events), and their total. */
  async page(q: PublicEventsQuery, now: Date): Promise<{ rows: PublicEventRow[]; total: number }> {
    const { db } = this;
    const at = db.dateParam(now);
    const conditions = [this.published(), `e.${db.id('EndDate')} ${q.pastEvents ? '<' : '>='} ?`];
    const parameters: unknown[] = [at, at];
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
    const [count] = await db.query<{ n: number | string }>(`SELECT COUNT(*) AS n FROM ${db.tableOf(CalendarEvent)} e${where}`, parameters);
    return { rows: rows.map((row) => this.toRow(row)), total: Number(count.n) };
  }

  /** One published event; null when unknown or not yet published. */
  async findPublished(id: number, now: Date): Promise<PublicEventRow | null> {
    const [row] = await this.db.query(`${this.select()} WHERE e.${this.db.id('Id')} = ? AND ${this.published()}`, [
      id,
      this.db.dateParam(now),
    ]);
    return row ? this.toRow(row) : null;
  }

  /** The name and email of a customer, or null when it no longer exists. */
  async customerContact(coworkerId: number): Promise<CustomerContact | null> {
    const { db } = this;
    const [row] = await db.query<CustomerContact>(
      `SELECT ${db.id('FullName')} AS ${db.id('FullName')}, ${db.id('Email')} AS ${db.id('Email')} FROM ${db.tableOf(Coworker)} WHERE ${db.id('Id')} = ?`,
      [coworkerId],
    );
    return row ? { FullName: String(row.FullName), Email: String(row.Email) } : null;
  }

  /** SQL: the event aliased `e` is published (one parameter: now). */
  private published(): string {
    const publishDate = `e.${this.db.id('PublishDate')}`;
    return `(${publishDate} IS NULL OR ${publishDate} <= ?)`;
  }

  private select(): string {
    const { db } = this;
    const columns = PUBLIC_FIELDS.map((name) => `e.${db.id(name)} AS ${db.id(name)}`);
    return `SELECT ${columns.join(', ')}, ${attendeeCountSql(db.sqlContext('e'))} AS ${db.id('AttendeeCount')} FROM ${db.tableOf(CalendarEvent)} e`;
  }

  private toRow(row: Record<string, unknown>): PublicEventRow {
    const event: WireRecord = {};
    for (const [name, kind] of this.kinds) event[name] = toWire(kind, row[name]);
    return { event, attendeeCount: Number(row.AttendeeCount) };
  }
}

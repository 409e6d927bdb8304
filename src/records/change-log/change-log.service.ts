import { Injectable, UnauthorizedException } from '@nestjs/common';
import { listEnvelope, type ListEnvelope } from '../envelopes.js';
import { parseListQuery } from '../list-query.js';
import type { Principal } from '../../platform/principal.js';
import type { RecordDefinition, WireRecord } from '../record-definition.js';
import { toWire } from '../wire-values.js';
import { ChangeLogRepository, type ChangeLogRow, type ChangeProbe, type EntryFilter } from './change-log.repository.js';
import { fieldChanges, type ChangeAction, type FieldChange } from '../field-changes.js';
import type { Tx } from '../../persistence/tx.js';

/** A committed-with-the-write change of one record, as the change log and its listeners see it. */
export interface RecordChange {
  definition: RecordDefinition<any>;
  action: ChangeAction;
  recordId: number;
  /**
   * The record's stored fields before the change (null on create) and after it (null on delete); on
   * an update both are the record as GET shows it, on a create `after` holds what was written.
   */
  before: WireRecord | null;
  after: WireRecord | null;
  /** The record as GET shows it right after the change (before it, for a delete): read when needed. */
  record: () => Promise<WireRecord>;
  /** The record's business at the time of the change (null for records of no single business). */
  businessId: number | null;
  /** On an update that moved the record to another business, the business it left. */
  previousBusinessId?: number | null;
  actor: Principal | undefined;
  on: Date;
  changes: FieldChange[];
}

/** A change as it is given to the change log to record (it adds the time and the field changes). */
export type RecordChangeEntry = Omit<RecordChange, 'on' | 'changes'>;

/** Something else written in the same transaction as each change: the webhook outbox. */
export interface ChangeListener {
  /**
   * What the listener must count to know whether it has anything to do (the hooks a change may fire),
   * or null when it has nothing to do. The count comes back with the entry's own INSERT where the
   * database returns values from one (RETURNING), so the common case costs no statement of its own.
   */
  probe(change: RecordChange): ChangeProbe | null;
  /** Runs after the entry is written, with the probe's count (null without a probe). */
  apply(tx: Tx, change: RecordChange, count: number | null): Promise<void>;
}

/** One entry of a record's history, as the wire shows it. */
export interface HistoryEntry {
  Id: number;
  Entity: string;
  RecordId: number;
  Action: ChangeAction;
  On: string;
  By: string | null;
  RequestId: string | null;
  Changes: FieldChange[];
}

/** Entries of one INSERT of writeMany: nine bound parameters each, far below SQLite's 32,766 and MySQL's 65,535. */
const WRITE_CHUNK = 1000;

const HISTORY_SCHEMA = { entityName: 'History', fields: [{ name: 'Id', kind: 'int' as const }] };

/**
 * An entry's changes as a reader may see them. The entry of a move between businesses belongs to the
 * business the record moved to, but its `From` values are the fields of the business it left: a
 * restricted administrator not of that business sees them as null (docs/api.md §6).
 */
function visibleChanges(row: Record<string, unknown>, businessIds: readonly number[] | null): FieldChange[] {
  const changes = row.Changes ? (JSON.parse(String(row.Changes)) as FieldChange[]) : [];
  const left = row.PreviousBusinessId === null || row.PreviousBusinessId === undefined ? null : Number(row.PreviousBusinessId);
  if (businessIds === null || left === null || businessIds.includes(left)) return changes;
  return changes.map((change) => ({ ...change, From: null }));
}

/**
 * The change log: who changed which record when, in which request, and how. The record machinery
 * writes every create, update and delete here inside the write's own transaction (docs/api.md §6
 * and §11.6), so an entry exists exactly when the change committed.
 */
@Injectable()
export class ChangeLog {
  private readonly listeners: ChangeListener[] = [];

  constructor(private readonly entries: ChangeLogRepository) {}

  /** Runs `listener` in the transaction of every change, after its entry is written. */
  listen(listener: ChangeListener): void {
    this.listeners.push(listener);
  }

  async write(tx: Tx, entry: RecordChangeEntry, request?: object): Promise<void> {
    const change = this.changeOf(entry, request);
    const counts = await this.entries.insert(
      this.rowOf(change, tx),
      this.listeners.map((listener) => listener.probe(change)),
      tx,
    );
    for (const [i, listener] of this.listeners.entries()) await listener.apply(tx, change, counts[i]);
  }

  /**
   * Several changes' entries by multi-row INSERTs (a billing run's batch: docs/billing.md "Exactly once"), each
   * as `write` writes it, in order; WRITE_CHUNK entries a statement, within both databases' bounds on parameters.
   */
  async writeMany(tx: Tx, entries: readonly RecordChangeEntry[]): Promise<void> {
    const changes = entries.map((entry) => this.changeOf(entry));
    const counts: (number | null)[][] = [];
    for (let first = 0; first < changes.length; first += WRITE_CHUNK) {
      const chunk = changes.slice(first, first + WRITE_CHUNK);
      counts.push(
        ...(await this.entries.insertMany(
          chunk.map((change) => this.rowOf(change, tx)),
          chunk.map((change) => this.listeners.map((listener) => listener.probe(change))),
          tx,
        )),
      );
    }
    for (const [c, change] of changes.entries()) {
      for (const [i, listener] of this.listeners.entries()) await listener.apply(tx, change, counts[c][i]);
    }
  }

  private changeOf(entry: RecordChangeEntry, request?: object): RecordChange {
    // Field by field, not `{ ...entry, … }`: a spread object here was promoted by every scavenge under load (withFields, record-writes.ts).
    const { definition, action, recordId, before, after, record, businessId, previousBusinessId, actor } = entry;
    const changes = fieldChanges(definition, action, before, after, request);
    return { definition, action, recordId, before, after, record, businessId, previousBusinessId, actor, on: new Date(), changes };
  }

  private rowOf(change: RecordChange, tx: Tx): ChangeLogRow {
    return {
      entity: change.definition.name,
      recordId: change.recordId,
      action: change.action,
      on: change.on,
      by: change.actor?.email ?? null,
      requestId: tx.requestId ?? null,
      businessId: change.businessId,
      previousBusinessId: change.previousBusinessId ?? null,
      changes: JSON.stringify(change.changes),
    };
  }

  /**
   * A record's entries, newest first. A restricted administrator sees the entries written while the
   * record was in one of its businesses (401 when there are entries but none of those). Records
   * scoped through a link table are checked on their current links. No entry and no record: 404.
   */
  async history(
    definition: RecordDefinition<any>,
    recordId: number,
    query: Record<string, unknown>,
    actor: Principal | undefined,
    current: (actor: Principal | undefined) => Promise<WireRecord>,
  ): Promise<ListEnvelope<HistoryEntry>> {
    const page = parseListQuery(query, HISTORY_SCHEMA);
    const ofRecord = { entity: definition.name, recordId };
    const all = await this.entries.count(ofRecord);
    // A record written before the change log existed has no entries: it still has a history (empty).
    if (all === 0) await current(actor);
    let visibleOnes: EntryFilter = ofRecord;
    const restricted = actor !== undefined && actor.businessIds !== null;
    const scope = definition.business;
    if (restricted && scope && !('links' in scope)) {
      visibleOnes = { ...ofRecord, businessIds: actor.businessIds! };
    } else if (restricted && scope && all > 0) {
      await current(actor);
    }
    const total = await this.entries.count(visibleOnes);
    if (total === 0 && all > 0) throw new UnauthorizedException();
    const rows = await this.entries.page(visibleOnes, page.size, (page.page - 1) * page.size);
    const entries = rows.map((row): HistoryEntry => ({
      Id: Number(row.Id),
      Entity: String(row.Entity),
      RecordId: Number(row.RecordId),
      Action: row.Action as ChangeAction,
      On: toWire('datetime', row.On) as string,
      By: (row.By as string | null) ?? null,
      RequestId: (row.RequestId as string | null) ?? null,
      Changes: visibleChanges(row, restricted ? actor.businessIds! : null),
    }));
    return listEnvelope(entries, { ...page, direction: -1 }, total);
  }
}

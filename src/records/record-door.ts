import { createStamp, updateStamp, type Stamper } from './audit-stamp.js';
import type { ChangeLog, RecordChangeEntry } from './change-log/change-log.service.js';
import type { ChangeAction } from './field-changes.js';
import type { Principal } from '../platform/principal.js';
import type { RecordDefinition, WireRecord } from './record-definition.js';
import type { RecordEntity } from './record.entity.js';
import type { RecordRepository } from './record.repository.js';
import type { RecordWireMapper } from './record-wire.js';
import { withFields } from './record-writes.js';
import type { Tx } from '../persistence/tx.js';
import type { WriteScope } from '../persistence/write-scope.js';

/** How `createRecorded` stamps and records a record. */
export interface CreateOptions {
  request?: object;
  readBack?: boolean;
  now?: Date;
  stampedBy?: Stamper;
}

/** Rows of one INSERT of insertRecords: 100 rows of even 300 columns stay under SQLite's 32,766 bound parameters. */
const INSERT_CHUNK = 100;

/**
 * The door for a domain rule's own writes (docs/architecture.md §2.3): the records a rule writes besides
 * the request's, each in the rule's unit of work (`tx`), stamped, with its change-log entry and so its
 * webhook events. The part of `RecordService` (record.service.ts) that writes for others; the reads and
 * the writes through the API are the service's own, and it gives this part the pieces it needs.
 */
export abstract class RecordDoor<E extends RecordEntity = RecordEntity> {
  abstract readonly definition: RecordDefinition<E>;
  protected abstract readonly changeLog: ChangeLog;
  protected abstract get repository(): RecordRepository;
  protected abstract get wire(): RecordWireMapper;

  /** One record; 404 when there is none, 401 when it lies outside the actor's businesses. */
  abstract get(id: number, actor?: Principal, tx?: Tx, deadline?: number): Promise<WireRecord>;
  /** The business a record with these values belongs to. */
  abstract businessOf(values: Record<string, unknown>, tx: Tx): Promise<number | null>;
  /** Inserts a row of column values and returns its new Id. */
  abstract insertRow(values: Record<string, unknown>, tx?: Tx, scope?: WriteScope): Promise<number>;
  /** Updates a row's columns and raises its version. */
  abstract updateRow(id: number, values: Record<string, unknown>, tx: Tx, expected?: number | null): Promise<void>;

  /**
   * Records a change of one of this type's records in the change log, inside the write's
   * transaction: the machinery does it for every create, update and delete, and the door below for
   * the records domain rules write besides (a sale's stock change on its product). `before` is the record
   * as read before the change (null on create); `request` the body, for the write-only fields it gave;
   * `knownBusinessId` the record's business where the caller knows it (a billing run's), saving its look-up.
   */
  async recordChange(
    tx: Tx,
    actor: Principal | undefined,
    action: ChangeAction,
    id: number,
    before: WireRecord | null,
    request?: object,
    written?: Record<string, unknown>,
    knownBusinessId?: number,
  ): Promise<void> {
    let reading: Promise<WireRecord> | undefined;
    const read = () => (reading ??= this.get(id, undefined, tx));
    // A create knows what it wrote: the row is read back only if something needs it as GET shows it.
    const after = action === 'Delete' ? null : written ? this.wire.written(id, written, request) : await read();
    const businessId = knownBusinessId ?? (await this.businessOf((after ?? before)!, tx));
    // A record moved to another business: its entry names the business it left as well (history scope).
    const scope = this.definition.business;
    const link = scope && ('column' in scope ? scope.column : 'on' in scope && !('links' in scope) ? scope.on : null);
    const moved = before && after && link && before[link] !== after[link] ? await this.businessOf(before, tx) : null;
    const previousBusinessId = moved !== null && moved !== businessId ? moved : null;
    const record = action === 'Delete' ? async () => before! : written ? read : async () => after!;
    await this.changeLog.write(
      tx,
      { definition: this.definition, action, recordId: id, before, after, businessId, previousBusinessId, actor, record },
      request,
    );
  }

  /**
   * Creates a record from column values a domain rule worked out (not a request's body), in `tx`'s
   * transaction: the create stamp, the INSERT, its history. Options: `request`, the write-only fields
   * it was given; `readBack`, its history reads the row back instead of taking what was written; `now`,
   * the stamp's time when the values hold the same instant; `stampedBy`, when the stamp names another
   * writer than the actor (nobody: a customer's own login).
   */
  async createRecorded(
    tx: Tx,
    actor: Principal | undefined,
    values: Readonly<Record<string, unknown>>,
    options: CreateOptions = {},
  ): Promise<{ id: number; written: Record<string, unknown> }> {
    const written = withFields(values, createStamp(options.stampedBy === undefined ? actor : options.stampedBy, options.now));
    const id = await this.insertRow(written, tx);
    await this.recordChange(tx, actor, 'Create', id, null, options.request, options.readBack ? undefined : written);
    return { id, written };
  }

  /**
   * Inserts a stamped record whose history waits until it is complete (an issued invoice, once its lines
   * are written): `recordCreated` records it.
   */
  async insertStamped(
    tx: Tx,
    actor: Principal | undefined,
    values: Readonly<Record<string, unknown>>,
  ): Promise<{ id: number; written: Record<string, unknown> }> {
    const written = withFields(values, createStamp(actor));
    return { id: await this.insertRow(written, tx), written };
  }

  /** The history of records made without the door (`insertStamped`, a repository's many-row INSERT): as written, or read back. */
  recordCreated(tx: Tx, actor: Principal | undefined, id: number, written?: Record<string, unknown>): Promise<void> {
    return this.recordChange(tx, actor, 'Create', id, null, undefined, written);
  }

  /**
   * Changes columns of a record (the update stamp added, its version raised), with its history.
   * `before`: the record as already read; `now`: the stamp's time when the values hold the same instant.
   */
  async updateRecorded(
    tx: Tx,
    actor: Principal | undefined,
    id: number,
    values: Readonly<Record<string, unknown>>,
    { before, now }: { before?: WireRecord; now?: Date } = {},
  ): Promise<void> {
    before ??= await this.get(id, undefined, tx);
    await this.updateRow(id, withFields(values, updateStamp(actor, now)), tx);
    await this.recordChange(tx, actor, 'Update', id, before);
  }

  /**
   * A change a repository makes by a statement of its own (a conditional claim, a release), with its
   * history when it changed the record: `change` answers false when it did not. `before`: as already read;
   * `knownBusinessId`: the record's business where the caller knows it (a billing run's).
   */
  async changeRecorded(
    tx: Tx,
    actor: Principal | undefined,
    id: number,
    change: () => Promise<boolean | void>,
    before?: WireRecord,
    knownBusinessId?: number,
  ): Promise<boolean> {
    before ??= await this.get(id, undefined, tx);
    if ((await change()) === false) return false;
    await this.recordChange(tx, actor, 'Update', id, before, undefined, undefined, knownBusinessId);
    return true;
  }

  /**
   * Changes a repository makes to several records of `businessId` by one statement (a billing run's claims by
   * set), with their history: the records read before and after by one read each, their entries by one
   * INSERT, or added to `pending` for the caller to record with others (ChangeLog.writeMany). `change`
   * answers false when it did not change every record: then nothing is recorded.
   */
  async changesRecorded(
    tx: Tx,
    actor: Principal | undefined,
    ids: number[],
    change: () => Promise<boolean>,
    businessId: number,
    pending?: RecordChangeEntry[],
  ): Promise<boolean> {
    const { repository, wire } = this;
    const read = async () => (await repository.batch(ids, null, undefined, tx)).map((row) => wire.toWire(row));
    const before = await read();
    if (!(await change())) return false;
    // Both reads are in Id order, of the same records: every one of them was changed.
    const after = await read();
    const changes = after.map((record, index) => ({
      definition: this.definition,
      action: 'Update' as const,
      recordId: Number(record.Id),
      before: before[index],
      after: record,
      businessId,
      previousBusinessId: null,
      actor,
      record: async () => record,
    }));
    if (pending) pending.push(...changes);
    else await this.changeLog.writeMany(tx, changes);
    return true;
  }

  /** A delete a repository makes by a statement of its own, with its history. */
  async removeRecorded(tx: Tx, actor: Principal | undefined, id: number, remove: () => Promise<unknown>): Promise<void> {
    const before = await this.get(id, undefined, tx);
    await remove();
    await this.recordChange(tx, actor, 'Delete', id, before);
  }

  /** The history of records a repository deleted at once, each as read before. */
  async recordRemoved(tx: Tx, actor: Principal | undefined, removed: readonly WireRecord[]): Promise<void> {
    for (const record of removed) await this.recordChange(tx, actor, 'Delete', Number(record.Id), record);
  }

  /**
   * Inserts records naming the same columns by multi-row INSERTs, and their change-log entries by more,
   * each entry as recordChange writes a create's (a billing run's lines, all of `businessId`): their Ids.
   */
  async insertRecords(
    tx: Tx,
    actor: Principal | undefined,
    rows: readonly Record<string, unknown>[],
    businessId: number,
  ): Promise<number[]> {
    const ids = await this.insertChunked(rows, tx);
    await this.changeLog.writeMany(tx, await this.createdMany(tx, actor, ids, rows, businessId));
    return ids;
  }

  /**
   * Inserts stamped records naming the same columns, whose history waits (a billing run's invoices and their
   * ledger entries, its history written with the batch's: `createdMany`): their Ids and the values written, in
   * order. `now`: the stamps' time, when the values hold the same instant.
   */
  async insertStampedMany(
    tx: Tx,
    actor: Principal | undefined,
    rows: readonly Readonly<Record<string, unknown>>[],
    now?: Date,
  ): Promise<{ ids: number[]; written: Record<string, unknown>[] }> {
    const written = rows.map((values) => withFields(values, createStamp(actor, now)));
    return { ids: await this.insertChunked(written, tx), written };
  }

  /** Rows by INSERT_CHUNK a statement, within both databases' limits on bound parameters: their Ids, in order. */
  private async insertChunked(rows: readonly Record<string, unknown>[], tx: Tx): Promise<number[]> {
    const ids: number[] = [];
    for (let first = 0; first < rows.length; first += INSERT_CHUNK)
      ids.push(...(await this.repository.insertMany(rows.slice(first, first + INSERT_CHUNK), tx)));
    return ids;
  }

  /** The changes (`created`) of the records inserted with `written`, their Ids `ids`, in order. */
  async createdMany(
    tx: Tx,
    actor: Principal | undefined,
    ids: readonly number[],
    written: readonly Record<string, unknown>[],
    knownBusinessId?: number,
  ): Promise<RecordChangeEntry[]> {
    const changes: RecordChangeEntry[] = [];
    for (const [index, id] of ids.entries()) changes.push(await this.created(tx, actor, id, written[index], knownBusinessId));
    return changes;
  }

  /**
   * The change of a record created with `written` (its Id `id`) as `recordCreated` records it, for
   * ChangeLog.writeMany to record with others: the record as GET shows it read only when needed.
   * `knownBusinessId`: the record's business where the caller knows it, saving its look-up.
   */
  async created(
    tx: Tx,
    actor: Principal | undefined,
    id: number,
    written: Record<string, unknown>,
    knownBusinessId?: number,
  ): Promise<RecordChangeEntry> {
    let reading: Promise<WireRecord> | undefined;
    const after = this.wire.written(id, written, undefined);
    return {
      definition: this.definition,
      action: 'Create',
      recordId: id,
      before: null,
      after,
      businessId: knownBusinessId ?? (await this.businessOf(after, tx)),
      previousBusinessId: null,
      actor,
      record: () => (reading ??= this.get(id, undefined, tx)),
    };
  }
}

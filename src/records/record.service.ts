import { Inject, Injectable, Optional, UnauthorizedException } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { createStamp, updateStamp, type Stamper } from './audit-stamp.js';
import { ChangeLog } from './change-log/change-log.service.js';
import type { ChangeAction } from './field-changes.js';
import { Database } from '../persistence/database.js';
import { listEnvelope, type ActionConfirmation, type ListEnvelope } from './envelopes.js';
import { RecordNotFoundException, refusal, type WireResponseException } from './errors.js';
import { parseBatchQuery, parseListQuery, type ListQuery } from './list-query.js';
import type { Principal } from '../platform/principal.js';
import type { RecordDefinition, WireRecord } from './record-definition.js';
import { compileRecordPlan, type RecordPlan } from './record-plan.js';
import { RecordRepository, type SqlCondition } from './record.repository.js';
import { RecordWireMapper } from './record-wire.js';
import { RecordWriter, withFields, type WriteRules } from './record-writes.js';
import type { RecordEntity } from './record.entity.js';
import type { RecordRules } from './record-rules.js';
import { RecordTypes } from './record-types.js';
import type { RecordDto } from './validation/record.dto.js';
import type { WriteScope } from '../persistence/write-scope.js';

export const RECORD_DEFINITION = Symbol('RecordDefinition');

/** How `createRecorded` stamps and records a record. */
export interface CreateOptions {
  request?: object;
  readBack?: boolean;
  now?: Date;
  stampedBy?: Stamper;
}

/** Rows of one INSERT of insertRecords: 100 rows of even 300 columns stay under SQLite's 32,766 bound parameters. */
const INSERT_CHUNK = 100;

/** The token of a record type's rules inside its module (record.module.ts). */
export const RECORD_RULES = Symbol('RecordRules');

/** The pieces of the machinery for one record type, built on first use (docs/architecture.md). */
interface Machinery {
  plan: RecordPlan;
  repository: RecordRepository;
  wire: RecordWireMapper;
  writer: RecordWriter;
}

/**
 * List, get, batch get, create, update and delete for any record type, driven by its definition
 * (docs/api.md §1.2) and its rules (record-rules.ts). It is never subclassed: a type's domain rules are
 * an injectable of its own, given to `RecordModule.forType`, which makes one RecordService per type.
 * The work is done by the plan (record-plan.ts), the repository (record.repository.ts), the write flow
 * (record-writes.ts) and the wire mapping (record-wire.ts); this class ties them to the type.
 */
@Injectable()
export class RecordService<E extends RecordEntity = RecordEntity> {
  private built: Machinery | undefined;
  @Inject(ChangeLog) private readonly changeLog: ChangeLog;
  @Inject(RecordTypes) private readonly types: RecordTypes;

  constructor(
    @Inject(RECORD_DEFINITION) readonly definition: RecordDefinition<E>,
    readonly db: Database,
    @Optional() @Inject(RECORD_RULES) private readonly rules: RecordRules<any> = {},
  ) {
    // Final: a type's rules are given, not written as a subclass (record-rules.ts).
    if (new.target !== RecordService)
      throw new Error('RecordService is not subclassed: give the record type its rules (RecordModule.forType)');
  }

  /**
   * Records a change of one of this type's records in the change log, inside the write's
   * transaction: the machinery does it for every create, update and delete, and the door below for
   * the records domain rules write besides (a sale's stock change on its product). `before` is the record
   * as read before the change (null on create); `request` the body, for the write-only fields it gave;
   * `knownBusinessId` the record's business where the caller knows it (a billing run's), saving its look-up.
   */
  async recordChange(
    manager: EntityManager,
    actor: Principal | undefined,
    action: ChangeAction,
    id: number,
    before: WireRecord | null,
    request?: object,
    written?: Record<string, unknown>,
    knownBusinessId?: number,
  ): Promise<void> {
    let reading: Promise<WireRecord> | undefined;
    const read = () => (reading ??= this.get(id, undefined, manager));
    // A create knows what it wrote: the row is read back only if something needs it as GET shows it.
    const after = action === 'Delete' ? null : written ? this.machinery.wire.written(id, written, request) : await read();
    const businessId = knownBusinessId ?? (await this.businessOf((after ?? before)!, manager));
    // A record moved to another business: its entry names the business it left as well (history scope).
    const scope = this.definition.business;
    const link = scope && ('column' in scope ? scope.column : 'on' in scope && !('links' in scope) ? scope.on : null);
    const moved = before && after && link && before[link] !== after[link] ? await this.businessOf(before, manager) : null;
    const previousBusinessId = moved !== null && moved !== businessId ? moved : null;
    const record = action === 'Delete' ? async () => before! : written ? read : async () => after!;
    await this.changeLog.write(
      manager,
      { definition: this.definition, action, recordId: id, before, after, businessId, previousBusinessId, actor, record },
      request,
    );
  }

  /** The change log entries of a record, newest first (docs/api.md: the history of any record). */
  history(id: number, query: Record<string, unknown>, actor?: Principal, deadline?: number) {
    return this.changeLog.history(this.definition, id, query, actor, (scoped) => this.get(id, scoped, undefined, deadline));
  }

  // ---- reads ----

  /**
   * Reads take the request's answer deadline (`deadline`, a Date.now() time) where they have one: on
   * MariaDB a read still running at the deadline is stopped in the database (Database.execute).
   */
  async list(query: Record<string, unknown>, actor?: Principal, deadline?: number): Promise<ListEnvelope<WireRecord> | WireRecord[]> {
    const parsed = parseListQuery(query, this.plan.listSchema);
    if (parsed.ids) return this.batch(parsed.ids, actor, deadline);
    return this.page(parsed, actor, deadline);
  }

  /** The batch-get route: the records of the ids asked for that exist and are in the actor's reach, in Id order. */
  batchGet(query: Record<string, unknown>, actor?: Principal, deadline?: number): Promise<WireRecord[]> {
    return this.batch(parseBatchQuery(query), actor, deadline);
  }

  /** One record; 404 when there is none, 401 when it lies outside the actor's businesses. */
  async get(id: number, actor?: Principal, manager?: EntityManager, deadline?: number): Promise<WireRecord> {
    const { repository, wire } = this.machinery;
    const scope = this.scopeCondition(actor);
    const row = await repository.findById(id, scope, manager, deadline);
    if (!row) throw new RecordNotFoundException();
    if (scope && !repository.isInScope(row)) throw new UnauthorizedException();
    return wire.toWire(row);
  }

  /**
   * A page of records with the total count: the page query stops after `size` rows on the index,
   * and the count reads only the record's own table unless a filter needs a joined one. (A
   * COUNT(*) OVER () window would make the database build every matching row, joins and all.)
   */
  private async page(query: ListQuery, actor?: Principal, deadline?: number): Promise<ListEnvelope<WireRecord>> {
    const { repository, wire } = this.machinery;
    const { rows, total } = await repository.page(query, this.scopeCondition(actor), deadline);
    return listEnvelope(
      rows.map((row) => wire.toWire(row)),
      query,
      total,
    );
  }

  /**
   * A list narrowed by a rule written in code rather than SQL (docs/api.md §1.3 all the same: paging,
   * filters, order, the actor's businesses). Every record that the query's filters and `condition`
   * (SQL on the alias `r`, with bound parameters) select is read, `keep` decides, then the kept ones
   * are paged. For lists whose rows are few once `condition` applies (a customer's credits).
   */
  async listNarrowed(
    query: Record<string, unknown>,
    actor: Principal | undefined,
    condition: SqlCondition,
    keep: (record: WireRecord) => boolean,
  ): Promise<ListEnvelope<WireRecord>> {
    const { repository, wire } = this.machinery;
    const parsed = parseListQuery(query, this.plan.listSchema);
    const rows = await repository.narrowed(parsed, this.scopeCondition(actor), condition);
    const kept = rows.map((row) => wire.toWire(row)).filter(keep);
    const start = (parsed.page - 1) * parsed.size;
    return listEnvelope(kept.slice(start, start + parsed.size), parsed, kept.length);
  }

  private async batch(ids: number[], actor?: Principal, deadline?: number): Promise<WireRecord[]> {
    if (!ids.length) return [];
    const { repository, wire } = this.machinery;
    const rows = await repository.batch(ids, this.scopeCondition(actor), deadline);
    return rows.map((row) => wire.toWire(row));
  }

  // ---- writes (bodies arrive validated: record-body.pipe.ts) ----

  /** `write`: the write request's scope (record router, runWrite), for its deadline, Idempotency-Key, If-Match and ETag. */
  create(dto: RecordDto, actor?: Principal, write?: WriteScope): Promise<ActionConfirmation> {
    const created = this.machinery.writer.create(dto, actor, write);
    return this.rules.mapError ? created.catch((error: unknown) => this.mapped(error, 'Create', dto)) : created;
  }

  /** Update of the record `id` (the path's, or the body's: record-body.pipe.ts resolves which). */
  update(id: number, dto: RecordDto, actor?: Principal, write?: WriteScope): Promise<ActionConfirmation> {
    const updated = this.machinery.writer.update(id, dto, actor, write);
    return this.rules.mapError ? updated.catch((error: unknown) => this.mapped(error, 'Update', dto)) : updated;
  }

  delete(id: number, actor?: Principal, write?: WriteScope): Promise<ActionConfirmation> {
    const deleted = this.machinery.writer.delete(id, actor, write);
    return this.rules.mapError ? deleted.catch((error: unknown) => this.mapped(error, 'Delete')) : deleted;
  }

  /** The type's `mapError` rule: the error to answer instead of the write's. */
  private async mapped(error: unknown, operation: ChangeAction, dto?: RecordDto): Promise<never> {
    throw await this.rules.mapError!(error, operation, dto);
  }

  /**
   * A create inside a transaction already open, with every rule of a create through the API: for the
   * records a domain rule makes besides its own (a booking product's sale). Returns the new Id.
   */
  createWithin(manager: EntityManager, dto: RecordDto, actor?: Principal): Promise<number> {
    return this.machinery.writer.createWithin(manager, dto, actor);
  }

  /** A delete inside a transaction already open, with every rule of a delete through the API. */
  deleteWithin(manager: EntityManager, id: number, actor?: Principal): Promise<void> {
    return this.machinery.writer.deleteWithin(manager, id, actor);
  }

  /** A refused action: 400 ActionConfirmation whose Message says why. */
  refusal(message: string): WireResponseException {
    return refusal(message);
  }

  // ---- the door for a domain rule's own writes: stamped, with their history and webhook events ----

  /**
   * Creates a record from column values a domain rule worked out (not a request's body), in `manager`'s
   * transaction: the create stamp, the INSERT, its history. Options: `request`, the write-only fields
   * it was given; `readBack`, its history reads the row back instead of taking what was written; `now`,
   * the stamp's time when the values hold the same instant; `stampedBy`, when the stamp names another
   * writer than the actor (nobody: a customer's own login).
   */
  async createRecorded(
    manager: EntityManager,
    actor: Principal | undefined,
    values: Readonly<Record<string, unknown>>,
    options: CreateOptions = {},
  ): Promise<{ id: number; written: Record<string, unknown> }> {
    const written = withFields(values, createStamp(options.stampedBy === undefined ? actor : options.stampedBy, options.now));
    const id = await this.insertRow(written, manager);
    await this.recordChange(manager, actor, 'Create', id, null, options.request, options.readBack ? undefined : written);
    return { id, written };
  }

  /**
   * Inserts a stamped record whose history waits until it is complete (an issued invoice, once its lines
   * are written): `recordCreated` records it.
   */
  async insertStamped(
    manager: EntityManager,
    actor: Principal | undefined,
    values: Readonly<Record<string, unknown>>,
  ): Promise<{ id: number; written: Record<string, unknown> }> {
    const written = withFields(values, createStamp(actor));
    return { id: await this.insertRow(written, manager), written };
  }

  /** The history of records made without the door (`insertStamped`, a repository's many-row INSERT): as written, or read back. */
  recordCreated(manager: EntityManager, actor: Principal | undefined, id: number, written?: Record<string, unknown>): Promise<void> {
    return this.recordChange(manager, actor, 'Create', id, null, undefined, written);
  }

  /**
   * Changes columns of a record (the update stamp added, its version raised), with its history.
   * `before`: the record as already read; `now`: the stamp's time when the values hold the same instant.
   */
  async updateRecorded(
    manager: EntityManager,
    actor: Principal | undefined,
    id: number,
    values: Readonly<Record<string, unknown>>,
    { before, now }: { before?: WireRecord; now?: Date } = {},
  ): Promise<void> {
    before ??= await this.get(id, undefined, manager);
    await this.updateRow(id, withFields(values, updateStamp(actor, now)), manager);
    await this.recordChange(manager, actor, 'Update', id, before);
  }

  /**
   * A change a repository makes by a statement of its own (a conditional claim, a release), with its
   * history when it changed the record: `change` answers false when it did not. `before`: as already read;
   * `knownBusinessId`: the record's business where the caller knows it (a billing run's).
   */
  async changeRecorded(
    manager: EntityManager,
    actor: Principal | undefined,
    id: number,
    change: () => Promise<boolean | void>,
    before?: WireRecord,
    knownBusinessId?: number,
  ): Promise<boolean> {
    before ??= await this.get(id, undefined, manager);
    if ((await change()) === false) return false;
    await this.recordChange(manager, actor, 'Update', id, before, undefined, undefined, knownBusinessId);
    return true;
  }

  /**
   * Changes a repository makes to several records of `businessId` by one statement (a billing run's claims by
   * set), with their history: the records read before and after by one read each, their entries by one
   * INSERT. `change` answers false when it did not change every record: then nothing is recorded.
   */
  async changesRecorded(
    manager: EntityManager,
    actor: Principal | undefined,
    ids: number[],
    change: () => Promise<boolean>,
    businessId: number,
  ): Promise<boolean> {
    const { repository, wire } = this.machinery;
    const read = async () => (await repository.batch(ids, null, undefined, manager)).map((row) => wire.toWire(row));
    const before = await read();
    if (!(await change())) return false;
    // Both reads are in Id order, of the same records: every one of them was changed.
    const after = await read();
    await this.changeLog.writeMany(
      manager,
      after.map((record, index) => ({
        definition: this.definition,
        action: 'Update' as const,
        recordId: Number(record.Id),
        before: before[index],
        after: record,
        businessId,
        previousBusinessId: null,
        actor,
        record: async () => record,
      })),
    );
    return true;
  }

  /** A delete a repository makes by a statement of its own, with its history. */
  async removeRecorded(manager: EntityManager, actor: Principal | undefined, id: number, remove: () => Promise<unknown>): Promise<void> {
    const before = await this.get(id, undefined, manager);
    await remove();
    await this.recordChange(manager, actor, 'Delete', id, before);
  }

  /** The history of records a repository deleted at once, each as read before. */
  async recordRemoved(manager: EntityManager, actor: Principal | undefined, removed: readonly WireRecord[]): Promise<void> {
    for (const record of removed) await this.recordChange(manager, actor, 'Delete', Number(record.Id), record);
  }

  // ---- pieces for domain rules ----

  /** Inserts a row of column values and returns its new Id (inside `manager`'s transaction, if given). */
  insertRow(values: Record<string, unknown>, manager?: EntityManager, scope?: WriteScope): Promise<number> {
    return this.machinery.repository.insert(values, manager, scope);
  }

  /**
   * Inserts records naming the same columns in one statement, and their change-log entries in one more,
   * each entry as recordChange writes a create's (a billing run's lines, all of `businessId`): their Ids.
   * INSERT_CHUNK rows a statement, within both databases' limits on bound parameters.
   */
  async insertRecords(
    manager: EntityManager,
    actor: Principal | undefined,
    rows: readonly Record<string, unknown>[],
    businessId: number,
  ): Promise<number[]> {
    const ids: number[] = [];
    for (let first = 0; first < rows.length; first += INSERT_CHUNK)
      ids.push(...(await this.insertChunk(manager, actor, rows.slice(first, first + INSERT_CHUNK), businessId)));
    return ids;
  }

  private async insertChunk(
    manager: EntityManager,
    actor: Principal | undefined,
    rows: readonly Record<string, unknown>[],
    businessId: number,
  ): Promise<number[]> {
    const { repository, wire } = this.machinery;
    const ids = await repository.insertMany(rows, manager);
    await this.changeLog.writeMany(
      manager,
      rows.map((written, index) => {
        const id = ids[index];
        let reading: Promise<WireRecord> | undefined;
        return {
          definition: this.definition,
          action: 'Create' as const,
          recordId: id,
          before: null,
          after: wire.written(id, written, undefined),
          businessId,
          previousBusinessId: null,
          actor,
          record: () => (reading ??= this.get(id, undefined, manager)),
        };
      }),
    );
    return ids;
  }

  /**
   * Updates a row's columns and raises its version; a function value is SQL (`SecurityStamp + 1`).
   * With an `expected` version (If-Match) only that version is updated, else 412.
   */
  updateRow(id: number, values: Record<string, unknown>, manager: EntityManager, expected: number | null = null): Promise<void> {
    return this.machinery.writer.updateRow(id, values, manager, expected);
  }

  /** The writable column values a validated body sets: absent keeps, null clears (docs/api.md §1.2). */
  columnValues(dto: RecordDto): Record<string, unknown> {
    return this.machinery.writer.columnValues(dto);
  }

  /** Ids that must point at existing records: 400 naming each field that points at nothing. */
  checkReferences(dto: RecordDto, manager?: EntityManager, which: 'all' | 'unenforced' = 'all'): Promise<void> {
    return this.machinery.writer.checkReferences(dto, manager, which);
  }

  /**
   * Whether the actor may write a record with these values: the type's `authorize` rule, else a
   * restricted administrator may only write into its own businesses (401 otherwise).
   */
  async authorizeBusiness(
    values: Record<string, unknown>,
    actor: Principal | undefined,
    manager: EntityManager,
    dto: RecordDto,
  ): Promise<void> {
    if (this.rules.authorize) return this.rules.authorize(values, { manager, actor, dto });
    if (!actor || actor.businessIds === null) return;
    const business = await this.businessOf(values, manager);
    // A new business (scope on its own Id) cannot be made by a restricted administrator.
    if (business === null || !actor.businessIds.includes(business)) throw new UnauthorizedException();
  }

  /** The business a record with these values belongs to: the type's `businessOf` rule, else the definition's scope. */
  businessOf(values: Record<string, unknown>, manager: EntityManager): Promise<number | null> {
    const byScope = () => this.businessByScope(values, manager);
    return this.rules.businessOf ? this.rules.businessOf(values, manager, byScope) : byScope();
  }

  private async businessByScope(values: Record<string, unknown>, manager: EntityManager): Promise<number | null> {
    const scope = this.definition.business;
    if (!scope || 'links' in scope) return null;
    if (!('via' in scope)) return (values[scope.column] as number | undefined) ?? null;
    const parentId = values[scope.on];
    if (parentId === undefined || parentId === null) return null;
    return this.machinery.repository.parentBusiness(scope, parentId, manager);
  }

  /** The condition that keeps a restricted administrator to its businesses; null when unrestricted. */
  private scopeCondition(actor: Principal | undefined): SqlCondition | null {
    if (!actor || actor.businessIds === null) return null;
    return this.machinery.repository.scopeCondition(actor.businessIds);
  }

  /** The read plan, built once from the entity's metadata and the definition. */
  private get plan(): RecordPlan {
    return this.machinery.plan;
  }

  private get machinery(): Machinery {
    return (this.built ??= this.build());
  }

  private build(): Machinery {
    const plan = compileRecordPlan(this.definition, this.db);
    const types = () => this.types.definitions();
    const repository = new RecordRepository(this.db, plan, this.definition, types);
    const own = this.rules;
    const rules: WriteRules = {
      hasSaveHooks: typeof own.beforeSave === 'function' || typeof own.afterSave === 'function',
      prepare: async (dto) => own.prepareSave?.(dto),
      beforeSave: async (context) => own.beforeSave?.(context),
      afterSave: async (id, saved, pending) => own.afterSave?.(id, saved, pending),
      afterUpdate: async (id, saved) => own.afterUpdate?.(id, saved),
      ...(own.afterCommit ? { afterCommit: (action) => own.afterCommit!(action) } : {}),
      beforeDelete: async (record, manager, actor) => own.beforeDelete?.(record, { manager, actor }),
      afterDelete: async (record, manager, actor) => own.afterDelete?.(record, { manager, actor }),
      authorizeBusiness: (values, actor, manager, dto) => this.authorizeBusiness(values, actor, manager, dto),
      businessOf: (values, manager) => this.businessOf(values, manager),
      get: (id, actor, manager) => this.get(id, actor, manager),
      recordChange: (...change) => this.recordChange(...change),
      types,
    };
    return {
      plan,
      repository,
      wire: new RecordWireMapper(plan, this.definition),
      writer: new RecordWriter(this.definition, this.db, plan, repository, rules),
    };
  }
}

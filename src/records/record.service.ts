import { Inject, Injectable, Optional, UnauthorizedException } from '@nestjs/common';
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
import { RecordDoor } from './record-door.js';
import { RecordWriter, type WriteRules } from './record-writes.js';
import type { RecordEntity } from './record.entity.js';
import type { RecordRules } from './record-rules.js';
import { RecordTypes } from './record-types.js';
import type { RecordDto } from './validation/record.dto.js';
import type { WriteScope } from '../persistence/write-scope.js';
import type { Tx } from '../persistence/tx.js';

export const RECORD_DEFINITION = Symbol('RecordDefinition');

/** The token of a record type's rules inside its module (record.module.ts). */
export const RECORD_RULES = Symbol('RecordRules');

/** The pieces of the machinery for one record type, built on first use (docs/architecture.md). */
interface Machinery {
  plan: RecordPlan;
  repository: RecordRepository;
  wire: RecordWireMapper;
  writer: RecordWriter;
}

export type { CreateOptions } from './record-door.js';

/**
 * List, get, batch get, create, update and delete for any record type, driven by its definition
 * (docs/api.md §1.2) and its rules (record-rules.ts). It is never subclassed: a type's domain rules are
 * an injectable of its own, given to `RecordModule.forType`, which makes one RecordService per type.
 * The work is done by the plan (record-plan.ts), the repository (record.repository.ts), the write flow
 * (record-writes.ts) and the wire mapping (record-wire.ts); this class ties them to the type. The door
 * for a domain rule's own writes (createRecorded, updateRecorded, …) is the part it inherits
 * (record-door.ts).
 */
@Injectable()
export class RecordService<E extends RecordEntity = RecordEntity> extends RecordDoor<E> {
  private built: Machinery | undefined;
  @Inject(ChangeLog) protected readonly changeLog: ChangeLog;
  @Inject(RecordTypes) private readonly types: RecordTypes;

  constructor(
    @Inject(RECORD_DEFINITION) readonly definition: RecordDefinition<E>,
    readonly db: Database,
    @Optional() @Inject(RECORD_RULES) private readonly rules: RecordRules<any> = {},
  ) {
    super();
    // Final: a type's rules are given, not written as a subclass (record-rules.ts).
    if (new.target !== RecordService)
      throw new Error('RecordService is not subclassed: give the record type its rules (RecordModule.forType)');
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
  async get(id: number, actor?: Principal, tx?: Tx, deadline?: number): Promise<WireRecord> {
    const { repository, wire } = this.machinery;
    const scope = this.scopeCondition(actor);
    const row = await repository.findById(id, scope, tx, deadline);
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
  createWithin(tx: Tx, dto: RecordDto, actor?: Principal): Promise<number> {
    return this.machinery.writer.createWithin(tx, dto, actor);
  }

  /** A delete inside a transaction already open, with every rule of a delete through the API. */
  deleteWithin(tx: Tx, id: number, actor?: Principal): Promise<void> {
    return this.machinery.writer.deleteWithin(tx, id, actor);
  }

  /** A refused action: 400 ActionConfirmation whose Message says why. */
  refusal(message: string): WireResponseException {
    return refusal(message);
  }

  // ---- pieces for domain rules ----

  /** Inserts a row of column values and returns its new Id (inside `tx`'s transaction, if given). */
  insertRow(values: Record<string, unknown>, tx?: Tx, scope?: WriteScope): Promise<number> {
    return this.machinery.repository.insert(values, tx, scope);
  }

  /**
   * Updates a row's columns and raises its version; a function value is SQL (`SecurityStamp + 1`).
   * With an `expected` version (If-Match) only that version is updated, else 412.
   */
  updateRow(id: number, values: Record<string, unknown>, tx: Tx, expected: number | null = null): Promise<void> {
    return this.machinery.writer.updateRow(id, values, tx, expected);
  }

  /** The writable column values a validated body sets: absent keeps, null clears (docs/api.md §1.2). */
  columnValues(dto: RecordDto): Record<string, unknown> {
    return this.machinery.writer.columnValues(dto);
  }

  /** Ids that must point at existing records: 400 naming each field that points at nothing. */
  checkReferences(dto: RecordDto, tx?: Tx, which: 'all' | 'unenforced' = 'all'): Promise<void> {
    return this.machinery.writer.checkReferences(dto, tx, which);
  }

  /**
   * Whether the actor may write a record with these values: the type's `authorize` rule, else a
   * restricted administrator may only write into its own businesses (401 otherwise).
   */
  async authorizeBusiness(values: Record<string, unknown>, actor: Principal | undefined, tx: Tx, dto: RecordDto): Promise<void> {
    if (this.rules.authorize) return this.rules.authorize(values, { tx, actor, dto });
    if (!actor || actor.businessIds === null) return;
    const business = await this.businessOf(values, tx);
    // A new business (scope on its own Id) cannot be made by a restricted administrator.
    if (business === null || !actor.businessIds.includes(business)) throw new UnauthorizedException();
  }

  /** The business a record with these values belongs to: the type's `businessOf` rule, else the definition's scope. */
  businessOf(values: Record<string, unknown>, tx: Tx): Promise<number | null> {
    const byScope = () => this.businessByScope(values, tx);
    return this.rules.businessOf ? this.rules.businessOf(values, tx, byScope) : byScope();
  }

  private async businessByScope(values: Record<string, unknown>, tx: Tx): Promise<number | null> {
    const scope = this.definition.business;
    if (!scope || 'links' in scope) return null;
    if (!('via' in scope)) return (values[scope.column] as number | undefined) ?? null;
    const parentId = values[scope.on];
    if (parentId === undefined || parentId === null) return null;
    return this.machinery.repository.parentBusiness(scope, parentId, tx);
  }

  /** The condition that keeps a restricted administrator to its businesses; null when unrestricted. */
  private scopeCondition(actor: Principal | undefined): SqlCondition | null {
    if (!actor || actor.businessIds === null) return null;
    return this.machinery.repository.scopeCondition(actor.businessIds);
  }

  protected get repository(): RecordRepository {
    return this.machinery.repository;
  }

  protected get wire(): RecordWireMapper {
    return this.machinery.wire;
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
      beforeDelete: async (record, tx, actor) => own.beforeDelete?.(record, { tx, actor }),
      afterDelete: async (record, tx, actor) => own.afterDelete?.(record, { tx, actor }),
      authorizeBusiness: (values, actor, tx, dto) => this.authorizeBusiness(values, actor, tx, dto),
      businessOf: (values, tx) => this.businessOf(values, tx),
      get: (id, actor, tx) => this.get(id, actor, tx),
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

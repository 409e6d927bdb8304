import { Inject, Injectable, UnauthorizedException } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ChangeLog } from './change-log/change-log.service.js';
import type { ChangeAction } from './change-log/changes.js';
import { Database } from './database.js';
import { listEnvelope, type ActionConfirmation, type ListEnvelope } from './envelopes.js';
import { RecordNotFoundException, refusal, type WireResponseException } from './errors.js';
import { parseListQuery, type ListQuery } from './list-query.js';
import type { Principal } from './principal.js';
import type { RecordDefinition, WireRecord } from './record-definition.js';
import { compileRecordPlan, type RecordPlan } from './record-plan.js';
import { RecordRepository, type SqlCondition } from './record.repository.js';
import { RecordWireMapper } from './record-wire.js';
import { RecordWriter, type SaveContext, type SaveDecision, type WriteRules } from './record-writes.js';
import type { RecordEntity } from './record.entity.js';
import type { RecordDto } from './validation/record.dto.js';
import type { WriteScope } from './write-scope.js';

export type { SaveContext, SaveDecision } from './record-writes.js';

export const RECORD_DEFINITION = Symbol('RecordDefinition');

/** The pieces of the machinery for one record type, built on first use (docs/architecture.md). */
interface Machinery {
  plan: RecordPlan;
  repository: RecordRepository;
  wire: RecordWireMapper;
  writer: RecordWriter;
}

/**
 * List, get, batch get, create, update and delete for any record type, driven by its definition
 * (docs/api.md §1.2). Record modules subclass it only to add domain rules through the hooks. The work
 * is done by the plan (record-plan.ts), the repository (record.repository.ts), the write flow
 * (record-writes.ts) and the wire mapping (record-wire.ts); this class ties them to the type.
 */
@Injectable()
export class RecordService<E extends RecordEntity = RecordEntity> {
  private built: Machinery | undefined;
  /**
   * Collaborators are injected by property, here and in every record service, so that no subclass
   * needs a constructor that only hands the definition and the database on.
   */
  @Inject(ChangeLog) protected readonly changeLog: ChangeLog;

  constructor(
    @Inject(RECORD_DEFINITION) readonly definition: RecordDefinition<E>,
    readonly db: Database,
  ) {}

  // ---- hooks for domain rules (all run inside the write transaction) ----
  // The save hooks are optional: a type that implements neither is one whose create, without id
  // lists, is a single INSERT (references its foreign keys enforce are left to them).

  /**
   * Before a create or update is written: domain checks (throw to refuse), and the values to write when
   * they differ from the body's (defaults, snapshots), returned with what `afterSave` will need.
   */
  protected beforeSave?(context: SaveContext): Promise<SaveDecision | void>;

  /**
   * Before the transaction of a create or update begins: slow work that needs no database (a password
   * hash), so that no transaction waits on it while it holds the database (SQLite's one writer, rows
   * locked on MySQL). What it finds is kept for the hooks (see passwords.ts, `prehash`).
   */
  protected prepareSave?(dto: RecordDto): Promise<void>;

  /** After a create or update is written, with the record's id and the values written: join tables, releases. */
  protected afterSave?(id: number, saved: SaveContext, pending?: unknown): Promise<void>;

  /** Before a delete: refuse it (throw) when it would orphan records the database cannot see. */
  protected async beforeDelete(_record: WireRecord, _manager: EntityManager, _actor?: Principal): Promise<void> {}

  /** After a record's row is deleted, in the same transaction: what goes with it (a booking product's sale). */
  protected async afterDelete(_record: WireRecord, _manager: EntityManager, _actor?: Principal): Promise<void> {}

  /**
   * Records a change of one of this type's records in the change log, inside the write's
   * transaction: the machinery does it for every create, update and delete, and domain rules do it
   * for the records they write besides (a sale's stock change on its product). `before` is the record
   * as read before the change (null on create); `request` the body, for the write-only fields it gave.
   */
  async recordChange(
    manager: EntityManager, actor: Principal | undefined, action: ChangeAction, id: number, before: WireRecord | null, request?: object, written?: Record<string, unknown>,
  ): Promise<void> {
    let reading: Promise<WireRecord> | undefined;
    const read = () => (reading ??= this.get(id, undefined, manager));
    // A create knows what it wrote: the row is read back only if something needs it as GET shows it.
    const after = action === 'Delete' ? null : written ? this.machinery.wire.written(id, written, request) : await read();
    const businessId = await this.businessOf((after ?? before)!, manager);
    // A record moved to another business: its entry names the business it left as well (history scope).
    const scope = this.definition.business;
    const link = scope && ('column' in scope ? scope.column : 'on' in scope && !('links' in scope) ? scope.on : null);
    const moved = before && after && link && before[link] !== after[link] ? await this.businessOf(before, manager) : null;
    const previousBusinessId = moved !== null && moved !== businessId ? moved : null;
    const record = action === 'Delete' ? async () => before! : written ? read : async () => after!;
    await this.changeLog.write(manager, { definition: this.definition, action, recordId: id, before, after, businessId, previousBusinessId, actor, record }, request);
  }

  /** The change log entries of a record, newest first (docs/api.md: the history of any record). */
  history(id: number, query: Record<string, unknown>, actor?: Principal) {
    return this.changeLog.history(this.definition, id, query, actor, (scoped) => this.get(id, scoped));
  }

  // ---- reads ----

  async list(query: Record<string, unknown>, actor?: Principal): Promise<ListEnvelope<WireRecord> | WireRecord[]> {
    const parsed = parseListQuery(query, this.plan.listSchema);
    if (parsed.ids) return this.batch(parsed.ids, actor);
    return this.page(parsed, actor);
  }

  /** One record; 404 when there is none, 401 when it lies outside the actor's businesses. */
  async get(id: number, actor?: Principal, manager?: EntityManager): Promise<WireRecord> {
    const { repository, wire } = this.machinery;
    const scope = this.scopeCondition(actor);
    const row = await repository.findById(id, scope, manager);
    if (!row) throw new RecordNotFoundException();
    if (scope && !repository.isInScope(row)) throw new UnauthorizedException();
    return wire.toWire(row);
  }

  /**
   * A page of records with the total count: the page query stops after `size` rows on the index,
   * and the count reads only the record's own table unless a filter needs a joined one. (A
   * COUNT(*) OVER () window would make the database build every matching row, joins and all.)
   */
  protected async page(query: ListQuery, actor?: Principal): Promise<ListEnvelope<WireRecord>> {
    const { repository, wire } = this.machinery;
    const { rows, total } = await repository.page(query, this.scopeCondition(actor));
    return listEnvelope(rows.map((row) => wire.toWire(row)), query, total);
  }

  /**
   * A list narrowed by a rule written in code rather than SQL (docs/api.md §1.3 all the same: paging,
   * filters, order, the actor's businesses). Every record that the query's filters and `condition`
   * (SQL on the alias `r`, with bound parameters) select is read, `keep` decides, then the kept ones
   * are paged. For lists whose rows are few once `condition` applies (a customer's credits).
   */
  protected async listNarrowed(query: Record<string, unknown>, actor: Principal | undefined, condition: SqlCondition, keep: (record: WireRecord) => boolean): Promise<ListEnvelope<WireRecord>> {
    const { repository, wire } = this.machinery;
    const parsed = parseListQuery(query, this.plan.listSchema);
    const rows = await repository.narrowed(parsed, this.scopeCondition(actor), condition);
    const kept = rows.map((row) => wire.toWire(row)).filter(keep);
    const start = (parsed.page - 1) * parsed.size;
    return listEnvelope(kept.slice(start, start + parsed.size), parsed, kept.length);
  }

  protected async batch(ids: number[], actor?: Principal): Promise<WireRecord[]> {
    if (!ids.length) return [];
    const { repository, wire } = this.machinery;
    const rows = await repository.batch(ids, this.scopeCondition(actor));
    return rows.map((row) => wire.toWire(row));
  }

  // ---- writes (bodies arrive validated: record-body.pipe.ts) ----

  create(dto: RecordDto, actor?: Principal): Promise<ActionConfirmation> {
    return this.machinery.writer.create(dto, actor);
  }

  /** Update of the record `id` (the path's, or the body's: record-body.pipe.ts resolves which). */
  update(id: number, dto: RecordDto, actor?: Principal): Promise<ActionConfirmation> {
    return this.machinery.writer.update(id, dto, actor);
  }

  delete(id: number, actor?: Principal): Promise<ActionConfirmation> {
    return this.machinery.writer.delete(id, actor);
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

  // ---- pieces for domain rules ----

  /** Inserts a row of column values and returns its new Id (inside `manager`'s transaction, if given). */
  protected insertRow(values: Record<string, unknown>, manager?: EntityManager, scope?: WriteScope): Promise<number> {
    return this.machinery.repository.insert(values, manager, scope);
  }

  /**
   * Updates a row's columns and raises its version; a function value is SQL (`SecurityStamp + 1`).
   * With an `expected` version (If-Match) only that version is updated, else 412.
   */
  protected updateRow(id: number, values: Record<string, unknown>, manager: EntityManager, expected: number | null = null): Promise<void> {
    return this.machinery.writer.updateRow(id, values, manager, expected);
  }

  /** The writable column values a validated body sets: absent keeps, null clears (docs/api.md §1.2). */
  protected columnValues(dto: RecordDto): Record<string, unknown> {
    return this.machinery.writer.columnValues(dto);
  }

  /** Ids that must point at existing records: 400 naming each field that points at nothing. */
  protected checkReferences(dto: RecordDto, manager?: EntityManager, which: 'all' | 'unenforced' = 'all'): Promise<void> {
    return this.machinery.writer.checkReferences(dto, manager, which);
  }

  /** A restricted administrator may only write into its own businesses (401 otherwise). */
  protected async authorizeBusiness(values: Record<string, unknown>, actor: Principal | undefined, manager: EntityManager, _dto: RecordDto): Promise<void> {
    if (!actor || actor.businessIds === null) return;
    const business = await this.businessOf(values, manager);
    // A new business (scope on its own Id) cannot be made by a restricted administrator.
    if (business === null || !actor.businessIds.includes(business)) throw new UnauthorizedException();
  }

  /** The business a record with these values belongs to, by the definition's scope. */
  protected async businessOf(values: Record<string, unknown>, manager: EntityManager): Promise<number | null> {
    const scope = this.definition.business;
    if (!scope || 'links' in scope) return null;
    if (!('via' in scope)) return (values[scope.column] as number | undefined) ?? null;
    const parentId = values[scope.on];
    if (parentId === undefined || parentId === null) return null;
    return this.machinery.repository.parentBusiness(scope, parentId, manager);
  }

  /** The condition that keeps a restricted administrator to its businesses; null when unrestricted. */
  protected scopeCondition(actor: Principal | undefined): SqlCondition | null {
    if (!actor || actor.businessIds === null) return null;
    return this.machinery.repository.scopeCondition(actor.businessIds);
  }

  /** Converts a row to its wire record: the fields, the computed ones, then the common extras. */
  protected toWire(row: readonly unknown[]): WireRecord {
    return this.machinery.wire.toWire(row);
  }

  /** The read plan, built once from the entity's metadata and the definition. */
  protected get plan(): RecordPlan {
    return this.machinery.plan;
  }

  private get machinery(): Machinery {
    return (this.built ??= this.build());
  }

  private build(): Machinery {
    const plan = compileRecordPlan(this.definition, this.db);
    const repository = new RecordRepository(this.db, plan, this.definition);
    const rules: WriteRules = {
      hasSaveHooks: typeof this.beforeSave === 'function' || typeof this.afterSave === 'function',
      prepare: async (dto) => this.prepareSave?.(dto),
      beforeSave: async (context) => this.beforeSave?.(context),
      afterSave: async (id, saved, pending) => this.afterSave?.(id, saved, pending),
      beforeDelete: (record, manager, actor) => this.beforeDelete(record, manager, actor),
      afterDelete: (record, manager, actor) => this.afterDelete(record, manager, actor),
      authorizeBusiness: (values, actor, manager, dto) => this.authorizeBusiness(values, actor, manager, dto),
      businessOf: (values, manager) => this.businessOf(values, manager),
      get: (id, actor, manager) => this.get(id, actor, manager),
      recordChange: (...change) => this.recordChange(...change),
    };
    return { plan, repository, wire: new RecordWireMapper(plan, this.definition), writer: new RecordWriter(this.definition, this.db, plan, repository, rules) };
  }
}

import { randomUUID } from 'node:crypto';
import { Inject, Injectable, UnauthorizedException } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { wireKindOf, type AnyClass, type WireKind } from './columns.js';
import { ChangeLog } from './change-log/change-log.service.js';
import type { ChangeAction } from './change-log/changes.js';
import { Database, isForeignKeyViolation } from './database.js';
import { failureConfirmation, listEnvelope, successConfirmation, type ActionConfirmation, type FieldError, type ListEnvelope } from './envelopes.js';
import { RecordNotFoundException, RecordValidationException, WireResponseException } from './errors.js';
import { pageSql } from './page-query.js';
import { parseListQuery, type Filter, type ListField, type ListQuery, type ListSchema } from './list-query.js';
import type { Principal } from './principal.js';
import type { WriteScope } from './write-scope.js';
import { recordDefinitions, type JoinedField, type RecordDefinition, type SqlContext, type WireRecord } from './record-definition.js';
import type { RecordEntity } from './record.entity.js';
import { toWire } from './wire-values.js';
import { replaceIdList } from './id-lists.js';
import { etagOf, expectedVersion, preconditionFailed, VERSION } from './versions.js';
import { getMetadataStorage } from 'class-validator';
import { referencesOf } from './validation/fields.js';
import { crossBusinessReferences } from './same-business.js';
import { typesListing } from './listed-references.js';
import type { RecordDto } from './validation/record.dto.js';
import { validateBody } from './validation/validation.js';

export const RECORD_DEFINITION = Symbol('RecordDefinition');

/** Columns every record has, filled by the machinery rather than by a request. */
const COMMON_COLUMNS = new Set(['Id', 'UniqueId', 'CreatedOn', 'UpdatedOn', 'UpdatedBy', 'IsNew', 'Version']);
const IN_SCOPE_KEY = '__inScope';

interface ReadPlan {
  /** The record's table with its alias, and with the joins of read-only fields. */
  table: string;
  from: string;
  /** Fields that come from a joined table. */
  joinedFields: ReadonlySet<string>;
  /** The output columns of a read, and the whole read of one record by Id. */
  selectList: string;
  selectById: string;
  outputs: ReadonlyArray<readonly [name: string, kind: WireKind]>;
  /** SQL expression of every field a list may filter or sort by. */
  expressions: ReadonlyMap<string, string>;
  listSchema: ListSchema;
  /** SQL condition that a record belongs to one of the `?`-listed businesses, with `{ids}` for the list. */
  scopeTemplate: string | null;
  /** Entity columns a request body may write. */
  writable: ReadonlyMap<string, WireKind>;
  /** Every column of the entity by property name, for writes. */
  columns: ReadonlyMap<string, { databaseName: string; kind: WireKind; nullable: boolean; default: unknown }>;
  /** The record's table, quoted. */
  tableName: string;
  /** Properties whose column has a foreign key, with the entity it refers to. */
  enforcedReferences: ReadonlyMap<string, AnyClass>;
}

/** The state a save hook sees. */
export interface SaveContext<D = RecordDto> {
  manager: EntityManager;
  actor: Principal | undefined;
  dto: D;
  /** The column values about to be written; hooks may add or change them. */
  values: Record<string, unknown>;
  /** The stored record on update, null on create. */
  existing: WireRecord | null;
}

/**
 * List, get, batch get, create, update and delete for any record type, driven by its definition
 * (docs/api.md §1.2). Record modules subclass it only to add domain rules through the hooks.
 */
@Injectable()
export class RecordService<E extends RecordEntity = RecordEntity> {
  private cachedPlan: ReadPlan | undefined;
  /** Injected by property, so that subclasses keep their constructors. */
  @Inject(ChangeLog) protected readonly changeLog: ChangeLog;

  constructor(
    @Inject(RECORD_DEFINITION) readonly definition: RecordDefinition<E>,
    readonly db: Database,
  ) {}

  // ---- hooks for domain rules (all run inside the write transaction) ----

  /** Before a create or update is written: defaults, snapshots, domain checks. */
  protected async beforeSave(_context: SaveContext): Promise<void> {}

  /** After a create or update is written, with the record's id: join tables, releases. */
  protected async afterSave(_id: number, _context: SaveContext): Promise<void> {}

  /** Before a delete: refuse it (throw) when it would orphan records the database cannot see. */
  protected async beforeDelete(_record: WireRecord, _manager: EntityManager, _actor?: Principal): Promise<void> {}

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
    const after = action === 'Delete' ? null : written ? this.writtenRecord(id, written, request) : await read();
    const businessId = await this.businessOf((after ?? before)!, manager);
    const record = action === 'Delete' ? async () => before! : written ? read : async () => after!;
    await this.changeLog.write(manager, { definition: this.definition, action, recordId: id, before, after, businessId, actor, record }, request);
  }

  /** The stored fields a create wrote (its column values and id lists), as GET shows them. */
  private writtenRecord(id: number, values: Record<string, unknown>, request?: object): WireRecord {
    const shown = new Set(this.plan.outputs.map(([name]) => name));
    const record: WireRecord = { Id: id };
    for (const [name, value] of Object.entries(values)) {
      const column = this.plan.columns.get(name);
      if (column && shown.has(name) && value !== undefined && typeof value !== 'function') record[name] = toWire(column.kind, value);
    }
    for (const name in this.definition.lists ?? {}) {
      const listed = ((request as Record<string, unknown> | undefined)?.[name] as number[] | null | undefined) ?? [];
      record[name] = [...new Set(listed)].sort((a, b) => a - b);
    }
    return record;
  }

  /** The change log entries of a record, newest first (contract: the history of any record). */
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
    const scope = this.scopeCondition(actor);
    const rows = scope
      ? await this.db.queryArrays(`${this.selectSql(`, CASE WHEN ${scope.sql} THEN 1 ELSE 0 END AS ${IN_SCOPE_KEY}`)} WHERE r.${this.db.id('Id')} = ?`, [...scope.parameters, id], manager)
      : await this.db.queryArrays(this.plan.selectById, [id], manager);
    if (!rows.length) throw new RecordNotFoundException();
    // The in-scope flag follows the record's columns and its version.
    if (scope && Number(rows[0][this.plan.outputs.length + 1]) !== 1) throw new UnauthorizedException();
    return this.toWire(rows[0]);
  }

  /**
   * A page of records with the total count: the page query stops after `size` rows on the index,
   * and the count reads only the record's own table unless a filter needs a joined one. (A
   * COUNT(*) OVER () window would make the database build every matching row, joins and all.)
   */
  protected async page(query: ListQuery, actor?: Principal): Promise<ListEnvelope<WireRecord>> {
    const plan = this.plan;
    const { where, parameters } = this.whereClause(query.filters, actor);
    const countFrom = query.filters.every((filter) => !plan.joinedFields.has(filter.field)) ? plan.table : plan.from;
    const sql = pageSql(this.db, {
      entity: this.definition.entity, table: plan.table, from: plan.from, selectList: plan.selectList, where, filters: query.filters,
      orderBy: this.orderClause(query), orderedById: query.orderBy === 'Id', needsJoins: countFrom !== plan.table || plan.joinedFields.has(query.orderBy),
    });
    const [rows, [count]] = await Promise.all([
      this.db.queryArrays(sql, [...parameters, query.size, (query.page - 1) * query.size]),
      this.db.query(`SELECT COUNT(*) AS n FROM ${countFrom}${where}`, parameters),
    ]);
    return listEnvelope(rows.map((row) => this.toWire(row)), query, Number(count.n));
  }

  /**
   * A list narrowed by a rule written in code rather than SQL (docs/api.md §1.3 all the same: paging,
   * filters, order, the actor's businesses). Every record that the query's filters and `condition`
   * (SQL on the alias `r`, with bound parameters) select is read, `keep` decides, then the kept ones
   * are paged. For lists whose rows are few once `condition` applies (a customer's credits).
   */
  protected async listNarrowed(
    query: Record<string, unknown>,
    actor: Principal | undefined,
    condition: { sql: string; parameters: unknown[] },
    keep: (record: WireRecord) => boolean,
  ): Promise<ListEnvelope<WireRecord>> {
    const parsed = parseListQuery(query, this.plan.listSchema);
    const { where, parameters } = this.whereClause(parsed.filters, actor);
    const sql = `${this.selectSql()}${where ? `${where} AND` : ' WHERE'} (${condition.sql}) ORDER BY ${this.orderClause(parsed)}`;
    const rows = await this.db.queryArrays(sql, [...parameters, ...condition.parameters]);
    const kept = rows.map((row) => this.toWire(row)).filter(keep);
    const start = (parsed.page - 1) * parsed.size;
    return listEnvelope(kept.slice(start, start + parsed.size), parsed, kept.length);
  }

  protected async batch(ids: number[], actor?: Principal): Promise<WireRecord[]> {
    if (!ids.length) return [];
    const { where, parameters } = this.whereClause([], actor);
    const idIn = `r.${this.db.id('Id')} IN (${ids.map(() => '?').join(', ')})`;
    const sql = `${this.selectSql()}${where ? `${where} AND ${idIn}` : ` WHERE ${idIn}`} ORDER BY r.${this.db.id('Id')}`;
    const rows = await this.db.queryArrays(sql, [...parameters, ...ids]);
    return rows.map((row) => this.toWire(row));
  }

  // ---- writes ----

  async create(body: unknown, actor?: Principal): Promise<ActionConfirmation> {
    const dto = await validateBody(this.dtoClass, body);
    const now = new Date();
    // A lone INSERT checks only the references its foreign keys do not enforce, before it (one statement
    // instead of one per reference). With save hooks, which may read the referenced records, all are
    // checked inside the transaction, so the hooks find what the check found even when a delete races
    // the create. Should a foreign key refuse the write, the check, run in full, names the field.
    const alone = this.isSingleInsert(dto) && !actor?.write?.needsTransaction;
    if (alone) await this.checkReferences(dto, undefined, 'unenforced');
    const stamp = { UniqueId: randomUUID(), CreatedOn: now, UpdatedOn: now, UpdatedBy: actor?.email ?? null, IsNew: true };
    // The answer is made inside the transaction: an Idempotency-Key stores it with the write.
    const confirm = (id: number) => successConfirmation(`${this.definition.name} was successfully created.`, { Id: id }, actor?.email ?? null, now);
    if (actor?.write) actor.write.etag = etagOf(stamp.UniqueId, 1);
    const created = alone
      ? this.insertAlone(dto, actor, stamp).then(confirm)
      : this.db.transaction(async (manager) => {
        const context: SaveContext = { manager, actor, dto, values: this.columnValues(dto), existing: null };
        await this.checkReferences(dto, manager);
        await this.authorizeBusiness(context.values, actor, manager, dto);
        await this.checkSameBusiness(context, manager);
        await this.beforeSave(context);
        Object.assign(context.values, stamp);
        const newId = await this.insertRow(context.values, manager);
        await this.writeLists(newId, dto, manager, true);
        await this.afterSave(newId, context);
        await this.recordChange(manager, actor, 'Create', newId, null, dto, context.values);
        return confirm(newId);
      }, actor?.write);
    return created.catch(async (error: unknown) => {
      if (isForeignKeyViolation(error)) await this.checkReferences(dto);
      throw error;
    });
  }

  /** Update by the body's Id, or by the path's (which then wins over a missing body Id). */
  async update(pathId: number | null, body: unknown, actor?: Principal): Promise<ActionConfirmation> {
    const id = this.updateId(pathId, body);
    const dto = await validateBody(this.definition.updateDto ?? this.dtoClass, body);
    const now = new Date();
    return this.db.transaction(async (manager) => {
      const existing = await this.get(id, actor, manager);
      const expected = expectedVersion(actor?.write, existing);
      const values = this.columnValues(dto);
      const context: SaveContext = { manager, actor, dto, values, existing };
      await this.checkReferences(dto, manager);
      await this.authorizeBusiness({ ...existing, ...values }, actor, manager, dto);
      await this.checkSameBusiness(context, manager);
      await this.beforeSave(context);
      Object.assign(values, { UpdatedOn: now, UpdatedBy: actor?.email ?? null, IsNew: false });
      await this.updateRow(id, values, manager, expected);
      await this.writeLists(id, dto, manager, false);
      await this.afterSave(id, context);
      await this.recordChange(manager, actor, 'Update', id, existing, dto);
      if (actor?.write) actor.write.etag = await this.currentEtag(id, manager);
      return successConfirmation(`${this.definition.name} was successfully updated.`, { Id: id }, actor?.email ?? null, now);
    }, actor?.write);
  }

  async delete(id: number, actor?: Principal): Promise<ActionConfirmation> {
    return this.db.transaction(async (manager) => {
      const existing = await this.get(id, actor, manager);
      const listing = await typesListing(this.db, this.definition.entity, id, manager);
      if (listing.length) throw this.refusal(`${this.definition.name} ${id} cannot be deleted because ${listing.join(' and ')} records list it.`);
      const expected = expectedVersion(actor?.write, existing);
      await this.beforeDelete(existing, manager, actor);
      try {
        const version = expected === null ? '' : ` AND ${this.db.id('Version')} = ?`;
        const result = await this.db.query(`DELETE FROM ${this.plan.tableName} WHERE ${this.db.id('Id')} = ?${version}`, expected === null ? [id] : [id, expected], manager);
        if (expected !== null && affectedRows(result) === 0) throw preconditionFailed(await this.currentEtag(id, manager));
      } catch (error) {
        if (!isForeignKeyViolation(error)) throw error;
        const referrers = await this.referringTypes(id, manager);
        const which = referrers.length ? `${referrers.join(' and ')} records refer` : 'other records refer';
        throw this.refusal(`${this.definition.name} ${id} cannot be deleted because ${which} to it.`);
      }
      await this.recordChange(manager, actor, 'Delete', id, existing);
      return successConfirmation(`${this.definition.name} was successfully deleted.`, { Id: id }, actor?.email ?? null);
    }, actor?.write);
  }

  /** A create that writes nothing but its row (and its change-log entry). */
  private async insertAlone(dto: RecordDto, actor: Principal | undefined, stamp: Record<string, unknown>): Promise<number> {
    const values = this.columnValues(dto);
    await this.authorizeBusiness(values, actor, this.db.manager, dto);
    await this.checkSameBusiness({ dto, values, existing: null });
    return this.db.transaction(async (manager) => {
      const written = { ...values, ...stamp };
      const id = await this.insertRow(written, manager);
      await this.recordChange(manager, actor, 'Create', id, null, dto, written);
      return id;
    }, actor?.write);
  }

  /** Whether a create writes nothing but its own row: no save hooks of the type's, no lists given. */
  private isSingleInsert(dto: RecordDto): boolean {
    const hookless = this.beforeSave === RecordService.prototype.beforeSave && this.afterSave === RecordService.prototype.afterSave;
    return hookless && Object.keys(this.definition.lists ?? {}).every((name) => (dto as unknown as Record<string, unknown>)[name] === undefined);
  }

  /** Inserts a row of column values and returns its new Id (inside `manager`'s transaction, if given). */
  protected async insertRow(values: Record<string, unknown>, manager?: EntityManager, scope?: WriteScope): Promise<number> {
    const { names, placeholders, parameters } = this.columnsOf(values);
    const sql = `INSERT INTO ${this.plan.tableName} (${names.join(', ')}) VALUES (${placeholders.join(', ')})`;
    const result = manager ? await this.db.query(sql, parameters, manager) : await this.db.write(sql, parameters, scope);
    const outcome = result as unknown as { lastInsertRowid?: number | bigint; insertId?: number };
    return Number(outcome.lastInsertRowid ?? outcome.insertId);
  }

  /**
   * Updates a row's columns and raises its version; a function value is SQL (`SecurityStamp + 1`).
   * With an `expected` version (If-Match) only that version is updated, else 412.
   */
  protected async updateRow(id: number, values: Record<string, unknown>, manager: EntityManager, expected: number | null = null): Promise<void> {
    const { names, placeholders, parameters } = this.columnsOf(values);
    const assignments = names.map((name, i) => `${name} = ${placeholders[i]}`);
    assignments.push(`${this.db.id('Version')} = ${this.db.id('Version')} + 1`);
    const version = expected === null ? '' : ` AND ${this.db.id('Version')} = ?`;
    const result = await this.db.query(`UPDATE ${this.plan.tableName} SET ${assignments.join(', ')} WHERE ${this.db.id('Id')} = ?${version}`, [...parameters, id, ...(expected === null ? [] : [expected])], manager);
    if (expected !== null && affectedRows(result) === 0) throw preconditionFailed(await this.currentEtag(id, manager));
  }

  /** The record's ETag as stored now (inside `manager`'s transaction). */
  private async currentEtag(id: number, manager: EntityManager): Promise<string | undefined> {
    const [row] = await this.db.query(`SELECT ${this.db.id('UniqueId')} AS u, ${this.db.id('Version')} AS v FROM ${this.plan.tableName} WHERE ${this.db.id('Id')} = ?`, [id], manager);
    return row ? etagOf(row.u, row.v) : undefined;
  }

  /** Column values as the database takes them: dates as UTC text, booleans as 0/1, lists as JSON. */
  private columnsOf(values: Record<string, unknown>): { names: string[]; placeholders: string[]; parameters: unknown[] } {
    const names: string[] = [];
    const placeholders: string[] = [];
    const parameters: unknown[] = [];
    for (const [property, value] of Object.entries(values)) {
      if (value === undefined) continue;
      const column = this.plan.columns.get(property);
      if (!column) continue; // not a column of this record (a list or a request-only field)
      names.push(this.db.id(column.databaseName));
      if (typeof value === 'function') {
        placeholders.push(String((value as () => string)()));
        continue;
      }
      placeholders.push('?');
      if (value === null) parameters.push(null);
      else if (value instanceof Date) parameters.push(this.db.dateParam(value));
      else if (typeof value === 'boolean') parameters.push(value ? 1 : 0);
      else if (column.kind === 'idList' || (typeof value === 'object' && !Array.isArray(value))) parameters.push(JSON.stringify(value));
      else parameters.push(value);
    }
    return { names, placeholders, parameters };
  }

  /** A refused action: 400 ActionConfirmation whose Message says why. */
  refusal(message: string): WireResponseException {
    return new WireResponseException(failureConfirmation(400, message), 400);
  }

  // ---- shared pieces ----

  /** The record types with a record whose reference field points at this record (for a refused delete). */
  private async referringTypes(id: number, manager: EntityManager): Promise<string[]> {
    const names: string[] = [];
    for (const other of recordDefinitions()) {
      const references = [other.dto, other.updateDto].flatMap((dto) => (dto ? referencesOf(dto) : []));
      const stored = this.db.dataSource.getMetadata(other.entity);
      // A request field that is not a column of its own (Coworker.TariffId starts a contract) refers to nothing.
      const columns = [...new Set(references.filter((r) => !r.list && r.target() === this.definition.entity && stored.findColumnWithPropertyName(r.property)).map((r) => r.property))];
      if (!columns.length || names.includes(other.name)) continue;
      const condition = columns.map((c) => `${this.db.id(c)} = ?`).join(' OR ');
      const found = await this.db.query(`SELECT 1 AS x FROM ${this.db.tableOf(other.entity)} WHERE ${condition} LIMIT 1`, columns.map(() => id), manager);
      if (found.length) names.push(other.name);
    }
    return names;
  }

  /** Replaces the join-table id lists a request gives (absent: kept; null or []: emptied). */
  private async writeLists(id: number, dto: RecordDto, manager: EntityManager, created: boolean): Promise<void> {
    for (const [name, list] of Object.entries(this.definition.lists ?? {})) {
      const value = (dto as unknown as Record<string, unknown>)[name];
      if (value === undefined) continue;
      await replaceIdList(this.db, manager, list, id, (value as number[] | null) ?? [], created);
    }
  }

  private get dtoClass(): new () => RecordDto {
    if (!this.definition.dto) throw new Error(`${this.definition.name} has no request body`);
    return this.definition.dto;
  }

  private updateId(pathId: number | null, body: unknown): number {
    const bodyId = (body as { Id?: unknown } | null)?.Id;
    if (pathId !== null) {
      if (bodyId !== undefined && bodyId !== null && bodyId !== pathId) {
        throw RecordValidationException.field('Id', 'Id in the body does not match the id in the path.', bodyId);
      }
      return pathId;
    }
    if (bodyId === undefined || bodyId === null) throw RecordValidationException.field('Id', 'Id is required.', null);
    if (typeof bodyId !== 'number' || !Number.isInteger(bodyId) || bodyId < 1 || bodyId > 2_147_483_647) {
      throw RecordValidationException.field('Id', 'Id must be a positive integer id.', bodyId);
    }
    return bodyId;
  }

  /** The writable column values a validated body sets: absent keeps, null clears (docs/api.md §1.2). */
  protected columnValues(dto: RecordDto): Record<string, unknown> {
    const values: Record<string, unknown> = {};
    for (const [name, kind] of this.plan.writable) {
      const value = (dto as unknown as Record<string, unknown>)[name];
      if (value === undefined) continue;
      // Clearing a column that cannot be null gives its default (false for a flag).
      const column = this.plan.columns.get(name);
      values[name] = value === null && column && !column.nullable ? (kind === 'bool' ? false : column.default) ?? null : value;
    }
    return values;
  }

  /**
   * Ids that must point at existing records: 400 naming each field that points at nothing. With
   * `unenforced`, only the ids no foreign key of the record's table guards (id lists, unconstrained
   * ids) are looked up first; should one be missing, all are, so the answer names every field.
   */
  protected async checkReferences(dto: RecordDto, manager?: EntityManager, which: 'all' | 'unenforced' = 'all'): Promise<void> {
    const errors = await this.missingReferences(dto, manager, which);
    if (errors.length) throw new RecordValidationException(which === 'all' ? errors : await this.missingReferences(dto, manager, 'all'));
  }

  private async missingReferences(dto: RecordDto, manager: EntityManager | undefined, which: 'all' | 'unenforced'): Promise<FieldError[]> {
    const enforced = this.plan.enforcedReferences;
    const checks = referencesOf(dto.constructor as AnyClass).map(async (reference): Promise<FieldError | null> => {
      const value = (dto as unknown as Record<string, unknown>)[reference.property];
      if (value === undefined || value === null) return null;
      if (which === 'unenforced' && !reference.list && enforced.get(reference.property) === reference.target()) return null;
      const ids = [...new Set(reference.list ? (value as number[]) : [value as number])];
      if (!ids.length) return null;
      const target = reference.target();
      const found = await this.db.query<{ Id: number }>(
        `SELECT ${this.db.id('Id')} AS ${this.db.id('Id')} FROM ${this.db.tableOf(target)} WHERE ${this.db.id('Id')} IN (${ids.map(() => '?').join(', ')})`,
        ids,
        manager,
      );
      const existing = new Set(found.map((row) => Number(row.Id)));
      const missing = ids.filter((id) => !existing.has(id));
      return missing.length ? { PropertyName: reference.property, AttemptedValue: value, Message: `${target.name} ${missing.join(', ')} does not exist` } : null;
    });
    return (await Promise.all(checks)).filter((error): error is FieldError => error !== null);
  }

  /** References declared `sameBusiness` name records of this record's business (400 naming each field). */
  private async checkSameBusiness(record: Pick<SaveContext, 'dto' | 'values' | 'existing'>, manager?: EntityManager): Promise<void> {
    const errors = await crossBusinessReferences(this.db, this.definition, record.dto, record, (values) => this.businessOf(values, manager ?? this.db.manager), manager);
    if (errors.length) throw new RecordValidationException(errors);
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
    if (!scope) return null;
    if ('links' in scope) return null;
    if (!('via' in scope)) return (values[scope.column] as number | undefined) ?? null;
    const parentId = values[scope.on];
    if (parentId === undefined || parentId === null) return null;
    const [row] = await this.db.query(
      `SELECT ${this.db.id(scope.column ?? 'BusinessId')} AS b FROM ${this.db.tableOf(scope.via())} WHERE ${this.db.id('Id')} = ?`,
      [parentId],
      manager,
    );
    return row ? Number(row.b) : null;
  }

  private whereClause(filters: readonly Filter[], actor: Principal | undefined): { where: string; parameters: unknown[] } {
    const plan = this.plan;
    const conditions: string[] = [];
    const parameters: unknown[] = [];
    for (const filter of filters) {
      const expression = plan.expressions.get(filter.field)!;
      const value = filter.value instanceof Date ? this.db.dateParam(filter.value) : typeof filter.value === 'boolean' ? (filter.value ? 1 : 0) : filter.value;
      if (filter.op === 'contains') {
        conditions.push(`LOWER(${expression}) LIKE ? ESCAPE '!'`);
        parameters.push(`%${String(value).toLowerCase().replace(/[!%_]/g, (c) => `!${c}`)}%`);
      } else {
        conditions.push(`${expression} ${filter.op === 'eq' ? '=' : filter.op === 'gte' ? '>=' : '<='} ?`);
        parameters.push(value);
      }
    }
    const scope = this.scopeCondition(actor);
    if (scope) {
      conditions.push(scope.sql);
      parameters.push(...scope.parameters);
    }
    return { where: conditions.length ? ` WHERE ${conditions.join(' AND ')}` : '', parameters };
  }

  /** A list's ORDER BY: its field, then Id, so that pages are stable. */
  private orderClause(query: ListQuery): string {
    const dir = query.direction === 1 ? 'ASC' : 'DESC';
    return query.orderBy === 'Id'
      ? `r.${this.db.id('Id')} ${dir}`
      : `${this.plan.expressions.get(query.orderBy)} ${dir}, r.${this.db.id('Id')} ${dir}`;
  }

  /** The condition that keeps a restricted administrator to its businesses; null when unrestricted. */
  protected scopeCondition(actor: Principal | undefined): { sql: string; parameters: unknown[] } | null {
    const template = this.plan.scopeTemplate;
    if (!actor || actor.businessIds === null || !template) return null;
    if (!actor.businessIds.length) return { sql: '1 = 0', parameters: [] };
    return { sql: template.replace('{ids}', actor.businessIds.map(() => '?').join(', ')), parameters: [...actor.businessIds] };
  }

  private selectSql(extra = ''): string {
    return `SELECT ${this.plan.selectList}${extra} FROM ${this.plan.from}`;
  }

  /** Converts a row to its wire record: the fields, the computed ones, then the common extras. */
  protected toWire(row: readonly unknown[]): WireRecord {
    const record: WireRecord = {};
    const outputs = this.plan.outputs;
    for (let i = 0; i < outputs.length; i++) record[outputs[i][0]] = toWire(outputs[i][1], row[i]);
    (record as Record<symbol, unknown>)[VERSION] = row[outputs.length];
    for (const name in this.definition.lists ?? {}) (record[name] as number[]).sort((a, b) => a - b);
    const computed = this.definition.computed;
    if (computed) for (const name in computed) record[name] = computed[name](record);
    record.ToStringText = this.definition.toStringText(record);
    record.LocalizationDetails = null;
    record.CustomFields = null;
    return record;
  }

  /** The read plan, built once from the entity's metadata and the definition. */
  protected get plan(): ReadPlan {
    return (this.cachedPlan ??= this.buildPlan());
  }

  private buildPlan(): ReadPlan {
    const { definition, db } = this;
    const metadata = db.dataSource.getMetadata(definition.entity);
    const q: SqlContext = db.sqlContext('r');
    const hidden = new Set(definition.hidden ?? []);
    const outputs: Array<readonly [string, WireKind]> = [];
    const expressions = new Map<string, string>();
    const writable = new Map<string, WireKind>();
    const columnsByName = new Map<string, { databaseName: string; kind: WireKind; nullable: boolean; default: unknown }>();
    const navigations: Record<string, string> = {};
    const dtoFields = new Set([definition.dto, definition.updateDto].flatMap((dto) => (dto ? dtoPropertyNames(dto) : [])));
    const columns = [...metadata.columns].sort((a, b) => (a.propertyName === 'Id' ? -1 : b.propertyName === 'Id' ? 1 : 0));
    for (const column of columns) {
      const name = column.propertyName;
      const kind = wireKindOf(definition.entity, name) ?? (name === 'Id' ? 'int' : 'text');
      expressions.set(name, `r.${db.id(column.databaseName)}`);
      if (!hidden.has(name) && name !== 'Version') outputs.push([name, kind]);
      if (!COMMON_COLUMNS.has(name) && dtoFields.has(name)) writable.set(name, kind);
      columnsByName.set(name, { databaseName: column.databaseName, kind, nullable: column.isNullable, default: column.default });
      if (name.endsWith('Id') && name.length > 2 && kind === 'int') navigations[name.slice(0, -2)] = name;
    }
    const joins: string[] = [];
    const joinAliases = new Map<string, string>();
    const joinedFields = new Set<string>();
    for (const [name, read] of Object.entries(definition.reads ?? {})) {
      if ('sql' in read) {
        expressions.set(name, read.sql(q));
        outputs.push([name, read.kind]);
        // An id computed in SQL filters by its navigation name too (Coworker_Tariff=3).
        if (name.endsWith('Id') && name.length > 2 && read.kind === 'int') navigations[name.slice(0, -2)] = name;
        continue;
      }
      const joined: JoinedField = read;
      const target = joined.from();
      const key = `${target.name}:${joined.on}`;
      let alias = joinAliases.get(key);
      if (!alias) {
        alias = `j${joinAliases.size}`;
        joinAliases.set(key, alias);
        joins.push(` LEFT JOIN ${db.tableOf(target)} ${alias} ON ${alias}.${db.id('Id')} = r.${db.id(joined.on)}`);
      }
      expressions.set(name, `${alias}.${db.id(joined.column)}`);
      joinedFields.add(name);
      outputs.push([name, wireKindOf(target, joined.column) ?? 'text']);
    }
    // Join-table id lists are read in the same query, as a JSON array (sorted on the way out).
    for (const [name, list] of Object.entries(definition.lists ?? {})) {
      const aggregate = db.isMySql ? 'JSON_ARRAYAGG' : 'json_group_array';
      expressions.set(name, `(SELECT ${aggregate}(l.${db.id(list.column)}) FROM ${db.id(list.table)} l WHERE l.${db.id(list.on)} = r.${db.id('Id')})`);
      outputs.push([name, 'idList']);
    }
    const fields: ListField[] = outputs.map(([name, kind]) => ({ name, kind }));
    const enforcedReferences = new Map<string, AnyClass>();
    for (const foreignKey of metadata.foreignKeys) {
      if (foreignKey.columns.length !== 1) continue;
      enforcedReferences.set(foreignKey.columns[0].propertyName, foreignKey.referencedEntityMetadata.target as AnyClass);
    }
    // Every read ends with the record's version (for its ETag), after the wire fields.
    const selectList = `${outputs.map(([name]) => `${expressions.get(name)} AS ${db.id(name)}`).join(', ')}, r.${db.id('Version')} AS ${db.id('Version')}`;
    return {
      enforcedReferences,
      selectList,
      selectById: `SELECT ${selectList} FROM ${db.tableOf(definition.entity)} r${joins.join('')} WHERE r.${db.id('Id')} = ?`,
      table: `${db.tableOf(definition.entity)} r`,
      tableName: db.tableOf(definition.entity),
      columns: columnsByName,
      from: `${db.tableOf(definition.entity)} r${joins.join('')}`,
      joinedFields,
      outputs,
      expressions,
      listSchema: { entityName: definition.name, fields, navigations },
      scopeTemplate: this.scopeTemplate(q),
      writable,
    };
  }

  private scopeTemplate(q: SqlContext): string | null {
    const scope = this.definition.business;
    if (!scope) return null;
    if ('links' in scope) {
      return `EXISTS (SELECT 1 FROM ${q.id(scope.links)} s WHERE s.${q.id(scope.on)} = r.${q.id('Id')} AND s.${q.id(scope.column)} IN ({ids}))`;
    }
    if ('via' in scope) {
      return `(SELECT s.${q.id(scope.column ?? 'BusinessId')} FROM ${q.table(scope.via())} s WHERE s.${q.id('Id')} = r.${q.id(scope.on)}) IN ({ids})`;
    }
    return `r.${q.id(scope.column)} IN ({ids})`;
  }
}

/** Rows a write statement changed, as either driver reports it. */
const affectedRows = (result: unknown): number => Number((result as { affectedRows?: number; changes?: number }).affectedRows ?? (result as { changes?: number }).changes ?? 0);

/** The fields a DTO class declares through class-validator (the ones whitelisting keeps). */
function dtoPropertyNames(dto: AnyClass): string[] {
  return [...new Set(getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false).map((m) => m.propertyName))];
}

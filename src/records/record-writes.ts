import type { AnyClass } from './columns.js';
import type { ChangeAction } from './field-changes.js';
import type { Database } from '../persistence/database.js';
import { isForeignKeyViolation } from '../persistence/database-errors.js';
import { successConfirmation, type ActionConfirmation, type FieldError } from './envelopes.js';
import { RecordValidationException, refusal } from './errors.js';
import { replaceIdList } from './id-lists.js';
import { lockedAndNamedBy, namingTypes } from './listed-references.js';
import type { Principal } from '../platform/principal.js';
import { ownBusinessColumn, type RecordDefinition, type WireRecord } from './record-definition.js';
import type { RecordPlan } from './record-plan.js';
import type { RecordRepository } from './record.repository.js';
import { crossBusinessReferences, ReferencedBusinesses } from './same-business.js';
import { referencesOf } from './validation/fields.js';
import type { RecordDto } from './validation/record.dto.js';
import { etagOf, expectedVersion, preconditionFailed } from './versions.js';
import type { WriteScope } from '../persistence/write-scope.js';
import { createStamp, updateStamp, type CreateStamp } from './audit-stamp.js';
import type { Tx } from '../persistence/tx.js';
import type { RecordDoor } from './record-door.js';

/**
 * What a save hook is given (docs/architecture.md §2.5): the validated body, the stored record (null on
 * create) and the column values the body sets. A hook does not change them: it returns its decision.
 */
export interface SaveContext<D = RecordDto> {
  tx: Tx;
  actor: Principal | undefined;
  dto: D;
  /** The column values the body sets (absent keeps, null clears); after the save, the values written. */
  values: Readonly<Record<string, unknown>>;
  /** The stored record on update, null on create. */
  existing: WireRecord | null;
}

/** What `beforeSave` decides. */
export interface SaveDecision<P = unknown> {
  /** The column values to write instead of the body's (defaults, snapshots, fields left out). */
  values?: Record<string, unknown>;
  /** What `afterSave` needs that `beforeSave` found in the same transaction. */
  pending?: P;
}

/**
 * A new object with the column values and then `extra`'s. Deliberately not `{ ...values, ...extra }`: on
 * Node 20 an object made by that spread kept the objects of every create alive through two young-generation
 * collections (about 1 MB promoted to the old generation per scavenge under load, none with this loop), and
 * the Mark-Compacts that followed set the p99 of creates (docs/performance.md, "What the create's p99 is
 * made of").
 */
export function withFields(values: Readonly<Record<string, unknown>>, extra: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const merged: Record<string, unknown> = {};
  for (const key of Object.keys(values)) merged[key] = values[key];
  for (const key of Object.keys(extra)) merged[key] = extra[key];
  return merged;
}

/** The save's context with the values as written, for `afterSave` (a new object, made without spread: withFields). */
function savedAs(context: SaveContext, written: Record<string, unknown>): SaveContext {
  return Object.assign({}, context, { values: written });
}

/** What the write flow asks of the record type's service: its domain rules and its business scope. */
export interface WriteRules {
  /** Whether the type has save hooks (then every create runs them in a transaction). */
  readonly hasSaveHooks: boolean;
  /** Slow work that needs no database (a password hash), done before the transaction begins. */
  prepare(dto: RecordDto): Promise<void>;
  beforeSave(context: SaveContext): Promise<SaveDecision | void>;
  /** May return fields the create's answer `Value` carries besides `Id` (the ids of further records it made). */
  afterSave(id: number, saved: SaveContext, pending: unknown): Promise<Record<string, unknown> | void>;
  afterUpdate(id: number, saved: SaveContext): Promise<void>;
  /** After a write through the API committed, before its answer (absent when the type has no such rule). */
  afterCommit?: (action: ChangeAction) => Promise<void>;
  beforeDelete(record: WireRecord, tx: Tx, actor: Principal | undefined): Promise<void>;
  afterDelete(record: WireRecord, tx: Tx, actor: Principal | undefined): Promise<void>;
  authorizeBusiness(values: Record<string, unknown>, actor: Principal | undefined, tx: Tx, dto: RecordDto): Promise<void>;
  businessOf(values: Record<string, unknown>, tx: Tx): Promise<number | null>;
  /** The stored record (404, or 401 outside the actor's businesses). */
  get(id: number, actor: Principal | undefined, tx: Tx): Promise<WireRecord>;
  /** The change-log entry of a write. */
  recordChange: RecordDoor['recordChange'];
  /** Every record type of the application (the RecordTypes registry): who may name a record. */
  types(): readonly RecordDefinition<any>[];
}

/**
 * Create, update and delete of one record type (docs/architecture.md, "The write flow"): the
 * transaction, the reference and business checks, the hooks, the row, the id lists and the change log.
 */
export class RecordWriter {
  constructor(
    private readonly definition: RecordDefinition<any>,
    private readonly db: Database,
    private readonly plan: RecordPlan,
    private readonly repository: RecordRepository,
    private readonly rules: WriteRules,
  ) {}

  /** A create through the API; `write`: the request's scope (deadline, Idempotency-Key, the ETag to answer). */
  async create(dto: RecordDto, actor?: Principal, write?: WriteScope): Promise<ActionConfirmation> {
    await this.rules.prepare(dto);
    const now = new Date();
    // A lone INSERT checks only the references its foreign keys do not enforce, before it (one statement
    // instead of one per reference). With save hooks, which may read the referenced records, all are
    // checked inside the transaction, so the hooks find what the check found even when a delete races
    // the create. Should a foreign key refuse the write, the check, run in full, names the field.
    // A create that names records no foreign key guards checks them in its transaction, holding them
    // until it commits, so a delete of one cannot slip in between (listed-references.ts).
    const alone = this.isSingleInsert(dto) && !write?.needsTransaction && !this.namesUnguarded(dto);
    const stamp = createStamp(actor, now);
    // The answer is made inside the transaction: an Idempotency-Key stores it with the write.
    const confirm = (id: number, answer?: Record<string, unknown> | void) =>
      successConfirmation(
        `${this.definition.name} was successfully created.`,
        answer ? withFields({ Id: id }, answer) : { Id: id },
        actor?.email ?? null,
        now,
      );
    if (write) write.etag = etagOf(stamp.UniqueId, 1);
    const created = alone
      ? this.insertAlone(dto, actor, stamp, write).then((id) => confirm(id))
      : this.db.transaction(async (tx) => {
          const made = await this.createMade(tx, dto, actor, stamp);
          return confirm(made.id, made.answer);
        }, write);
    return this.answered(
      created.catch(async (error: unknown) => {
        if (isForeignKeyViolation(error)) await this.checkReferences(dto);
        throw error;
      }),
      'Create',
    );
  }

  /** A committed write's answer, once the type's `afterCommit` rule (if any) is done. */
  private answered(committed: Promise<ActionConfirmation>, action: ChangeAction): Promise<ActionConfirmation> {
    const { afterCommit } = this.rules;
    if (!afterCommit) return committed;
    return committed.then(async (answer) => {
      await afterCommit(action);
      return answer;
    });
  }

  /**
   * A create inside a transaction already open (`tx`): every check and hook of a create through
   * the API, for a record a domain rule makes besides its own (a booking's product sale). Returns its Id.
   */
  async createWithin(tx: Tx, dto: RecordDto, actor: Principal | undefined, stamp?: CreateStamp): Promise<number> {
    return (await this.createMade(tx, dto, actor, stamp)).id;
  }

  /** A create in `tx`'s transaction: the new Id, and what `afterSave` adds to the answer's Value. */
  private async createMade(
    tx: Tx,
    dto: RecordDto,
    actor: Principal | undefined,
    stamp?: CreateStamp,
  ): Promise<{ id: number; answer: Record<string, unknown> | void }> {
    const now = new Date();
    stamp ??= createStamp(actor, now);
    const context: SaveContext = { tx, actor, dto, values: this.columnValues(dto), existing: null };
    const referenced = this.referencedBusinesses(tx);
    await this.checkReferences(dto, tx, 'all', null, referenced);
    await this.rules.authorizeBusiness(context.values, actor, tx, dto);
    await this.checkSameBusiness(context, referenced);
    const decision = await this.rules.beforeSave(context);
    const written = withFields(decision?.values ?? context.values, stamp);
    const newId = await this.repository.insert(written, tx);
    await this.writeLists(newId, dto, tx, true);
    const answer = await this.rules.afterSave(newId, savedAs(context, written), decision?.pending);
    await this.rules.recordChange(tx, actor, 'Create', newId, null, dto, written);
    return { id: newId, answer };
  }

  async update(id: number, dto: RecordDto, actor?: Principal, write?: WriteScope): Promise<ActionConfirmation> {
    await this.rules.prepare(dto);
    const now = new Date();
    const updated = this.db.transaction(async (tx) => {
      const existing = await this.rules.get(id, actor, tx);
      const expected = expectedVersion(write, existing);
      const values = this.columnValues(dto);
      const context: SaveContext = { tx, actor, dto, values, existing };
      const referenced = this.referencedBusinesses(tx);
      await this.checkReferences(dto, tx, 'all', existing, referenced);
      await this.rules.authorizeBusiness(withFields(existing, values), actor, tx, dto);
      await this.checkSameBusiness(context, referenced);
      await this.refuseMoveWhileNamed(id, existing, values, tx);
      const decision = await this.rules.beforeSave(context);
      const written = withFields(decision?.values ?? values, updateStamp(actor, now));
      await this.updateRow(id, written, tx, expected);
      await this.writeLists(id, dto, tx, false);
      const saved = savedAs(context, written);
      await this.rules.afterSave(id, saved, decision?.pending);
      await this.rules.afterUpdate(id, saved);
      await this.rules.recordChange(tx, actor, 'Update', id, existing, dto);
      if (write) write.etag = await this.repository.currentEtag(id, tx);
      return successConfirmation(`${this.definition.name} was successfully updated.`, { Id: id }, actor?.email ?? null, now);
    }, write);
    return this.answered(updated, 'Update');
  }

  async delete(id: number, actor?: Principal, write?: WriteScope): Promise<ActionConfirmation> {
    const deleted = this.db.transaction(async (tx) => {
      await this.deleteWithin(tx, id, actor, write);
      return successConfirmation(`${this.definition.name} was successfully deleted.`, { Id: id }, actor?.email ?? null);
    }, write);
    return this.answered(deleted, 'Delete');
  }

  /**
   * A delete inside a transaction already open (`tx`), with every check and hook of a delete
   * through the API (`If-Match` only of the request's own delete, which hands its `write` scope). A domain rule's own deletes
   * (a cancelled booking's product sales) go through it.
   */
  async deleteWithin(tx: Tx, id: number, actor: Principal | undefined, write?: WriteScope): Promise<void> {
    const name = this.definition.name;
    const existing = await this.rules.get(id, actor, tx);
    const naming = await lockedAndNamedBy(this.db, this.rules.types(), this.definition.entity, id, tx, 'unguarded');
    if (naming.length) {
      throw refusal(`${name} ${id} cannot be deleted because ${namingTypes(naming).join(' and ')} records list it (${naming.join(', ')}).`);
    }
    const expected = expectedVersion(write, existing);
    await this.rules.beforeDelete(existing, tx, actor);
    try {
      const deleted = await this.repository.delete(id, expected, tx);
      if (expected !== null && deleted === 0) throw preconditionFailed(await this.repository.currentEtag(id, tx));
    } catch (error) {
      if (!isForeignKeyViolation(error)) throw error;
      const referrers = await this.repository.referringTypes(id, tx);
      const which = referrers.length ? `${referrers.join(' and ')} records refer` : 'other records refer';
      throw refusal(`${name} ${id} cannot be deleted because ${which} to it.`);
    }
    await this.rules.afterDelete(existing, tx, actor);
    await this.rules.recordChange(tx, actor, 'Delete', id, existing);
  }

  /**
   * A record that same-business references name (a TimePass its passes name, a tariff its contracts)
   * stays in its business: moving it would leave them naming another business's record. 400 naming the
   * business column, nothing written. Its row is locked first, as a delete's is (lockedAndNamedBy).
   */
  private async refuseMoveWhileNamed(id: number, existing: WireRecord, values: Record<string, unknown>, tx: Tx): Promise<void> {
    const column = ownBusinessColumn(this.definition.business);
    if (column === null) return;
    const moved = values[column];
    if (moved === undefined || moved === null || Number(moved) === Number(existing[column])) return;
    const naming = await lockedAndNamedBy(this.db, this.rules.types(), this.definition.entity, id, tx, 'sameBusiness');
    if (!naming.length) return;
    throw RecordValidationException.field(
      column,
      `${this.definition.name} ${id} cannot move to another business while ${namingTypes(naming).join(' and ')} records of Business ${existing[column]} name it (${naming.join(', ')}).`,
      moved,
    );
  }

  /** Updates a row's columns and raises its version; with an `expected` version (If-Match) only that one, else 412. */
  async updateRow(id: number, values: Record<string, unknown>, tx: Tx, expected: number | null = null): Promise<void> {
    const updated = await this.repository.update(id, values, tx, expected);
    if (expected !== null && updated === 0) throw preconditionFailed(await this.repository.currentEtag(id, tx));
  }

  /** The writable column values a validated body sets: absent keeps, null clears (docs/api.md §1.2). */
  columnValues(dto: RecordDto): Record<string, unknown> {
    const values: Record<string, unknown> = {};
    for (const [name, kind] of this.plan.writable) {
      const value = (dto as unknown as Record<string, unknown>)[name];
      if (value === undefined) continue;
      // Clearing a column that cannot be null gives its default (false for a flag).
      const column = this.plan.columns.get(name);
      values[name] = value === null && column && !column.nullable ? ((kind === 'bool' ? false : column.default) ?? null) : value;
    }
    return values;
  }

  /**
   * Ids that must point at existing records: 400 naming each field that points at nothing. With
   * `unenforced`, only the ids no foreign key of the record's table guards (id lists, unconstrained
   * ids) are looked up first; should one be missing, all are, so the answer names every field.
   */
  async checkReferences(
    dto: RecordDto,
    tx?: Tx,
    which: 'all' | 'unenforced' = 'all',
    existing: WireRecord | null = null,
    referenced?: ReferencedBusinesses,
  ): Promise<void> {
    const errors = await this.missingReferences(dto, tx, which, existing, referenced);
    if (errors.length)
      throw new RecordValidationException(which === 'all' ? errors : await this.missingReferences(dto, tx, 'all', existing, referenced));
  }

  private async missingReferences(
    dto: RecordDto,
    tx: Tx | undefined,
    which: 'all' | 'unenforced',
    stored: WireRecord | null,
    referenced: ReferencedBusinesses | undefined,
  ): Promise<FieldError[]> {
    const enforced = this.plan.enforcedReferences;
    const checks = referencesOf(dto.constructor as AnyClass).map(async (reference): Promise<FieldError | null> => {
      const value = (dto as unknown as Record<string, unknown>)[reference.property];
      if (value === undefined || value === null || reference.mayNameNothing) return null;
      if (reference.keepsStored && stored && value === stored[reference.property]) return null;
      if (which === 'unenforced' && !reference.list && enforced.get(reference.property) === reference.target()) return null;
      const ids = [...new Set(reference.list ? (value as number[]) : [value as number])];
      if (!ids.length) return null;
      const target = reference.target();
      // Ids no foreign key guards are held until the write commits, so a delete of one waits (listed-references.ts).
      const guarded = !reference.list && enforced.get(reference.property) === target;
      // A same-business reference's ids are read with their business, which the same-business check then needs.
      const withBusiness = guarded && reference.sameBusiness && referenced?.answersExistence(target);
      const existing = withBusiness
        ? new Set((await referenced!.of(target, ids))!.keys())
        : await this.repository.existingIds(target, ids, tx, !guarded);
      const missing = ids.filter((id) => !existing.has(id));
      return missing.length
        ? { PropertyName: reference.property, AttemptedValue: value, Message: `${target.name} ${missing.join(', ')} does not exist` }
        : null;
    });
    return (await Promise.all(checks)).filter((error): error is FieldError => error !== null);
  }

  /** The businesses of referenced records, looked up once in this write (`tx`, or outside any transaction). */
  private referencedBusinesses(tx: Tx | undefined): ReferencedBusinesses {
    return new ReferencedBusinesses(this.db, this.rules.types(), tx);
  }

  /** Whether the body gives an id that no foreign key of the record's table guards (an id list, an unconstrained id). */
  private namesUnguarded(dto: RecordDto): boolean {
    const enforced = this.plan.enforcedReferences;
    return referencesOf(dto.constructor as AnyClass).some((reference) => {
      const value = (dto as unknown as Record<string, unknown>)[reference.property];
      if (value === undefined || value === null || reference.mayNameNothing) return false;
      return reference.list ? (value as unknown[]).length > 0 : enforced.get(reference.property) !== reference.target();
    });
  }

  /** A create that writes nothing but its row (and its change-log entry). */
  private async insertAlone(
    dto: RecordDto,
    actor: Principal | undefined,
    stamp: Record<string, unknown>,
    write: WriteScope | undefined,
  ): Promise<number> {
    const values = this.columnValues(dto);
    await this.rules.authorizeBusiness(values, actor, this.db.outsideTransaction, dto);
    await this.checkSameBusiness({ dto, values, existing: null }, this.referencedBusinesses(undefined));
    return this.db.transaction(async (tx) => {
      const written = withFields(values, stamp);
      const id = await this.repository.insert(written, tx);
      await this.rules.recordChange(tx, actor, 'Create', id, null, dto, written);
      return id;
    }, write);
  }

  /** Whether a create writes nothing but its own row: the type has no save hooks and the body gives no id lists. */
  private isSingleInsert(dto: RecordDto): boolean {
    if (this.rules.hasSaveHooks) return false;
    const lists = this.definition.lists;
    if (!lists) return true;
    for (const name in lists) if ((dto as unknown as Record<string, unknown>)[name] !== undefined) return false;
    return true;
  }

  /** References declared `sameBusiness` name records of this record's business (400 naming each field). */
  private async checkSameBusiness(
    record: Pick<SaveContext, 'dto' | 'values' | 'existing'>,
    referenced: ReferencedBusinesses,
  ): Promise<void> {
    const errors = await crossBusinessReferences(referenced, this.definition, record.dto, record, (values) =>
      this.rules.businessOf(values, referenced.tx ?? this.db.outsideTransaction),
    );
    if (errors.length) throw new RecordValidationException(errors);
  }

  /** Replaces the join-table id lists a request gives (absent: kept; null or []: emptied). */
  private async writeLists(id: number, dto: RecordDto, tx: Tx, created: boolean): Promise<void> {
    for (const [name, list] of Object.entries(this.definition.lists ?? {})) {
      const value = (dto as unknown as Record<string, unknown>)[name];
      if (value === undefined) continue;
      await replaceIdList(this.db, tx, list, id, (value as number[] | null) ?? [], created);
    }
  }
}

import type { ChangeAction } from './field-changes.js';
import type { Principal } from '../platform/principal.js';
import type { WireRecord } from './record-definition.js';
import type { SaveContext, SaveDecision } from './record-writes.js';
import type { RecordDto } from './validation/record.dto.js';
import type { Tx } from '../persistence/tx.js';

export type { SaveContext, SaveDecision } from './record-writes.js';

/** What a delete hook is given: the transaction and who deletes. */
export interface DeleteContext {
  tx: Tx;
  actor: Principal | undefined;
}

/**
 * The domain rules of one record type (docs/architecture.md §2.5): an injectable of the type's folder
 * (`<type>.rules.ts`) given to `RecordModule.forType`. Every hook is optional; the save and delete hooks
 * run inside the write transaction, take what they need as arguments and return what they decide.
 * `D` is the type's DTO, so hooks read its fields without casts; `P` what `beforeSave` hands `afterSave`.
 */
export interface RecordRules<D extends object = RecordDto, P = unknown> {
  /**
   * Before the transaction of a create or update begins: slow work that needs no database (a password
   * hash), so that no transaction waits on it. What it finds is kept for the hooks (passwords.ts, `prehash`).
   */
  prepareSave?(dto: D): Promise<void>;
  /**
   * Before a create or update is written: domain checks (throw to refuse), and the values to write when
   * they differ from the body's (defaults, snapshots), returned with what `afterSave` will need.
   */
  beforeSave?(context: SaveContext<D>): Promise<SaveDecision<P> | void>;
  /**
   * After a create or update is written, with the record's id and the values written: join tables, releases.
   * On a create it may return fields the answer's `Value` carries besides `Id` (the ids of further records it made).
   */
  afterSave?(id: number, saved: SaveContext<D>, pending: P | undefined): Promise<Record<string, unknown> | void>;
  /**
   * After an update is written (after `afterSave`): what only an update does. A type with no other save
   * hook keeps its creates on the single-insert path (record-writes.ts, `isSingleInsert`).
   */
  afterUpdate?(id: number, saved: SaveContext<D>): Promise<void>;
  /**
   * After a create, update or delete through the API committed, before it is answered: what must hold
   * before the client learns of the write (a hook write waits until every instance can know of it).
   */
  afterCommit?(action: ChangeAction): Promise<void>;
  /** Before a delete: refuse it (throw) when it would orphan records the database cannot see. */
  beforeDelete?(record: WireRecord, context: DeleteContext): Promise<void>;
  /** After the row is deleted, in the same transaction: what goes with it (a booking product's sale). */
  afterDelete?(record: WireRecord, context: DeleteContext): Promise<void>;
  /**
   * The business a record with these values belongs to, when the definition's scope cannot say
   * (`byScope` is the answer by the definition's scope).
   */
  businessOf?(values: Readonly<Record<string, unknown>>, tx: Tx, byScope: () => Promise<number | null>): Promise<number | null>;
  /**
   * Whether the actor may write a record with these values (throw 401 to refuse). Without it, a
   * restricted administrator may only write into its own businesses.
   */
  authorize?(values: Readonly<Record<string, unknown>>, context: { tx: Tx; actor: Principal | undefined; dto: D }): Promise<void>;
  /**
   * Turns an error of a create, update or delete into the one to answer (a unique key's conflict into a
   * 400 naming the field); returns the error unchanged when it is not the type's to map. It may return a
   * promise of the error, for work that must follow the rollback (an event of a refused check-in).
   */
  mapError?(error: unknown, operation: ChangeAction, dto?: D): unknown;
}

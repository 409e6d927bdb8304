import type { SqlContext } from '../persistence/database.js';
import type { AnyClass, WireKind } from './columns.js';
import type { RecordEntity } from './record.entity.js';
import type { RecordDto } from './validation/record.dto.js';

export type RecordOperation = 'list' | 'get' | 'create' | 'update' | 'delete';
export const ALL_OPERATIONS: readonly RecordOperation[] = ['list', 'get', 'create', 'update', 'delete'];

/** A record as it goes on the wire: PascalCase fields with wire values. */
export type WireRecord = Record<string, unknown>;

// The SQL context is the database façade's (src/persistence/database.ts), which makes it.
export type { SqlContext };

/** A read-only field taken from another record (`CurrencyCode` from the currency of `CurrencyId`). */
export interface JoinedField {
  from: () => AnyClass;
  /** The foreign-key column of this record that points at `from`. */
  on: string;
  column: string;
}

/** A read-only field computed by the database (counts, lookups through two tables). */
export interface SqlField {
  kind: WireKind;
  /** Whether the SQL can give null (the OpenAPI document says so; default true). */
  nullable?: boolean;
  sql: (q: SqlContext) => string;
}

/**
 * An id list kept in a join table, one row per (record, listed id): `Tariffs` of a product in
 * product_tariff. Read as an ascending list of ids; a request's list replaces the stored one (absent
 * keeps it, null or [] empties it). Its ids are checked through the DTO's `@IdList({ references })`.
 */
export interface JoinTableList {
  table: string;
  /** The join table's column holding this record's id. */
  on: string;
  /** The join table's column holding the listed ids. */
  column: string;
}

/**
 * How a record finds the business that decides which restricted administrators see it: its own
 * column, or the business of the record one of its columns points at (docs/api.md §3, "business").
 */
export type BusinessScope =
  | { column: string }
  | { via: () => AnyClass; on: string; column?: string }
  /** Several businesses, listed in a link table (`user_business.UserId` → `BusinessId`). */
  | { links: string; on: string; column: string };

/** The column of the record's own that holds its one business (a `{ column }` scope); null for the others. */
export function ownBusinessColumn(scope: BusinessScope | undefined): string | null {
  return scope && !('via' in scope) && !('links' in scope) ? scope.column : null;
}

/** What a record module declares; everything else is the shared machinery's. */
export interface RecordDefinition<E extends RecordEntity = RecordEntity> {
  /** Entity name: messages, role prefix and filter prefix (`Product`). */
  name: string;
  /** Route below /api (`billing/products`). */
  path: string;
  entity: new () => E;
  /** The create and update body; update adds `Id`. Absent for read-only types. */
  dto?: new () => RecordDto;
  /** The update body, when it differs from the create body (fewer fields may be changed). */
  updateDto?: new () => RecordDto;
  operations?: readonly RecordOperation[];
  /**
   * Required fields stay required on update (the source document's types, docs/api.md §1.2). Without
   * it an update is partial: an absent required field keeps its stored value; present, it is checked.
   */
  requiredOnUpdate?: boolean;
  business?: BusinessScope;
  /** Read-only fields, looked up in SQL. */
  reads?: Readonly<Record<string, JoinedField | SqlField>>;
  /** Id lists kept in join tables (written from the request, read back sorted). */
  lists?: Readonly<Record<string, JoinTableList>>;
  /** Read-only fields derived from the rest of the record. */
  computed?: Readonly<Record<string, (record: WireRecord) => unknown>>;
  /** The wire type of computed fields, for the OpenAPI document (one not given is described as any value). */
  computedTypes?: Readonly<
    Record<string, { kind: WireKind; nullable?: boolean; description?: string } | { schema: Record<string, unknown> }>
  >;
  /** Columns that are never returned (secrets). */
  hidden?: readonly string[];
  /**
   * The type offers the commands protocol (docs/billing.md): `GET commands` and `POST runcommand`.
   * Its commands are registered through DI (src/records/commands/record-commands.ts).
   */
  commands?: boolean;
  /** The permission its reads (list, get, history) need instead of `<Entity>-List` / `<Entity>-Read`. */
  readPermission?: { entity: string; action: 'List' | 'Read' };
  /** The operations it does not offer answer 405 rather than 404 (a read-only type of its own). */
  methodNotAllowed?: boolean;
  /** Other names of fields in list filters, as clients send them: `{ IsUsed: 'Used' }` (`CoworkerTimePass_IsUsed`). */
  filterAliases?: Readonly<Record<string, string>>;
  /** A list filter's value `null` matches a null field (`Checkin_ToTime=null`) instead of being refused or compared. */
  nullFilters?: boolean;
  /** Fields a create's answer `Value` carries besides `Id` (its rules' afterSave adds them), as OpenAPI schemas. */
  createdValue?: Readonly<Record<string, Record<string, unknown>>>;
  /** Display text (`ToStringText`). */
  toStringText: (record: WireRecord) => string;
}

/**
 * A record type's definition, typed by its entity (`<type>.definition.ts`). It registers nothing: the
 * type's module does (`RecordModule.forType`, the `RecordTypes` registry).
 */
export function defineRecord<E extends RecordEntity>(definition: RecordDefinition<E>): RecordDefinition<E> {
  return definition;
}

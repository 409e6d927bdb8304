import type { DataSource } from 'typeorm';
import { getMetadataStorage } from 'class-validator';
import { wireKindOf, type AnyClass, type WireKind } from './columns.js';
import type { ListField, ListSchema } from './list-query.js';
import type { JoinedField, RecordDefinition, SqlContext } from './record-definition.js';

/** Columns every record has, filled by the machinery rather than by a request. */
export const COMMON_COLUMNS: ReadonlySet<string> = new Set(['Id', 'UniqueId', 'CreatedOn', 'UpdatedOn', 'UpdatedBy', 'IsNew', 'Version']);

/** What the plan compiler needs of a database: its quoting and dialect, and the entities' metadata. */
export interface SqlDialect {
  readonly isMySql: boolean;
  readonly dataSource: DataSource;
  id(name: string): string;
  tableOf(entity: AnyClass): string;
  sqlContext(alias: string): SqlContext;
}

/** A column of the record's own table, by property name. */
export interface PlannedColumn {
  databaseName: string;
  kind: WireKind;
  nullable: boolean;
  default: unknown;
}

/**
 * How a record type is read and written, compiled once from its entity's TypeORM metadata and its
 * definition (docs/architecture.md, "The record machinery"). Pure data: SQL fragments and maps.
 */
export interface RecordPlan {
  /** The record's table with its alias `r`, and the same with the joins of read-only fields. */
  table: string;
  from: string;
  /** The record's table, quoted. */
  tableName: string;
  /** Fields that come from a joined table. */
  joinedFields: ReadonlySet<string>;
  /** The output columns of a read (the record's version follows them), and the whole read of one record by Id. */
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
  columns: ReadonlyMap<string, PlannedColumn>;
  /** Properties whose column has a foreign key, with the entity it refers to. */
  enforcedReferences: ReadonlyMap<string, AnyClass>;
}

/** A foreign-key column's navigation name (`TariffId` filters as `Coworker_Tariff` too). */
function navigationOf(name: string, kind: WireKind): string | null {
  return name.endsWith('Id') && name.length > 2 && kind === 'int' ? name.slice(0, -2) : null;
}

/** Compiles the plan of a record type; `dialect.dataSource` needs its metadata built, not a connection. */
export function compileRecordPlan(definition: RecordDefinition<any>, dialect: SqlDialect): RecordPlan {
  const db = dialect;
  const metadata = db.dataSource.getMetadata(definition.entity);
  const q = db.sqlContext('r');
  const hidden = new Set(definition.hidden ?? []);
  const outputs: Array<readonly [string, WireKind]> = [];
  const expressions = new Map<string, string>();
  const writable = new Map<string, WireKind>();
  const columns = new Map<string, PlannedColumn>();
  const navigations: Record<string, string> = {};
  const dtoFields = new Set([definition.dto, definition.updateDto].flatMap((dto) => (dto ? dtoPropertyNames(dto) : [])));
  const ordered = [...metadata.columns].sort((a, b) => (a.propertyName === 'Id' ? -1 : b.propertyName === 'Id' ? 1 : 0));
  for (const column of ordered) {
    const name = column.propertyName;
    const kind = wireKindOf(definition.entity, name) ?? (name === 'Id' ? 'int' : 'text');
    expressions.set(name, `r.${db.id(column.databaseName)}`);
    if (!hidden.has(name) && name !== 'Version') outputs.push([name, kind]);
    if (!COMMON_COLUMNS.has(name) && dtoFields.has(name)) writable.set(name, kind);
    columns.set(name, { databaseName: column.databaseName, kind, nullable: column.isNullable, default: column.default });
    const navigation = navigationOf(name, kind);
    if (navigation) navigations[navigation] = name;
  }
  const joins: string[] = [];
  const joinAliases = new Map<string, string>();
  const joinedFields = new Set<string>();
  for (const [name, read] of Object.entries(definition.reads ?? {})) {
    if ('sql' in read) {
      expressions.set(name, read.sql(q));
      outputs.push([name, read.kind]);
      // An id computed in SQL filters by its navigation name too (Coworker_Tariff=3).
      const navigation = navigationOf(name, read.kind);
      if (navigation) navigations[navigation] = name;
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
    expressions.set(
      name,
      `(SELECT ${q.jsonArrayAgg}(l.${db.id(list.column)}) FROM ${db.id(list.table)} l WHERE l.${db.id(list.on)} = r.${db.id('Id')})`,
    );
    outputs.push([name, 'idList']);
  }
  const fields: ListField[] = outputs.map(([name, kind]) => ({ name, kind }));
  const enforcedReferences = new Map<string, AnyClass>();
  for (const foreignKey of metadata.foreignKeys) {
    if (foreignKey.columns.length !== 1) continue;
    enforcedReferences.set(foreignKey.columns[0].propertyName, foreignKey.referencedEntityMetadata.target as AnyClass);
  }
  const tableName = db.tableOf(definition.entity);
  const from = `${tableName} r${joins.join('')}`;
  // Every read ends with the record's version (for its ETag), after the wire fields.
  const selectList = `${outputs.map(([name]) => `${expressions.get(name)} AS ${db.id(name)}`).join(', ')}, r.${db.id('Version')} AS ${db.id('Version')}`;
  return {
    table: `${tableName} r`,
    from,
    tableName,
    joinedFields,
    selectList,
    selectById: `SELECT ${selectList} FROM ${from} WHERE r.${db.id('Id')} = ?`,
    outputs,
    expressions,
    listSchema: {
      entityName: definition.name,
      fields,
      navigations,
      aliases: definition.filterAliases,
      nullMatchesNull: definition.nullFilters,
    },
    scopeTemplate: scopeTemplate(definition, q),
    writable,
    columns,
    enforcedReferences,
  };
}

/** The business-scope condition on the alias `r` (docs/api.md §3, "business"), `{ids}` for the list. */
function scopeTemplate(definition: RecordDefinition<any>, q: SqlContext): string | null {
  const scope = definition.business;
  if (!scope) return null;
  if ('links' in scope) {
    return `EXISTS (SELECT 1 FROM ${q.id(scope.links)} s WHERE s.${q.id(scope.on)} = r.${q.id('Id')} AND s.${q.id(scope.column)} IN ({ids}))`;
  }
  if ('via' in scope) {
    return `(SELECT s.${q.id(scope.column ?? 'BusinessId')} FROM ${q.table(scope.via())} s WHERE s.${q.id('Id')} = r.${q.id(scope.on)}) IN ({ids})`;
  }
  return `r.${q.id(scope.column)} IN ({ids})`;
}

/** The fields a DTO class declares through class-validator (the ones whitelisting keeps). */
function dtoPropertyNames(dto: AnyClass): string[] {
  return [
    ...new Set(
      getMetadataStorage()
        .getTargetValidationMetadatas(dto, '', true, false)
        .map((m) => m.propertyName),
    ),
  ];
}

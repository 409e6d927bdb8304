import type { Database } from './database.js';
import type { Filter } from './list-query.js';
import type { AnyClass } from './columns.js';

/** What a page query is built from: the record's table and joins, its select list and the list's conditions. */
export interface PageParts {
  entity: AnyClass;
  /** `<table> r`, and the same with the joins of read-only fields. */
  table: string;
  from: string;
  selectList: string;
  /** ` WHERE …` on the alias r (and the joins' aliases when `needsJoins`), or ''. */
  where: string;
  filters: readonly Filter[];
  orderBy: string;
  /** Whether the list is in Id order (`orderBy` is then the Id and its direction). */
  orderedById: boolean;
  /** Whether the conditions or the order use a joined field. */
  needsJoins: boolean;
}

/** Properties whose column leads an index of the entity's table (so a range on it can be read from the index). */
const leadingColumns = new WeakMap<AnyClass, ReadonlySet<string>>();

function indexedProperties(db: Database, entity: AnyClass): ReadonlySet<string> {
  let found = leadingColumns.get(entity);
  if (!found) {
    const metadata = db.dataSource.getMetadata(entity);
    found = new Set(metadata.indices.map((index) => index.columns[0]?.propertyName).filter((name): name is string => !!name));
    leadingColumns.set(entity, found);
  }
  return found;
}

/**
 * The SQL of a page of records (`LIMIT ? OFFSET ?` to bind). On MySQL/MariaDB:
 * - the page's ids are found first, on their own (a "deferred join"): InnoDB reads every row it skips
 *   for OFFSET in full, so page 200 would read 5,000 rows; the ids alone come from a secondary index
 *   (which holds the primary key), and only the page's rows are read;
 * - with a range on an indexed column (`from_`/`to_`) and the list in Id order, the ids are sorted as a
 *   value (`Id + 0`), which no index can hand over in order: the optimiser would otherwise walk an index
 *   in Id order (the primary key, or a business's index) hoping to meet the range early, which for
 *   dates that grow with the ids reads up to every row. The range is read from its index and its ids
 *   sorted instead, a cost in proportion to the matching records, as the count's is.
 * SQLite reads a row's columns only when they are used, so skipping rows costs index steps only; it
 * runs the plain query.
 */
export function pageSql(db: Database, parts: PageParts): string {
  const { table, from, selectList, where, orderBy } = parts;
  if (!db.isMySql) return `SELECT ${selectList} FROM ${from}${where} ORDER BY ${orderBy} LIMIT ? OFFSET ?`;
  const indexed = indexedProperties(db, parts.entity);
  const rangeOnIndex = parts.filters.some((filter) => (filter.op === 'gte' || filter.op === 'lte') && indexed.has(filter.field));
  const innerOrder = rangeOnIndex && parts.orderedById ? orderBy.replace(/ (ASC|DESC)$/, ' + 0 $1') : orderBy;
  const inner = `SELECT r.${db.id('Id')} FROM ${parts.needsJoins ? from : table}${where} ORDER BY ${innerOrder} LIMIT ? OFFSET ?`;
  const joins = from.slice(table.length);
  return `SELECT ${selectList} FROM (${inner}) page JOIN ${table} ON r.${db.id('Id')} = page.${db.id('Id')}${joins} ORDER BY ${orderBy}`;
}

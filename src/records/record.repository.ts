import type { AnyClass } from './columns.js';
import type { Database } from '../persistence/database.js';
import type { Filter, ListQuery } from './list-query.js';
import { countSql, pageSql, type ListConditions } from './page-query.js';
import type { BusinessScope, RecordDefinition } from './record-definition.js';
import type { RecordPlan } from './record-plan.js';
import { referencesOf } from './validation/fields.js';
import { etagOf } from './versions.js';
import type { WriteScope } from '../persistence/write-scope.js';
import type { Tx } from '../persistence/tx.js';

/** SQL on the alias `r` with its bound parameters. */
export interface SqlCondition {
  sql: string;
  parameters: unknown[];
}

/** A statement with its bound parameters. */
export interface Statement {
  sql: string;
  parameters: unknown[];
}

/** The column name of the flag a scoped read by id adds: whether the record is in the actor's businesses. */
const IN_SCOPE = '__inScope';

/**
 * The SQL of one record type (docs/architecture.md, "The record machinery"): reads by id, pages,
 * batches, writes and the reference lookups of its writes, all from its compiled plan. Statements are
 * built by the `…Sql`/`…Statement` methods, which run nothing (the SQL snapshots print them), and run by
 * the others. Hand-built SQL on the driver, not TypeORM's query builder: these are the hot paths (GET,
 * list, create), and the builder's per-query work costs more than the whole raw query (`npm run bench`).
 */
export class RecordRepository {
  constructor(
    readonly db: Database,
    readonly plan: RecordPlan,
    private readonly definition: RecordDefinition<any>,
    /** Every record type of the application (RecordTypes), for the types that refer to a record. */
    private readonly types: () => readonly RecordDefinition<any>[] = () => [],
  ) {}

  // ---- statements ----

  /** The read of one record by Id, with the in-scope flag when a scope is given. */
  byIdStatement(id: number, scope: SqlCondition | null): Statement {
    if (!scope) return { sql: this.plan.selectById, parameters: [id] };
    const sql = `${this.selectSql(`, CASE WHEN ${scope.sql} THEN 1 ELSE 0 END AS ${IN_SCOPE}`)} WHERE r.${this.db.id('Id')} = ?`;
    return { sql, parameters: [...scope.parameters, id] };
  }

  /** A page of a list and the count of all it matches (the count reads the joins only when a filter needs them). */
  pageStatements(query: ListQuery, scope: SqlCondition | null): { page: Statement; count: Statement } {
    const { plan } = this;
    const { where, parameters } = this.whereClause(query.filters, scope);
    const filtersNeedJoins = query.filters.some((filter) => plan.joinedFields.has(filter.field));
    const conditions: ListConditions = {
      entity: this.definition.entity,
      table: plan.table,
      from: plan.from,
      where,
      filters: query.filters,
      needsJoins: filtersNeedJoins,
      scoped: scope !== null,
    };
    const sql = pageSql(this.db, {
      ...conditions,
      selectList: plan.selectList,
      orderBy: this.orderClause(query),
      orderedById: query.orderBy === 'Id',
      needsJoins: filtersNeedJoins || plan.joinedFields.has(query.orderBy),
    });
    return {
      page: { sql, parameters: [...parameters, query.size, (query.page - 1) * query.size] },
      count: { sql: countSql(this.db, conditions), parameters },
    };
  }

  batchStatement(ids: number[], scope: SqlCondition | null): Statement {
    const { where, parameters } = this.whereClause([], scope);
    const idIn = `r.${this.db.id('Id')} IN (${ids.map(() => '?').join(', ')})`;
    return {
      sql: `${this.selectSql()}${where ? `${where} AND ${idIn}` : ` WHERE ${idIn}`} ORDER BY r.${this.db.id('Id')}`,
      parameters: [...parameters, ...ids],
    };
  }

  /** The INSERT of a row of column values (properties that are no column of the table are left out). */
  insertStatement(values: Record<string, unknown>): Statement {
    const { names, placeholders, parameters } = this.columnsOf(values);
    return { sql: `INSERT INTO ${this.plan.tableName} (${names.join(', ')}) VALUES (${placeholders.join(', ')})`, parameters };
  }

  /** The UPDATE of a row's columns, raising its version; with `expected`, only of that version. */
  updateStatement(id: number, values: Record<string, unknown>, expected: number | null): Statement {
    const { names, placeholders, parameters } = this.columnsOf(values);
    const assignments = names.map((name, i) => `${name} = ${placeholders[i]}`);
    assignments.push(`${this.db.id('Version')} = ${this.db.id('Version')} + 1`);
    const version = expected === null ? '' : ` AND ${this.db.id('Version')} = ?`;
    const sql = `UPDATE ${this.plan.tableName} SET ${assignments.join(', ')} WHERE ${this.db.id('Id')} = ?${version}`;
    return { sql, parameters: [...parameters, id, ...(expected === null ? [] : [expected])] };
  }

  deleteStatement(id: number, expected: number | null): Statement {
    const version = expected === null ? '' : ` AND ${this.db.id('Version')} = ?`;
    return {
      sql: `DELETE FROM ${this.plan.tableName} WHERE ${this.db.id('Id')} = ?${version}`,
      parameters: expected === null ? [id] : [id, expected],
    };
  }

  // ---- reads ----

  /** The row of one record, or undefined; with a scope, the row carries the in-scope flag (`isInScope`). */
  async findById(id: number, scope: SqlCondition | null, tx?: Tx, deadline?: number): Promise<unknown[] | undefined> {
    if (!scope) return (await this.db.queryArrays(this.plan.selectById, [id], tx, deadline))[0];
    const { sql, parameters } = this.byIdStatement(id, scope);
    return (await this.db.queryArrays(sql, parameters, tx, deadline))[0];
  }

  /** Whether a row read with a scope lies inside it (the flag follows the record's columns and its version). */
  isInScope(row: readonly unknown[]): boolean {
    return Number(row[this.plan.outputs.length + 1]) === 1;
  }

  async page(query: ListQuery, scope: SqlCondition | null, deadline?: number): Promise<{ rows: unknown[][]; total: number }> {
    const { page, count } = this.pageStatements(query, scope);
    const [rows, [counted]] = await Promise.all([
      this.db.queryArrays(page.sql, page.parameters, undefined, deadline),
      this.db.query(count.sql, count.parameters, undefined, deadline),
    ]);
    return { rows, total: Number(counted.n) };
  }

  /** Every record the filters and `condition` select, in the list's order (no paging). */
  async narrowed(query: ListQuery, scope: SqlCondition | null, condition: SqlCondition): Promise<unknown[][]> {
    const { where, parameters } = this.whereClause(query.filters, scope);
    const sql = `${this.selectSql()}${where ? `${where} AND` : ' WHERE'} (${condition.sql}) ORDER BY ${this.orderClause(query)}`;
    return this.db.queryArrays(sql, [...parameters, ...condition.parameters]);
  }

  batch(ids: number[], scope: SqlCondition | null, deadline?: number, tx?: Tx): Promise<unknown[][]> {
    const { sql, parameters } = this.batchStatement(ids, scope);
    return this.db.queryArrays(sql, parameters, tx, deadline);
  }

  /** The record's ETag as stored now (inside `tx`'s transaction). */
  async currentEtag(id: number, tx: Tx): Promise<string | undefined> {
    const [row] = await this.db.query(
      `SELECT ${this.db.id('UniqueId')} AS u, ${this.db.id('Version')} AS v FROM ${this.plan.tableName} WHERE ${this.db.id('Id')} = ?`,
      [id],
      tx,
    );
    return row ? etagOf(row.u, row.v) : undefined;
  }

  // ---- writes ----

  /** Inserts a row and returns its new Id (inside `tx`'s transaction, or on its own in the write scope). */
  async insert(values: Record<string, unknown>, tx?: Tx, scope?: WriteScope): Promise<number> {
    const { sql, parameters } = this.insertStatement(values);
    return (await this.db.run(sql, parameters, tx, scope)).insertId;
  }

  /**
   * Inserts rows naming the same columns, each with its UniqueId, in ONE statement (a billing run's lines:
   * docs/billing.md "Exactly once"): their new Ids, in order. Where INSERT returns values the Ids come with it,
   * elsewhere from one look-up by UniqueId.
   */
  async insertMany(rows: readonly Record<string, unknown>[], tx: Tx): Promise<number[]> {
    const q = (name: string) => this.db.id(name);
    const columns = rows.map((row) => this.columnsOf(row));
    const names = columns[0].names.join(', ');
    if (columns.some((row) => row.names.join(', ') !== names)) throw new Error('insertMany: every row names the same columns');
    const sql = `INSERT INTO ${this.plan.tableName} (${names}) VALUES ${columns.map(({ placeholders }) => `(${placeholders.join(', ')})`).join(', ')}`;
    const parameters = columns.flatMap((row) => row.parameters);
    const uniqueIds = rows.map((row) => String(row.UniqueId));
    let made: Record<string, unknown>[];
    if (await this.db.supportsReturning(tx)) {
      made = await this.db.query(`${sql} RETURNING ${q('Id')} AS id, ${q('UniqueId')} AS u`, parameters, tx);
    } else {
      await this.db.run(sql, parameters, tx);
      made = await this.db.query(
        `SELECT ${q('Id')} AS id, ${q('UniqueId')} AS u FROM ${this.plan.tableName} WHERE ${q('UniqueId')} IN (${uniqueIds.map(() => '?').join(', ')})`,
        uniqueIds,
        tx,
      );
    }
    const idOf = new Map(made.map((row) => [String(row.u), Number(row.id)]));
    return uniqueIds.map((uniqueId) => idOf.get(uniqueId)!);
  }

  /** Updates a row; returns the number of rows changed (0 when `expected` did not match). */
  async update(id: number, values: Record<string, unknown>, tx: Tx, expected: number | null): Promise<number> {
    const { sql, parameters } = this.updateStatement(id, values, expected);
    return (await this.db.run(sql, parameters, tx)).affected;
  }

  async delete(id: number, expected: number | null, tx: Tx): Promise<number> {
    const { sql, parameters } = this.deleteStatement(id, expected);
    return (await this.db.run(sql, parameters, tx)).affected;
  }

  // ---- reference lookups ----

  /** Which of `ids` exist as records of `target`; with `hold`, inside `tx`'s transaction, the rows found stay locked in share mode. */
  async existingIds(target: AnyClass, ids: readonly number[], tx?: Tx, hold = false): Promise<Set<number>> {
    const q = (name: string) => this.db.id(name);
    // Inside a write's transaction on MySQL/MariaDB the rows found are held in share mode until it
    // commits: a delete of one (which locks it first, listed-references.ts) waits, then sees the reference.
    const lock = hold && tx && this.db.isMySql ? ' LOCK IN SHARE MODE' : '';
    const found = await this.db.query<{ Id: number }>(
      `SELECT ${q('Id')} AS ${q('Id')} FROM ${this.db.tableOf(target)} WHERE ${q('Id')} IN (${ids.map(() => '?').join(', ')})${lock}`,
      [...ids],
      tx,
    );
    return new Set(found.map((row) => Number(row.Id)));
  }

  /** The business of the parent record a `via` scope goes through. */
  async parentBusiness(scope: Extract<BusinessScope, { via: () => AnyClass }>, parentId: unknown, tx: Tx): Promise<number | null> {
    const [row] = await this.db.query(
      `SELECT ${this.db.id(scope.column ?? 'BusinessId')} AS b FROM ${this.db.tableOf(scope.via())} WHERE ${this.db.id('Id')} = ?`,
      [parentId],
      tx,
    );
    return row ? Number(row.b) : null;
  }

  /** The record types with a record whose reference field points at this record (for a refused delete). */
  async referringTypes(id: number, tx: Tx): Promise<string[]> {
    const names: string[] = [];
    for (const other of this.types()) {
      const references = [other.dto, other.updateDto].flatMap((dto) => (dto ? referencesOf(dto) : []));
      const stored = this.db.dataSource.getMetadata(other.entity);
      // A request field that is not a column of its own (Coworker.TariffId starts a contract) refers to nothing.
      const columns = [
        ...new Set(
          references
            .filter((r) => !r.list && r.target() === this.definition.entity && stored.findColumnWithPropertyName(r.property))
            .map((r) => r.property),
        ),
      ];
      if (!columns.length || names.includes(other.name)) continue;
      const condition = columns.map((c) => `${this.db.id(c)} = ?`).join(' OR ');
      const found = await this.db.query(
        `SELECT 1 AS x FROM ${this.db.tableOf(other.entity)} WHERE ${condition} LIMIT 1`,
        columns.map(() => id),
        tx,
      );
      if (found.length) names.push(other.name);
    }
    return names;
  }

  // ---- pieces ----

  /** The condition that keeps a restricted administrator to its businesses; null when unrestricted. */
  scopeCondition(businessIds: readonly number[] | null): SqlCondition | null {
    const template = this.plan.scopeTemplate;
    if (businessIds === null || !template) return null;
    if (!businessIds.length) return { sql: '1 = 0', parameters: [] };
    return { sql: template.replace('{ids}', businessIds.map(() => '?').join(', ')), parameters: [...businessIds] };
  }

  private whereClause(filters: readonly Filter[], scope: SqlCondition | null): { where: string; parameters: unknown[] } {
    const conditions: string[] = [];
    const parameters: unknown[] = [];
    for (const filter of filters) {
      const expression = this.plan.expressions.get(filter.field)!;
      const value =
        filter.value instanceof Date
          ? this.db.dateParam(filter.value)
          : typeof filter.value === 'boolean'
            ? filter.value
              ? 1
              : 0
            : filter.value;
      if (filter.op === 'isNull') {
        conditions.push(`${expression} IS NULL`);
      } else if (filter.op === 'contains') {
        conditions.push(`LOWER(${expression}) LIKE ? ESCAPE '!'`);
        parameters.push(
          `%${String(value)
            .toLowerCase()
            .replace(/[!%_]/g, (c) => `!${c}`)}%`,
        );
      } else {
        conditions.push(`${expression} ${filter.op === 'eq' ? '=' : filter.op === 'gte' ? '>=' : '<='} ?`);
        parameters.push(value);
      }
    }
    if (scope) {
      conditions.push(scope.sql);
      parameters.push(...scope.parameters);
    }
    return { where: conditions.length ? ` WHERE ${conditions.join(' AND ')}` : '', parameters };
  }

  /** A list's ORDER BY: its field, then Id, so that pages are stable. */
  private orderClause(query: ListQuery): string {
    const dir = query.direction === 1 ? 'ASC' : 'DESC';
    const id = `r.${this.db.id('Id')} ${dir}`;
    return query.orderBy === 'Id' ? id : `${this.plan.expressions.get(query.orderBy)} ${dir}, ${id}`;
  }

  private selectSql(extra = ''): string {
    return `SELECT ${this.plan.selectList}${extra} FROM ${this.plan.from}`;
  }

  /** Column values as the database takes them: dates as UTC text, booleans as 0/1, lists as JSON; a function is SQL. */
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
}

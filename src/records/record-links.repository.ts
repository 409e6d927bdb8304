import type { AnyClass } from './columns.js';
import type { Database } from '../persistence/database.js';
import type { BusinessScope, JoinTableList } from './record-definition.js';
import type { Tx } from '../persistence/tx.js';

/** Where a field that names records is stored: a column of a table, an id or a JSON id list. */
export interface NamingColumn {
  /** The table's name, unquoted. */
  table: string;
  column: string;
  /** The column holds a JSON id list (`[1,2,3]`), not one id. */
  json: boolean;
}

/**
 * The SQL of the links between records that the record machinery keeps beside their rows: join-table id
 * lists (id-lists.ts), the fields naming a record a delete looks for (listed-references.ts) and the
 * businesses of referenced records (same-business.ts).
 */
export class RecordLinksRepository {
  constructor(private readonly db: Database) {}

  /** The ids the record's join-table list holds. */
  async listedIds(list: JoinTableList, id: number, tx: Tx): Promise<number[]> {
    const { db } = this;
    const rows = await db.query<{ v: unknown }>(
      `SELECT ${db.id(list.column)} AS v FROM ${db.id(list.table)} WHERE ${db.id(list.on)} = ?`,
      [id],
      tx,
    );
    return rows.map((row) => Number(row.v));
  }

  /** Deletes the pairs of the record and `removed` (non-empty) by their primary key. */
  async unlist(list: JoinTableList, id: number, removed: readonly number[], tx: Tx): Promise<void> {
    const { db } = this;
    await db.query(
      `DELETE FROM ${db.id(list.table)} WHERE ${db.id(list.on)} = ? AND ${db.id(list.column)} IN (${removed.map(() => '?').join(', ')})`,
      [id, ...removed],
      tx,
    );
  }

  /** Inserts the pairs of the record and `added` (non-empty). */
  async list(list: JoinTableList, id: number, added: readonly number[], tx: Tx): Promise<void> {
    const { db } = this;
    await db.query(
      `INSERT INTO ${db.id(list.table)} (${db.id(list.on)}, ${db.id(list.column)}) VALUES ${added.map(() => '(?, ?)').join(', ')}`,
      added.flatMap((listed) => [id, listed]),
      tx,
    );
  }

  /** Whether some row's `column` names record `id` (in a JSON list: anywhere in it). */
  async names(where: NamingColumn, id: number, tx: Tx): Promise<boolean> {
    const { db } = this;
    const column = db.id(where.column);
    // JSON lists are written without spaces (`[1,2,3]`): four patterns find an id anywhere in one.
    const found = where.json
      ? await db.query(
          `SELECT 1 AS x FROM ${db.id(where.table)} WHERE ${[0, 1, 2, 3].map(() => `${column} LIKE ?`).join(' OR ')} LIMIT 1`,
          [`[${id}]`, `[${id},%`, `%,${id},%`, `%,${id}]`],
          tx,
        )
      : await db.query(`SELECT 1 AS x FROM ${db.id(where.table)} WHERE ${column} = ? LIMIT 1`, [id], tx);
    return found.length > 0;
  }

  /** Locks the record's row until the transaction ends (MySQL/MariaDB; SQLite has one writer at a time). */
  async lockRow(entity: AnyClass, id: number, tx: Tx): Promise<void> {
    const { db } = this;
    if (!db.isMySql) return;
    await db.query(`SELECT ${db.id('Id')} FROM ${db.tableOf(entity)} WHERE ${db.id('Id')} = ? FOR UPDATE`, [id], tx);
  }

  /** The business of each of the ids (non-empty) of `target`, scoped by a column or through a parent. */
  async businessesOf(
    target: AnyClass,
    scope: Exclude<BusinessScope, { links: string }>,
    ids: readonly number[],
    tx: Tx | undefined,
  ): Promise<Map<number, number>> {
    const { db } = this;
    const q = (name: string) => db.id(name);
    const marks = ids.map(() => '?').join(', ');
    const sql =
      'via' in scope
        ? `SELECT t.${q('Id')} AS id, p.${q(scope.column ?? 'BusinessId')} AS b FROM ${db.tableOf(target)} t JOIN ${db.tableOf(scope.via())} p ON p.${q('Id')} = t.${q(scope.on)} WHERE t.${q('Id')} IN (${marks})`
        : `SELECT ${q('Id')} AS id, ${q(scope.column)} AS b FROM ${db.tableOf(target)} WHERE ${q('Id')} IN (${marks})`;
    const rows = await db.query<{ id: unknown; b: unknown }>(sql, [...ids], tx);
    return new Map(rows.map((row) => [Number(row.id), Number(row.b)]));
  }
}

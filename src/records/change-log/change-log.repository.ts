import { Injectable } from '@nestjs/common';
import { Database } from '../../persistence/database.js';
import type { Tx } from '../../persistence/tx.js';

/** SQL giving one number, with its bound parameters: a count a change listener needs before it acts. */
export interface ChangeProbe {
  sql: string;
  parameters: unknown[];
}

/** A change-log row as written. */
export interface ChangeLogRow {
  entity: string;
  recordId: number;
  action: string;
  on: Date;
  by: string | null;
  requestId: string | null;
  businessId: number | null;
  /** On an update that moved the record to another business, the business it left (else null). */
  previousBusinessId: number | null;
  /** The field changes, as JSON text. */
  changes: string;
}

/** Which of a record's entries to read: all of them, or only those written in one of `businessIds`. */
export interface EntryFilter {
  entity: string;
  recordId: number;
  businessIds?: readonly number[];
}

const COLUMNS = ['Entity', 'RecordId', 'Action', 'On', 'By', 'RequestId', 'BusinessId', 'PreviousBusinessId', 'Changes'];
/** The placeholders of one entry's values. */
const ROW = `(${COLUMNS.map(() => '?').join(', ')})`;

/** The SQL of the change log (table change_log). */
@Injectable()
export class ChangeLogRepository {
  constructor(private readonly db: Database) {}

  private q = (name: string) => this.db.id(name);

  /**
   * Writes an entry in `tx`'s transaction and runs the probes, giving their counts in order
   * (null for a null probe). Where the database returns values from an INSERT (RETURNING), the
   * probes ride on it as subqueries, so the entry and its counts cost one statement; elsewhere each
   * probe is a SELECT of its own after the INSERT.
   */
  async insert(row: ChangeLogRow, probes: readonly (ChangeProbe | null)[], tx: Tx): Promise<(number | null)[]> {
    const q = this.q;
    let sql = `INSERT INTO ${q('change_log')} (${COLUMNS.map(q).join(', ')}) VALUES ${ROW}`;
    const parameters = this.parametersOf(row);
    const asked = probes.flatMap((probe, i) => (probe ? [{ probe, alias: `p${i}`, i }] : []));
    const counts: (number | null)[] = probes.map(() => null);
    if (asked.length && (await this.db.supportsReturning(tx))) {
      sql += ` RETURNING ${asked.map(({ probe, alias }) => `(${probe.sql}) AS ${q(alias)}`).join(', ')}`;
      const [returned] = await this.db.query(sql, [...parameters, ...asked.flatMap(({ probe }) => probe.parameters)], tx);
      for (const { alias, i } of asked) counts[i] = Number(returned[alias]);
    } else {
      await this.db.query(sql, parameters, tx);
      for (const { probe, i } of asked) {
        const [counted] = await this.db.query(`SELECT (${probe.sql}) AS n`, probe.parameters, tx);
        counts[i] = Number(counted.n);
      }
    }
    return counts;
  }

  /**
   * Writes several entries in ONE INSERT, in order, then runs each entry's probes, giving their counts
   * per entry (null for a null probe); a probe of the same SQL and parameters as an earlier one is run once.
   */
  async insertMany(
    rows: readonly ChangeLogRow[],
    probes: readonly (readonly (ChangeProbe | null)[])[],
    tx: Tx,
  ): Promise<(number | null)[][]> {
    const q = this.q;
    await this.db.query(
      `INSERT INTO ${q('change_log')} (${COLUMNS.map(q).join(', ')}) VALUES ${rows.map(() => ROW).join(', ')}`,
      rows.flatMap((row) => this.parametersOf(row)),
      tx,
    );
    const counted = new Map<string, number>();
    const counts: (number | null)[][] = [];
    for (const asked of probes) {
      const entry: (number | null)[] = [];
      for (const probe of asked) {
        if (!probe) {
          entry.push(null);
          continue;
        }
        const key = JSON.stringify([probe.sql, probe.parameters]);
        if (!counted.has(key)) counted.set(key, Number((await this.db.query(`SELECT (${probe.sql}) AS n`, probe.parameters, tx))[0].n));
        entry.push(counted.get(key)!);
      }
      counts.push(entry);
    }
    return counts;
  }

  private parametersOf(row: ChangeLogRow): unknown[] {
    return [
      row.entity,
      row.recordId,
      row.action,
      this.db.dateParam(row.on),
      row.by,
      row.requestId,
      row.businessId,
      row.previousBusinessId,
      row.changes,
    ];
  }

  /** How many entries match `filter` (an empty `businessIds` matches none). */
  async count(filter: EntryFilter): Promise<number> {
    const { where, parameters } = this.where(filter);
    const [counted] = await this.db.query<{ n: unknown }>(`SELECT COUNT(*) AS n FROM ${this.q('change_log')} WHERE ${where}`, parameters);
    return Number(counted.n);
  }

  /** One page of the entries matching `filter`, newest first, as stored. */
  page(filter: EntryFilter, size: number, offset: number): Promise<Record<string, unknown>[]> {
    const { where, parameters } = this.where(filter);
    return this.db.query(`SELECT * FROM ${this.q('change_log')} WHERE ${where} ORDER BY ${this.q('Id')} DESC LIMIT ? OFFSET ?`, [
      ...parameters,
      size,
      offset,
    ]);
  }

  private where({ entity, recordId, businessIds }: EntryFilter): { where: string; parameters: unknown[] } {
    const q = this.q;
    let where = `${q('Entity')} = ? AND ${q('RecordId')} = ?`;
    const parameters: unknown[] = [entity, recordId];
    if (businessIds) {
      where += businessIds.length ? ` AND ${q('BusinessId')} IN (${businessIds.map(() => '?').join(', ')})` : ' AND 1 = 0';
      parameters.push(...businessIds);
    }
    return { where, parameters };
  }
}

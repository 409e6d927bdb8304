import { Injectable } from '@nestjs/common';
import type { AnyClass } from '../../records/columns.js';
import { Database } from '../../persistence/database.js';
import type { Tx } from '../../persistence/tx.js';

/** The SQL of tax rates beyond the record machinery's own. */
@Injectable()
export class TaxRatesRepository {
  constructor(private readonly db: Database) {}

  /** Whether a record of `entity` names the tax rate `id` in one of `columns` (non-empty). */
  async isNamedIn(entity: AnyClass, columns: readonly string[], id: unknown, tx: Tx): Promise<boolean> {
    const { db } = this;
    const condition = columns.map((column) => `${db.id(column)} = ?`).join(' OR ');
    const [found] = await db.query(
      `SELECT 1 AS x FROM ${db.tableOf(entity)} WHERE ${condition} LIMIT 1`,
      columns.map(() => id),
      tx,
    );
    return Boolean(found);
  }
}

import { Injectable } from '@nestjs/common';
import { wholeSecond } from '../../billing/coworker-booking-credits/coworker-booking-credits.service.js';
import { Database } from '../../persistence/database.js';
import { CoworkerDelivery } from './coworker-delivery.entity.js';
import { updateStampParameters, updateStampSql } from '../../records/audit-stamp.js';
import type { Tx } from '../../persistence/tx.js';

/** The SQL of deliveries beyond the machinery's own (docs/stock-and-deliveries.md), inside the caller's transaction. */
@Injectable()
export class CoworkerDeliveriesRepository {
  constructor(private readonly db: Database) {}

  /**
   * Marks the delivery collected at `at` (to the second) while it is not: whether this call did. One conditional UPDATE,
   * so of parallel DELIVERY_COLLECTs of one delivery exactly one collects it.
   */
  async collect(id: number, at: Date, by: string | null, tx: Tx): Promise<boolean> {
    const { db } = this;
    const q = (name: string) => db.id(name);
    const result = await db.run(
      `UPDATE ${db.tableOf(CoworkerDelivery)} SET ${q('Collected')} = 1, ${q('CollectedOn')} = ?, ${updateStampSql(q)} ` +
        `WHERE ${q('Id')} = ? AND ${q('Collected')} = 0`,
      [db.dateParam(wholeSecond(at)), ...updateStampParameters((date) => db.dateParam(date), by), id],
      tx,
    );
    return result.affected === 1;
  }

  /**
   * The ids of a sale's deliveries not collected, held (MySQL: locked) until the caller's transaction
   * ends, so a DELIVERY_COLLECT committing meanwhile is seen, and one that comes later waits.
   */
  async uncollectedOfSale(saleUniqueId: string, tx: Tx): Promise<number[]> {
    const { db } = this;
    const rows = await db.query(
      `SELECT ${db.id('Id')} AS id FROM ${db.tableOf(CoworkerDelivery)} WHERE ${db.id('CoworkerProductUniqueId')} = ? AND ${db.id('Collected')} = 0${db.isMySql ? ' FOR UPDATE' : ''}`,
      [saleUniqueId],
      tx,
    );
    return rows.map((row) => Number(row.id));
  }
}

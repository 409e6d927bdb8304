import { Injectable } from '@nestjs/common';
import { createStamp } from '../../records/audit-stamp.js';
import type { Principal } from '../../platform/principal.js';
import { withFields } from '../../records/record-writes.js';
import { InjectRecords } from '../../records/record.module.js';
import type { RecordService } from '../../records/record.service.js';
import { coworkerInvoiceLines } from './coworker-invoice-lines.definition.js';
import type { RecordChangeEntry } from '../../records/change-log/change-log.service.js';
import type { Tx } from '../../persistence/tx.js';

/** Invoice lines are written by billing runs only (docs/billing.md): inside the run's transaction, with their history. */
@Injectable()
export class CoworkerInvoiceLinesService {
  @InjectRecords(coworkerInvoiceLines) private readonly records: RecordService;

  /** An invoice's lines, in order, in one INSERT, and their history in one more (`businessId`: the invoice's): their Ids. */
  insertLines(tx: Tx, actor: Principal | undefined, lines: readonly Record<string, unknown>[], businessId: number): Promise<number[]> {
    const now = new Date();
    const written = lines.map((values) => withFields(values, createStamp(actor, now)));
    return this.records.insertRecords(tx, actor, written, businessId);
  }

  /**
   * The lines of several invoices (a billing run's batch), in order, by multi-row INSERTs, each stamped as
   * `insertLines` stamps it; their history left to the caller: each line's change (its Id the change's recordId).
   */
  async insertPending(
    tx: Tx,
    actor: Principal | undefined,
    lines: readonly Record<string, unknown>[],
    businessId: number,
  ): Promise<RecordChangeEntry[]> {
    const { ids, written } = await this.records.insertStampedMany(tx, actor, lines, new Date());
    return this.records.createdMany(tx, actor, ids, written, businessId);
  }
}

import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Principal } from '../../common/principal.js';
import { RecordService } from '../../common/record.service.js';
import type { CoworkerInvoiceLine } from './coworker-invoice-line.entity.js';

/** Invoice lines are written by billing runs only (docs/billing.md): inside the run's transaction, with their history. */
@Injectable()
export class CoworkerInvoiceLinesService extends RecordService<CoworkerInvoiceLine> {
  async insertLine(manager: EntityManager, actor: Principal | undefined, values: Record<string, unknown>): Promise<number> {
    const now = new Date();
    const written = { ...values, UniqueId: randomUUID(), CreatedOn: now, UpdatedOn: now, UpdatedBy: actor?.email ?? null, IsNew: true };
    const id = await this.insertRow(written, manager);
    await this.recordChange(manager, actor, 'Create', id, null, undefined, written);
    return id;
  }
}

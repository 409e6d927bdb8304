import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Principal } from '../../common/principal.js';
import { InjectRecords } from '../../common/record.module.js';
import type { RecordService } from '../../common/record.service.js';
import { coworkerInvoiceLines } from './coworker-invoice-lines.definition.js';

/** Invoice lines are written by billing runs only (docs/billing.md): inside the run's transaction, with their history. */
@Injectable()
export class CoworkerInvoiceLinesService {
  @InjectRecords(coworkerInvoiceLines) private readonly records: RecordService;

  async insertLine(manager: EntityManager, actor: Principal | undefined, values: Record<string, unknown>): Promise<number> {
    return (await this.records.createRecorded(manager, actor, values)).id;
  }
}

import { Injectable, type OnModuleInit } from '@nestjs/common';
import { Database } from '../../persistence/database.js';
import { InjectRecords } from '../../records/record.module.js';
import type { RecordService } from '../../records/record.service.js';
import { dbDate } from './built-in-sources.js';
import { DueItemSources, type DueContext, type DueItem } from '../due-items/due-items.js';
import { FlagClaims } from '../due-items/flag-claims.js';
import { atMidnight } from '../due-items/periods.js';
import { CoworkerTimePass } from '../coworker-time-passes/coworker-time-pass.entity.js';
import { coworkerTimePasses } from '../coworker-time-passes/coworker-time-passes.definition.js';
import { CoworkerTimePassesRepository } from '../coworker-time-passes/coworker-time-passes.repository.js';

/**
 * The time-pass item source of docs/billing.md "Item sources" (docs/presence.md): a customer's pass that
 * is not Free, costs more than 0 and is not billed yet, used or not, sold on or before `Until`. One line:
 * quantity 1, unit price its Price, the TimePass's tax rate and currency, PeriodFrom = PeriodTo the
 * SaleDate's date, the TimePass's InvoiceDisplay (else Name), CoworkerTimePassUniqueId. The claim marks
 * the pass Invoiced with its invoice in one conditional UPDATE from the version read; a deleted invoice
 * makes its passes due again.
 */
@Injectable()
export class TimePassCharges implements OnModuleInit {
  @InjectRecords(coworkerTimePasses) private readonly passes: RecordService;

  private readonly rows = new CoworkerTimePassesRepository(this.db);

  constructor(
    private readonly sources: DueItemSources,
    private readonly db: Database,
  ) {}

  private readonly claims = new FlagClaims(this.db, {
    entity: CoworkerTimePass,
    records: () => this.passes,
    marks: ({ invoice }) => ({ InvoicedOn: this.db.dateParam(invoice.on) }),
    cleared: { InvoicedOn: null },
  });

  onModuleInit(): void {
    this.sources.register({
      name: 'Time passes',
      order: 60,
      collect: (context) => this.due(context),
      release: (context) => this.claims.release(context),
    });
  }

  private async due({ customerIds, until, tx }: DueContext): Promise<DueItem[]> {
    const rows = await this.rows.dueForBilling(customerIds, atMidnight(until.plusDays(1)), tx);
    return rows.map((row): DueItem => {
      const day = dbDate(row.saleDate)!;
      return this.claims.item(row, {
        source: 'CoworkerTimePassUniqueId',
        description: String(row.display ?? row.name),
        periodFrom: day,
        periodTo: day,
        creditUse: { passId: Number(row.timePass) },
      });
    });
  }
}

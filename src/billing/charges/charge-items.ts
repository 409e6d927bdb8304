import { Injectable, type OnModuleInit } from '@nestjs/common';
import { Database } from '../../persistence/database.js';
import { InjectRecords } from '../../records/record.module.js';
import type { RecordService } from '../../records/record.service.js';
import { dbDate } from '../billing-runs/built-in-sources.js';
import { DueItemSources, type DueContext, type DueItem } from '../due-items/due-items.js';
import { FlagClaims } from '../due-items/flag-claims.js';
import { fromUnits } from '../../kernel/money.js';
import { atMidnight } from '../due-items/periods.js';
import { Charge } from './charge.entity.js';
import { charges } from './charges.definition.js';
import { ChargesRepository } from './charges.repository.js';

/**
 * Item 6 of docs/api.md §9.2, charges (docs/billing.md "Charges"): a charge not yet invoiced whose
 * SaleDate falls on or before `Until`. One line: quantity 1, unit price its TotalAmount, its tax rate,
 * the business's currency, PeriodFrom = PeriodTo the sale date, InvoiceLineDisplayAs (else Description),
 * CoworkerChargeUniqueId; universal credits may pay it. Claimed and given back as every record billed
 * whole (FlagClaims), with CreditAmount what credits paid of it.
 */
@Injectable()
export class ChargeItems implements OnModuleInit {
  @InjectRecords(charges) private readonly charges: RecordService;
  private claims: FlagClaims;

  private readonly rows = new ChargesRepository(this.db);

  constructor(
    private readonly sources: DueItemSources,
    private readonly db: Database,
  ) {}

  onModuleInit(): void {
    this.claims = new FlagClaims(this.db, {
      entity: Charge,
      records: () => this.charges,
      marks: ({ invoice, credited }) => ({ InvoicedOn: this.db.dateParam(invoice.on), CreditAmount: fromUnits(credited) }),
      cleared: { InvoicedOn: null, CreditAmount: 0 },
    });
    this.sources.register({
      name: 'Charges',
      order: 55,
      collect: (context) => this.due(context),
      release: (context) => this.claims.release(context),
    });
  }

  private async due({ customerIds, until, tx }: DueContext): Promise<DueItem[]> {
    const rows = await this.rows.dueForBilling(customerIds, atMidnight(until.plusDays(1)), tx);
    return rows.map((row): DueItem => {
      const day = dbDate(row.saleDate)!;
      return this.claims.item(row, {
        source: 'CoworkerChargeUniqueId',
        description: String(row.display || row.description),
        periodFrom: day,
        periodTo: day,
        creditUse: { charge: true },
      });
    });
  }
}

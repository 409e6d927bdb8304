import { Injectable, type OnModuleInit } from '@nestjs/common';
import { Database } from '../../common/database.js';
import { InjectRecords } from '../../common/record.module.js';
import type { RecordService } from '../../common/record.service.js';
import { dbDate } from '../billing-runs/built-in-sources.js';
import { DueItemSources, inList, type DueContext, type DueItem } from '../due-items/due-items.js';
import { FlagClaims } from '../due-items/flag-claims.js';
import { atMidnight } from '../due-items/periods.js';
import { TimePass } from '../time-passes/time-pass.entity.js';
import { CoworkerTimePass } from './coworker-time-pass.entity.js';
import { coworkerTimePasses } from './coworker-time-passes.definition.js';

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

  constructor(private readonly sources: DueItemSources, private readonly db: Database) {}

  private readonly claims = new FlagClaims(this.db, { entity: CoworkerTimePass, records: () => this.passes, marks: ({ invoice }) => ({ InvoicedOn: this.db.dateParam(invoice.on) }), cleared: { InvoicedOn: null } });

  onModuleInit(): void {
    this.sources.register({ name: 'Time passes', order: 60, collect: (context) => this.due(context), release: (context) => this.claims.release(context) });
  }

  private async due({ customerIds, until, manager }: DueContext): Promise<DueItem[]> {
    const { db } = this;
    const q = (name: string) => db.id(name);
    const rows = await db.query(
      `SELECT p.${q('Id')} AS id, p.${q('CoworkerId')} AS coworker, p.${q('UniqueId')} AS uniqueId, p.${q('Version')} AS version, p.${q('SaleDate')} AS saleDate, p.${q('Price')} AS amount, p.${q('TimePassId')} AS timePass, ` +
      `t.${q('Name')} AS name, t.${q('InvoiceDisplay')} AS display, t.${q('TaxRateId')} AS taxRate, t.${q('CurrencyId')} AS currency ` +
      `FROM ${db.tableOf(CoworkerTimePass)} p JOIN ${db.tableOf(TimePass)} t ON t.${q('Id')} = p.${q('TimePassId')} ` +
      `WHERE p.${q('CoworkerId')} ${inList(customerIds)} AND p.${q('Invoiced')} = 0 AND p.${q('Free')} = 0 AND p.${q('Price')} > 0 AND p.${q('SaleDate')} < ? ` +
      `ORDER BY p.${q('CoworkerId')}, p.${q('SaleDate')}, p.${q('Id')}`,
      [...customerIds, db.dateParam(atMidnight(until.plusDays(1)))],
      manager,
    );
    return rows.map((row): DueItem => {
      const day = dbDate(row.saleDate)!;
      return this.claims.item(row, { source: 'CoworkerTimePassUniqueId', description: String(row.display ?? row.name), periodFrom: day, periodTo: day, creditUse: { passId: Number(row.timePass) } });
    });
  }
}

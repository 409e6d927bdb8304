import { Injectable, type OnModuleInit } from '@nestjs/common';
import { Database } from '../../common/database.js';
import { InjectRecords } from '../../common/record.module.js';
import type { RecordService } from '../../common/record.service.js';
import { dbDate } from '../billing-runs/built-in-sources.js';
import { DueItemSources, type ClaimContext, type DueContext, type DueItem, type ReleaseContext } from '../due-items/due-items.js';
import { roundToCents, toUnits } from '../due-items/money.js';
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

  onModuleInit(): void {
    this.sources.register({ name: 'Time passes', order: 60, collect: (context) => this.due(context), release: (context) => this.release(context) });
  }

  private async due({ customer, until, manager }: DueContext): Promise<DueItem[]> {
    const { db } = this;
    const q = (name: string) => db.id(name);
    const rows = await db.query(
      `SELECT p.${q('Id')} AS id, p.${q('UniqueId')} AS uniqueId, p.${q('Version')} AS version, p.${q('SaleDate')} AS saleDate, p.${q('Price')} AS price, ` +
      `t.${q('Name')} AS name, t.${q('InvoiceDisplay')} AS display, t.${q('TaxRateId')} AS taxRate, t.${q('CurrencyId')} AS currency ` +
      `FROM ${db.tableOf(CoworkerTimePass)} p JOIN ${db.tableOf(TimePass)} t ON t.${q('Id')} = p.${q('TimePassId')} ` +
      `WHERE p.${q('CoworkerId')} = ? AND p.${q('Invoiced')} = 0 AND p.${q('Free')} = 0 AND p.${q('Price')} > 0 AND p.${q('SaleDate')} < ? ` +
      `ORDER BY p.${q('SaleDate')}, p.${q('Id')}`,
      [customer.id, db.dateParam(atMidnight(until.plusDays(1)))],
      manager,
    );
    return rows.map((row): DueItem => {
      const day = dbDate(row.saleDate)!;
      return {
        lines: [{
          source: 'CoworkerTimePassUniqueId', sourceUniqueId: String(row.uniqueId), description: String(row.display ?? row.name),
          quantity: 1, unitPrice: roundToCents(toUnits(row.price)), taxRateId: row.taxRate === null ? null : Number(row.taxRate),
          periodFrom: day, periodTo: day, currencyId: Number(row.currency),
        }],
        claim: (claim) => this.claim(claim, Number(row.id), Number(row.version)),
      };
    });
  }

  /** Marks the pass billed on the invoice, only while it is as read: whether it did. */
  private async claim({ manager, actor, invoice }: ClaimContext, id: number, version: number): Promise<boolean> {
    const { db } = this;
    const q = (name: string) => db.id(name);
    const before = await this.passes.get(id, undefined, manager);
    const result = await db.run(
      `UPDATE ${db.tableOf(CoworkerTimePass)} SET ${q('Invoiced')} = 1, ${q('InvoicedOn')} = ?, ${q('CoworkerInvoiceId')} = ?, ${q('Version')} = ${q('Version')} + 1, ${q('UpdatedOn')} = ?, ${q('UpdatedBy')} = ?, ${q('IsNew')} = 0 ` +
      `WHERE ${q('Id')} = ? AND ${q('Invoiced')} = 0 AND ${q('Version')} = ?`,
      [db.dateParam(invoice.on), invoice.id, db.dateParam(new Date()), actor?.email ?? null, id, version],
      manager,
    );
    const changed = result.affected === 1;
    if (changed) await this.passes.recordChange(manager, actor, 'Update', id, before);
    return changed;
  }

  /** A deleted invoice's passes are not billed any more: the next run bills them again. */
  private async release({ invoiceId, manager, actor }: ReleaseContext): Promise<void> {
    const { db } = this;
    const q = (name: string) => db.id(name);
    const billed = await db.query(`SELECT ${q('Id')} AS id FROM ${db.tableOf(CoworkerTimePass)} WHERE ${q('CoworkerInvoiceId')} = ? AND ${q('Invoiced')} = 1 ORDER BY ${q('Id')}`, [invoiceId], manager);
    for (const { id } of billed) {
      const before = await this.passes.get(Number(id), undefined, manager);
      await db.query(
        `UPDATE ${db.tableOf(CoworkerTimePass)} SET ${q('Invoiced')} = 0, ${q('InvoicedOn')} = NULL, ${q('CoworkerInvoiceId')} = NULL, ${q('Version')} = ${q('Version')} + 1, ${q('UpdatedOn')} = ?, ${q('UpdatedBy')} = ?, ${q('IsNew')} = 0 WHERE ${q('Id')} = ?`,
        [db.dateParam(new Date()), actor?.email ?? null, Number(id)],
        manager,
      );
      await this.passes.recordChange(manager, actor, 'Update', Number(id), before);
    }
  }
}

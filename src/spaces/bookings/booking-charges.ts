import { Injectable, type OnModuleInit } from '@nestjs/common';
import { dbDate } from '../../billing/billing-runs/built-in-sources.js';
import { DueItemSources, type ClaimContext, type DueContext, type DueItem, type ReleaseContext } from '../../billing/due-items/due-items.js';
import { roundToCents, toUnits } from '../../billing/due-items/money.js';
import { atMidnight } from '../../billing/due-items/periods.js';
import { Database } from '../../common/database.js';
import { parseDbDateTime } from '../../common/wire-values.js';
import { Resource } from '../resources/resource.entity.js';
import { Booking } from './booking.entity.js';
import { InjectRecords } from '../../common/record.module.js';
import type { RecordService } from '../../common/record.service.js';
import { bookings } from './bookings.definition.js';

/** "09:00" of a stored date-time. */
const timeOf = (raw: unknown) => String(raw).slice(11, 16);

/**
 * Item source 5 of docs/api.md §9.2 (docs/billing.md "Item sources"): a firm booking's ChargeAmount,
 * not yet invoiced, whose booking starts on or before `Until`. One line: quantity 1, unit price
 * ChargeAmount, the resource's tax rate and currency, PeriodFrom/PeriodTo the booking's dates,
 * BookingUniqueId. The claim marks the booking Invoiced with its CoworkerInvoiceId, in one conditional
 * UPDATE from the version read (a booking moved since is not billed by this run). A booking whose
 * ChargeAmount is 0 (credits paid it all, or tentative) is never billed.
 */
@Injectable()
export class BookingCharges implements OnModuleInit {
  @InjectRecords(bookings) private readonly bookings: RecordService;

  constructor(private readonly sources: DueItemSources, private readonly db: Database) {}

  onModuleInit(): void {
    this.sources.register({ name: 'Booking charges', order: 50, collect: (context) => this.due(context), release: (context) => this.release(context) });
  }

  private async due({ customer, until, manager }: DueContext): Promise<DueItem[]> {
    const { db } = this;
    const q = (name: string) => db.id(name);
    const rows = await db.query(
      `SELECT b.${q('Id')} AS id, b.${q('UniqueId')} AS uniqueId, b.${q('Version')} AS version, b.${q('FromTime')} AS fromTime, b.${q('ToTime')} AS toTime, ` +
      `b.${q('ChargeAmount')} AS charge, r.${q('Name')} AS resource, r.${q('TaxRateId')} AS taxRate, r.${q('CurrencyId')} AS currency ` +
      `FROM ${db.tableOf(Booking)} b JOIN ${db.tableOf(Resource)} r ON r.${q('Id')} = b.${q('ResourceId')} ` +
      `WHERE b.${q('CoworkerId')} = ? AND b.${q('Invoiced')} = 0 AND b.${q('Tentative')} = 0 AND b.${q('ChargeAmount')} > 0 AND b.${q('FromTime')} < ? ` +
      `ORDER BY b.${q('FromTime')}, b.${q('Id')}`,
      [customer.id, db.dateParam(atMidnight(until.plusDays(1)))],
      manager,
    );
    return rows.map((row): DueItem => {
      const from = dbDate(row.fromTime)!;
      // The day the booking ends on: an end at midnight ends the day before.
      const lastInstant = parseDbDateTime(row.toTime)! - 1;
      const endDay = dbDate(new Date(lastInstant))!;
      const to = endDay.isBefore(from) ? from : endDay;
      const span = to.equals(from) ? `${from.toString()} ${timeOf(row.fromTime)}–${timeOf(row.toTime)}` : `${from.toString()} ${timeOf(row.fromTime)} – ${to.toString()} ${timeOf(row.toTime)}`;
      return {
        lines: [{
          source: 'BookingUniqueId', sourceUniqueId: String(row.uniqueId), description: `Booking of ${String(row.resource)} (${span})`,
          quantity: 1, unitPrice: roundToCents(toUnits(row.charge)), taxRateId: row.taxRate === null ? null : Number(row.taxRate),
          periodFrom: from, periodTo: to, currencyId: Number(row.currency),
        }],
        claim: (claim) => this.claim(claim, Number(row.id), Number(row.version)),
      };
    });
  }

  /** Marks the booking billed on the invoice, only while it is as read: whether it did. */
  private async claim({ manager, actor, invoice }: ClaimContext, id: number, version: number): Promise<boolean> {
    const { db } = this;
    const q = (name: string) => db.id(name);
    const before = await this.bookings.get(id, undefined, manager);
    const result = await db.run(
      `UPDATE ${db.tableOf(Booking)} SET ${q('Invoiced')} = 1, ${q('CoworkerInvoiceId')} = ?, ${q('Version')} = ${q('Version')} + 1, ${q('UpdatedOn')} = ?, ${q('UpdatedBy')} = ?, ${q('IsNew')} = 0 ` +
      `WHERE ${q('Id')} = ? AND ${q('Invoiced')} = 0 AND ${q('Version')} = ?`,
      [invoice.id, db.dateParam(new Date()), actor?.email ?? null, id, version],
      manager,
    );
    const changed = result.affected === 1;
    if (changed) await this.bookings.recordChange(manager, actor, 'Update', id, before);
    return changed;
  }

  /** A deleted invoice's bookings are not invoiced any more: the next run bills their charges again. */
  private async release({ invoiceId, manager, actor }: ReleaseContext): Promise<void> {
    const { db } = this;
    const q = (name: string) => db.id(name);
    const billed = await db.query(`SELECT ${q('Id')} AS id FROM ${db.tableOf(Booking)} WHERE ${q('CoworkerInvoiceId')} = ? AND ${q('Invoiced')} = 1 ORDER BY ${q('Id')}`, [invoiceId], manager);
    for (const { id } of billed) {
      const before = await this.bookings.get(Number(id), undefined, manager);
      await db.query(
        `UPDATE ${db.tableOf(Booking)} SET ${q('Invoiced')} = 0, ${q('CoworkerInvoiceId')} = NULL, ${q('Version')} = ${q('Version')} + 1, ${q('UpdatedOn')} = ?, ${q('UpdatedBy')} = ?, ${q('IsNew')} = 0 WHERE ${q('Id')} = ?`,
        [db.dateParam(new Date()), actor?.email ?? null, Number(id)],
        manager,
      );
      await this.bookings.recordChange(manager, actor, 'Update', Number(id), before);
    }
  }
}

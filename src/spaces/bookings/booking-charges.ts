import { Injectable, type OnModuleInit } from '@nestjs/common';
import { dbDate } from '../../billing/billing-runs/built-in-sources.js';
import { DueItemSources, inList, type DueContext, type DueItem } from '../../billing/due-items/due-items.js';
import { FlagClaims } from '../../billing/due-items/flag-claims.js';
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

  private readonly claims = new FlagClaims(this.db, { entity: Booking, records: () => this.bookings });

  onModuleInit(): void {
    this.sources.register({ name: 'Booking charges', order: 50, collect: (context) => this.due(context), release: (context) => this.claims.release(context) });
  }

  private async due({ customerIds, until, manager }: DueContext): Promise<DueItem[]> {
    const { db } = this;
    const q = (name: string) => db.id(name);
    const rows = await db.query(
      `SELECT b.${q('Id')} AS id, b.${q('CoworkerId')} AS coworker, b.${q('UniqueId')} AS uniqueId, b.${q('Version')} AS version, b.${q('FromTime')} AS fromTime, b.${q('ToTime')} AS toTime, ` +
      `b.${q('ChargeAmount')} AS amount, r.${q('Name')} AS resource, r.${q('TaxRateId')} AS taxRate, r.${q('CurrencyId')} AS currency ` +
      `FROM ${db.tableOf(Booking)} b JOIN ${db.tableOf(Resource)} r ON r.${q('Id')} = b.${q('ResourceId')} ` +
      `WHERE b.${q('CoworkerId')} ${inList(customerIds)} AND b.${q('Invoiced')} = 0 AND b.${q('Tentative')} = 0 AND b.${q('ChargeAmount')} > 0 AND b.${q('FromTime')} < ? ` +
      `ORDER BY b.${q('CoworkerId')}, b.${q('FromTime')}, b.${q('Id')}`,
      [...customerIds, db.dateParam(atMidnight(until.plusDays(1)))],
      manager,
    );
    return rows.map((row): DueItem => {
      const from = dbDate(row.fromTime)!;
      // The day the booking ends on: an end at midnight ends the day before.
      const lastInstant = parseDbDateTime(row.toTime)! - 1;
      const endDay = dbDate(new Date(lastInstant))!;
      const to = endDay.isBefore(from) ? from : endDay;
      const span = to.equals(from) ? `${from.toString()} ${timeOf(row.fromTime)}–${timeOf(row.toTime)}` : `${from.toString()} ${timeOf(row.fromTime)} – ${to.toString()} ${timeOf(row.toTime)}`;
      return this.claims.item(row, { source: 'BookingUniqueId', description: `Booking of ${String(row.resource)} (${span})`, periodFrom: from, periodTo: to });
    });
  }
}

import { Injectable, type OnModuleInit } from '@nestjs/common';
import { dbDate } from '../../billing/billing-runs/built-in-sources.js';
import { DueItemSources, type DueContext, type DueItem } from '../../billing/due-items/due-items.js';
import { FlagClaims } from '../../billing/due-items/flag-claims.js';
import { atMidnight } from '../../billing/due-items/periods.js';
import { Database } from '../../persistence/database.js';
import { parseDbDateTime } from '../../records/wire-values.js';
import { Booking } from './booking.entity.js';
import { InjectRecords } from '../../records/record.module.js';
import type { RecordService } from '../../records/record.service.js';
import { bookings } from './bookings.definition.js';
import { BookingsRepository } from './bookings.repository.js';

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

  private readonly rows = new BookingsRepository(this.db);

  constructor(
    private readonly sources: DueItemSources,
    private readonly db: Database,
  ) {}

  private readonly claims = new FlagClaims(this.db, { entity: Booking, records: () => this.bookings });

  onModuleInit(): void {
    this.sources.register({
      name: 'Booking charges',
      order: 50,
      collect: (context) => this.due(context),
      release: (context) => this.claims.release(context),
    });
  }

  private async due({ customerIds, until, tx }: DueContext): Promise<DueItem[]> {
    const rows = await this.rows.dueForBilling(customerIds, atMidnight(until.plusDays(1)), tx);
    return rows.map((row): DueItem => {
      const from = dbDate(row.fromTime)!;
      // The day the booking ends on: an end at midnight ends the day before.
      const lastInstant = parseDbDateTime(row.toTime)! - 1;
      const endDay = dbDate(new Date(lastInstant))!;
      const to = endDay.isBefore(from) ? from : endDay;
      const span = to.equals(from)
        ? `${from.toString()} ${timeOf(row.fromTime)}–${timeOf(row.toTime)}`
        : `${from.toString()} ${timeOf(row.fromTime)} – ${to.toString()} ${timeOf(row.toTime)}`;
      return this.claims.item(row, {
        source: 'BookingUniqueId',
        description: `Booking of ${String(row.resource)} (${span})`,
        periodFrom: from,
        periodTo: to,
      });
    });
  }
}

import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { RecordValidationException } from '../../records/errors.js';
import type { Principal } from '../../platform/principal.js';
import { RecordTypes } from '../../records/record-types.js';
import type { RecordService } from '../../records/record.service.js';
import { BOUNDED_FIRST_YEAR, BOUNDED_LAST_YEAR, LAST_YEAR } from '../../records/validation/fields.js';
import { formatDateTime } from '../../records/wire-values.js';
import { wholeSecond } from '../coworker-booking-credits/coworker-booking-credits.service.js';
import { coworkerTimePasses } from './coworker-time-passes.definition.js';
import { CoworkerTimePassesRepository, type ClaimedPass, type PassKind } from './coworker-time-passes.repository.js';
import { createStamp } from '../../records/audit-stamp.js';
import type { Tx } from '../../persistence/tx.js';

/** The most passes one sale releases (Quantity × TimePassQuantity). */
export const MAX_PASSES_PER_SALE = 1000;

/** A DayPass sale whose passes are released, as the sale's transaction knows it. */
export interface PassReleasingSale {
  UniqueId: string;
  ProductId: number;
  CoworkerId: number;
  BusinessId: number;
  TimePassId: number;
  /** Quantity × the product's TimePassQuantity. */
  count: number;
  SaleDate: Date;
}

/**
 * When a pass sold on `saleDate` expires: `validityDays` after it, or never (null). A date past the
 * last year a date-time holds is a 400 naming `field`.
 */
export function passExpiry(saleDate: Date, validityDays: number | null, field: string): Date | null {
  if (validityDays === null) return null;
  const expiry = new Date(saleDate.getTime() + validityDays * 86_400_000);
  if (expiry.getUTCFullYear() > LAST_YEAR) {
    throw RecordValidationException.field(
      field,
      `A pass sold on ${formatDateTime(saleDate)} would expire after the year ${LAST_YEAR}.`,
      formatDateTime(saleDate),
    );
  }
  return expiry;
}

/**
 * Customers' passes as other rules make and use them (docs/presence.md): the passes a DayPass sale
 * releases, the pass a check-in uses or makes pay-as-you-go, and the pass a deleted check-in gives
 * back. All inside the caller's transaction; each change is recorded in the passes' change log.
 */
@Injectable()
export class CoworkerTimePassesService {
  @Inject(RecordTypes) private readonly types: RecordTypes;
  @Inject(CoworkerTimePassesRepository) private readonly passes: CoworkerTimePassesRepository;

  /** The passes' RecordService, from the registry: the passes' own rules use this service, so it cannot be injected. */
  private get records(): RecordService {
    return this.types.records(coworkerTimePasses);
  }

  /** Inside a DayPass sale's transaction: its passes, Free, Price 0, as of the sale's date. */
  async releaseForSale(tx: Tx, sale: PassReleasingSale, actor?: Principal): Promise<number[]> {
    const kind = await this.passes.passKind(sale.TimePassId, tx);
    if (!kind || kind.BusinessId !== sale.BusinessId) return [];
    if (kind.Archived) {
      throw RecordValidationException.field(
        'ProductId',
        `Product ${sale.ProductId} releases passes of TimePass "${kind.Name}", which is archived: no new passes of it are made.`,
        sale.ProductId,
      );
    }
    if (sale.count > MAX_PASSES_PER_SALE) {
      throw RecordValidationException.field(
        'Quantity',
        `This sale would release ${sale.count} passes of "${kind.Name}": at most ${MAX_PASSES_PER_SALE} per sale.`,
        sale.count,
      );
    }
    const saleDate = wholeSecond(sale.SaleDate);
    const row = {
      CoworkerId: sale.CoworkerId,
      BusinessId: sale.BusinessId,
      TimePassId: kind.Id,
      Free: true,
      Price: 0,
      SaleDate: saleDate,
      ExpireDate: passExpiry(saleDate, kind.ValidityDays, 'SaleDate'),
      CoworkerProductUniqueId: sale.UniqueId,
    };
    return this.insertPasses(
      tx,
      Array.from({ length: sale.count }, () => row),
      actor,
    );
  }

  /**
   * Copies of a pass just made through the API, for a create with CreateMultiple: their ids. Each is
   * a record of its own with the written values and a UniqueId of its own.
   */
  copies(tx: Tx, written: Readonly<Record<string, unknown>>, count: number, actor?: Principal): Promise<number[]> {
    const row: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(written)) if (name !== 'UniqueId' && name !== 'Id') row[name] = value;
    return this.insertPasses(
      tx,
      Array.from({ length: count }, () => row),
      actor,
    );
  }

  /** A check-in's pass by rule 3: the valid pass of the customer that expires first, now used. Null when there is none. */
  async useValid(tx: Tx, coworkerId: number, businessId: number, at: Date, actor?: Principal): Promise<ClaimedPass | null> {
    for (;;) {
      const candidates = await this.passes.validPasses(coworkerId, businessId, at, tx);
      if (!candidates.length) return null;
      for (const pass of candidates) {
        // Another transaction may have used it since the read: then the next one is tried.
        if (await this.records.changeRecorded(tx, actor, pass.Id, () => this.passes.claim(pass.Id, at, actor?.email ?? null, tx)))
          return pass;
      }
    }
  }

  /** A pass used by an earlier check-in of the day, held for another: its UniqueId while it is still used, else null. */
  async useAgain(tx: Tx, uniqueId: string): Promise<string | null> {
    return (await this.passes.holdUsed(uniqueId, tx)) === null ? null : uniqueId;
  }

  /** A check-in's pass by rule 4: a new pass of the business's pay-as-you-go TimePass, already used. Null when it has none. */
  async makePayAsYouGo(tx: Tx, coworkerId: number, businessId: number, at: Date, actor?: Principal): Promise<string | null> {
    const kind: PassKind | null = await this.passes.payAsYouGo(businessId, tx);
    if (!kind) return null;
    const when = wholeSecond(at);
    const year = when.getUTCFullYear();
    // Sold at FromTime, its SaleDate is a billing date (docs/api.md §9.1 "Bounds").
    if (year < BOUNDED_FIRST_YEAR || year > BOUNDED_LAST_YEAR) {
      throw RecordValidationException.field(
        'FromTime',
        `A pay-as-you-go pass is sold at FromTime, a billing date: it must lie between ${BOUNDED_FIRST_YEAR}-01-01 and ${BOUNDED_LAST_YEAR}-12-31.`,
        formatDateTime(when),
      );
    }
    const uniqueId = randomUUID();
    await this.insertPasses(
      tx,
      [
        {
          UniqueId: uniqueId,
          CoworkerId: coworkerId,
          BusinessId: businessId,
          TimePassId: kind.Id,
          Free: false,
          Price: kind.Price,
          SaleDate: when,
          ExpireDate: passExpiry(when, kind.ValidityDays, 'FromTime'),
          Used: true,
          UsedDate: when,
          IsPayAsYouGo: true,
        },
      ],
      actor,
    );
    return uniqueId;
  }

  /**
   * What a deleted check-in does to its pass, once no other check-in records it: a pay-as-you-go pass
   * not yet billed goes with it, any other pass not billed is unused again. A billed pass stays as it is.
   */
  async giveBack(tx: Tx, uniqueId: string, actor?: Principal): Promise<void> {
    const id = await this.passes.idOf(uniqueId, tx);
    if (id === null) return;
    const pass = await this.records.get(id, undefined, tx);
    if (pass.IsPayAsYouGo === true) {
      if (await this.passes.holdUnbilled(id, tx)) await this.records.deleteWithin(tx, id, actor);
      return;
    }
    await this.records.changeRecorded(
      tx,
      actor,
      id,
      async () => (await this.passes.giveBack(uniqueId, actor?.email ?? null, tx)) !== null,
      pass,
    );
  }

  private async insertPasses(tx: Tx, rows: ReadonlyArray<Record<string, unknown>>, actor?: Principal): Promise<number[]> {
    const now = new Date();
    // A row may carry the UniqueId its caller chose (a pay-as-you-go pass): the stamp keeps it.
    const stamped = rows.map((row) => ({ ...row, ...createStamp(actor, now, (row.UniqueId as string | undefined) ?? randomUUID()) }));
    const ids = await this.passes.insertMany(stamped, tx);
    for (const id of ids) await this.records.recordCreated(tx, actor, id);
    return ids;
  }
}

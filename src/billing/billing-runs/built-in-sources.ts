import { Injectable, type OnModuleInit } from '@nestjs/common';
import { LocalDate } from '@js-joda/core';
import { Database } from '../../persistence/database.js';
import type { RecordService } from '../../records/record.service.js';
import { ContractProduct } from '../contract-products/contract-product.entity.js';
import { contractProducts } from '../contract-products/contract-products.definition.js';
import { InjectRecords } from '../../records/record.module.js';
import { CoworkerContract } from '../coworker-contracts/coworker-contract.entity.js';
import { coworkerContracts } from '../coworker-contracts/coworker-contracts.definition.js';
import { CoworkerProduct } from '../coworker-products/coworker-product.entity.js';
import { coworkerProducts } from '../coworker-products/coworker-products.definition.js';
import {
  DueItemSources,
  mapLazily,
  type ClaimContext,
  type ClaimRow,
  type DueContext,
  type DueItem,
  type DueLine,
} from '../due-items/due-items.js';
import { claimedBy } from '../due-items/set-claims.js';
import { roundToCents, toUnits } from '../../kernel/money.js';
import {
  atMidnight,
  contractPeriods,
  occurrences,
  periodUnitPrice,
  pricePlanOccurrences,
  RepeatCycle,
  type BillingPeriod,
  type ContractTerms,
  type Occurrence,
} from '../due-items/periods.js';
import { DueSourcesRepository } from './due-sources.repository.js';
import type { Tx } from '../../persistence/tx.js';

/** A datetime as either database returns it → its calendar date (UTC). */
export function dbDate(raw: unknown): LocalDate | null {
  if (raw === null || raw === undefined) return null;
  if (raw instanceof Date) return LocalDate.of(raw.getUTCFullYear(), raw.getUTCMonth() + 1, raw.getUTCDate());
  return LocalDate.parse(String(raw).slice(0, 10));
}

/** The InvoicedPeriod after billing these periods (the first of what is due, in order): the day after the last. */
const billedUntil = (billed: readonly DueLine[]): LocalDate => billed[billed.length - 1].periodTo.plusDays(1);

/** The periods that start inside [RepeatFrom, RepeatUntil] (either null: unbounded), read one at a time. */
function* withinRepeat(
  periods: Iterable<BillingPeriod>,
  from: LocalDate | null,
  until: LocalDate | null,
): Generator<BillingPeriod, void, undefined> {
  for (const period of periods) {
    // Periods come in order: none after RepeatUntil can start inside.
    if (until && period.from.isAfter(until)) return;
    if (!from || !period.from.isBefore(from)) yield period;
  }
}

/** The product's InvoiceCoworker, read with the item: its item stays on its customer's own invoice (docs/billing.md, "Team invoices"). */
const invoiceDirectly = (row: Record<string, unknown>): boolean => Boolean(Number(row.InvoiceCoworker));

const span = (from: LocalDate, to: LocalDate) => (from.equals(to) ? from.toString() : `${from.toString()} – ${to.toString()}`);

/**
 * The four item sources of docs/billing.md (1. to 4.), registered in that order. Each reads the
 * customer's records with the terms they need, works out what is due with the pure functions of
 * due-items/periods.ts, and claims each item with one conditional UPDATE from the state it read.
 */
@Injectable()
export class BuiltInDueSources implements OnModuleInit {
  private readonly rows = new DueSourcesRepository(this.db);

  constructor(
    private readonly db: Database,
    private readonly sources: DueItemSources,
    @InjectRecords(coworkerContracts) private readonly contractRecords: RecordService,
    @InjectRecords(contractProducts) private readonly contractProducts: RecordService,
    @InjectRecords(coworkerProducts) private readonly sales: RecordService,
  ) {}

  onModuleInit(): void {
    this.sources.register({ name: 'Contract periods', order: 10, collect: (context) => this.contractPeriods(context) });
    this.sources.register({ name: 'Contract products', order: 20, collect: (context) => this.contractProductPeriods(context) });
    this.sources.register({ name: 'One-off sales', order: 30, collect: (context) => this.oneOffSales(context) });
    this.sources.register({ name: 'Recurring sales', order: 40, collect: (context) => this.recurringSales(context) });
  }

  /** A contract's terms from a row holding its columns and its tariff's InvoiceEvery. */
  private terms(row: Record<string, unknown>): ContractTerms {
    return {
      start: dbDate(row.StartDate)!,
      cancellation: dbDate(row.CancellationDate),
      billingDay: Number(row.BillingDay),
      invoiceEvery: Number(row.InvoiceEvery),
    };
  }

  // ---- 1. contract periods ----

  private async contractPeriods({ customerIds, until, tx }: DueContext): Promise<DueItem[]> {
    const { db } = this;
    const rows = await this.rows.contractsDue(customerIds, atMidnight(until), tx);
    return rows.map((row): DueItem => {
      const terms = this.terms(row);
      const read = dbDate(row.InvoicedPeriod);
      const price = toUnits(row.Price);
      const proRating = Boolean(Number(row.ApplyProRating));
      const lines = mapLazily(contractPeriods(terms, read, until), (period): DueLine => ({
        source: 'CoworkerContractUniqueId',
        sourceUniqueId: String(row.UniqueId),
        description: `${String(row.TariffName)} (${span(period.from, period.to)})`,
        quantity: 1,
        unitPrice: periodUnitPrice(price, period, proRating),
        taxRateId: row.TaxRateId === null ? null : Number(row.TaxRateId),
        periodFrom: period.from,
        periodTo: period.to,
        currencyId: Number(row.CurrencyId),
        subscription: true,
      }));
      return {
        customerId: Number(row.CoworkerId),
        lines,
        ...this.claimed((_claim, billed) => {
          const next = billedUntil(billed);
          const renewal = terms.cancellation && !terms.cancellation.isAfter(next) ? null : next;
          return this.periodClaim(this.contractRecords, CoworkerContract, Number(row.Id), read, next, {
            RenewalDate: renewal ? db.dateParam(atMidnight(renewal)) : null,
          });
        }),
      };
    });
  }

  /** The claim that moves a record's InvoicedPeriod from the value read to `next` (and sets any other marks). */
  private periodClaim(
    records: RecordService<any>,
    entity: abstract new () => unknown,
    id: number,
    read: LocalDate | null,
    next: LocalDate,
    marks: Record<string, unknown>,
  ): ClaimRow {
    const { db } = this;
    return {
      entity,
      records,
      id,
      marks: { InvoicedPeriod: db.dateParam(atMidnight(next)), ...marks },
      unclaimed: { InvoicedPeriod: read ? db.dateParam(atMidnight(read)) : null },
    };
  }

  /**
   * An item's claim: ONE conditional UPDATE from the state read (true when it changed the row), its change
   * in the record's history; as data too, for a batch's claims by set (set-claims.ts).
   */
  private claimed(rowOf: (context: ClaimContext, billed: readonly DueLine[]) => ClaimRow): Pick<DueItem, 'claim' | 'claimRow'> {
    return claimedBy(rowOf, ({ tx, actor, businessId }, { entity, records, id, marks, unclaimed }) => {
      const [[column, read]] = Object.entries(unclaimed);
      const mark = () => this.rows.conditionalUpdate(tx, actor, entity, id, marks, column, read);
      return records.changeRecorded(tx, actor, id, mark, undefined, businessId);
    });
  }

  // ---- 2. contract products ----

  private async contractProductPeriods({ customerIds, until, tx }: DueContext): Promise<DueItem[]> {
    const rows = await this.rows.contractProducts(customerIds, tx);
    return rows.map((row): DueItem => {
      const read = dbDate(row.CpInvoiced);
      const repeatFrom = dbDate(row.RepeatFrom);
      const repeatUntil = dbDate(row.RepeatUntil);
      const price = toUnits(row.CpPrice);
      const proRating = Boolean(Number(row.ProductProRating));
      const name = String(row.DisplayAs || row.ProductName);
      const periods = contractPeriods(this.terms(row), read, until);
      const lines = mapLazily(withinRepeat(periods, repeatFrom, repeatUntil), (period): DueLine => ({
        source: 'ContractProductUniqueId',
        sourceUniqueId: String(row.CpUniqueId),
        description: `${name} (${span(period.from, period.to)})`,
        quantity: Number(row.Quantity),
        unitPrice: periodUnitPrice(price, period, proRating),
        taxRateId: row.TaxRateId === null ? null : Number(row.TaxRateId),
        periodFrom: period.from,
        periodTo: period.to,
        currencyId: Number(row.CurrencyId),
        subscription: true,
      }));
      return {
        customerId: Number(row.CoworkerId),
        lines,
        invoiceDirectly: invoiceDirectly(row),
        ...this.claimed((_claim, billed) =>
          this.periodClaim(this.contractProducts, ContractProduct, Number(row.CpId), read, billedUntil(billed), {}),
        ),
      };
    });
  }

  /** A sale's marks of the invoice it was billed on. */
  private saleMarks({ invoice }: ClaimContext): Record<string, unknown> {
    return { InvoicedOn: this.db.dateParam(invoice.on), CoworkerInvoiceId: invoice.id, CoworkerInvoiceNumber: invoice.number };
  }

  // ---- 3. one-off sales ----

  private async oneOffSales({ customerIds, until, tx }: DueContext): Promise<DueItem[]> {
    const rows = await this.rows.unbilledOneOffSales(customerIds, atMidnight(until.plusDays(1)), tx);
    return rows.map((row): DueItem => {
      const date = dbDate(row.SaleDate)!;
      const id = Number(row.Id);
      return {
        customerId: Number(row.CoworkerId),
        invoiceDirectly: invoiceDirectly(row),
        lines: [
          {
            source: 'CoworkerProductUniqueId',
            sourceUniqueId: String(row.UniqueId),
            description: `${String(row.DisplayAs || row.ProductName)} (${date.toString()})`,
            quantity: Number(row.Quantity),
            unitPrice: roundToCents(toUnits(row.Price)),
            taxRateId: row.TaxRateId === null ? null : Number(row.TaxRateId),
            periodFrom: date,
            periodTo: date,
            currencyId: Number(row.CurrencyId),
            creditUse: { productId: Number(row.ProductId) },
          },
        ],
        ...this.claimed((claim) => ({
          entity: CoworkerProduct,
          records: this.sales,
          id,
          marks: { Invoiced: 1, ...this.saleMarks(claim) },
          unclaimed: { Invoiced: 0 },
        })),
      };
    });
  }

  // ---- 4. recurring sales ----

  private async recurringSales({ customerIds, until, tx }: DueContext): Promise<DueItem[]> {
    const rows = await this.rows.recurringSales(customerIds, tx);
    if (!rows.length) return [];
    // Each customer's main contract, read once and only for a PricePlan sale.
    const plans = new Map<number, ContractTerms | null>();
    const items: DueItem[] = [];
    for (const row of rows) {
      const customerId = Number(row.CoworkerId);
      const read = dbDate(row.InvoicedPeriod);
      const rule = {
        cycle: Number(row.RepeatCycle),
        unit: Number(row.RepeatUnit) || 1,
        from: dbDate(row.RepeatFrom) ?? dbDate(row.SaleDate)!,
        until: dbDate(row.RepeatUntil),
      };
      let found: Iterable<Occurrence>;
      if (rule.cycle === RepeatCycle.PricePlan) {
        if (!plans.has(customerId)) plans.set(customerId, await this.mainContractTerms(customerId, until, tx));
        const plan = plans.get(customerId);
        if (!plan) continue;
        found = pricePlanOccurrences(rule, plan, read, until);
      } else {
        found = occurrences(rule, read, until);
      }
      const name = String(row.DisplayAs || row.ProductName);
      const unitPrice = roundToCents(toUnits(row.Price));
      const id = Number(row.Id);
      const lines = mapLazily(found, (occurrence): DueLine => ({
        source: 'CoworkerProductUniqueId',
        sourceUniqueId: String(row.UniqueId),
        description: `${name} (${span(occurrence.from, occurrence.to)})`,
        quantity: Number(row.Quantity),
        unitPrice,
        taxRateId: row.TaxRateId === null ? null : Number(row.TaxRateId),
        periodFrom: occurrence.from,
        periodTo: occurrence.to,
        currencyId: Number(row.CurrencyId),
        creditUse: { productId: Number(row.ProductId) },
        subscription: true,
      }));
      items.push({
        customerId,
        lines,
        invoiceDirectly: invoiceDirectly(row),
        ...this.claimed((claim, billed) =>
          this.periodClaim(this.sales, CoworkerProduct, id, read, billedUntil(billed), this.saleMarks(claim)),
        ),
      });
    }
    return items;
  }

  /**
   * The terms of the customer's main contract for PricePlan occurrences (docs/billing.md, 4.): the one
   * marked IsPrimaryContract, else its earliest, among those started by `until`; one not ended now comes
   * before one that has. Not "active now": a contract starting after today bills its plan's sales too.
   */
  private async mainContractTerms(coworkerId: number, until: LocalDate, tx: Tx | undefined): Promise<ContractTerms | null> {
    const row = await this.rows.mainContract(coworkerId, atMidnight(until.plusDays(1)), new Date(), tx);
    return row ? this.terms(row) : null;
  }
}

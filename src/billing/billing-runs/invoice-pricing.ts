import type { LocalDate } from '@js-joda/core';
import type { TakenItem } from '../due-items/earliest-lines.js';
import type { BilledCustomer, DueLine } from '../due-items/due-items.js';
import { fromUnits, taxOf, type Units } from '../../kernel/money.js';
import { atMidnight } from '../due-items/periods.js';
import { formatDateTime } from '../../records/wire-values.js';
import { wireLine, type PlannedLine } from './universal-credits.js';

// What a billing run makes of due lines before it writes anything (docs/billing.md): each line priced,
// and the invoices planned per currency; and what it writes of them. BillingRunner plans and writes them.

/** Days from the day an invoice is made to its DueDate (docs/billing.md). */
const DUE_IN_DAYS = 14;

/** A line with its amounts, as the invoice gets it and a preview shows it. */
export interface PricedLine {
  Description: string;
  Quantity: number;
  UnitPrice: number;
  SubTotal: number;
  TaxRateId: number | null;
  TaxRate: number;
  TaxAmount: number;
  TotalAmount: number;
  PeriodFrom: string;
  PeriodTo: string;
  Position: number;
  CoworkerContractUniqueId: string | null;
  ContractProductUniqueId: string | null;
  CoworkerProductUniqueId: string | null;
  BookingUniqueId: string | null;
  CoworkerTimePassUniqueId: string | null;
  CoworkerChargeUniqueId: string | null;
  /** A credit line's credit (docs/billing.md "Universal credits"). */
  CoworkerBookingCreditUniqueId: string | null;
  /** What universal credits paid of the line. */
  CreditAmount: number;
}

/** An invoice a run makes (or would make). */
export interface BilledInvoice {
  Id?: number;
  CoworkerId: number;
  InvoiceNumber?: string;
  CurrencyId: number;
  TotalAmount: number;
  TaxAmount: number;
  Lines: PricedLine[];
  /** More lines were due than one invoice holds: the rest waits for the next run (not on the wire). */
  capped: boolean;
}

/** An invoice a run has planned: its lines priced, its items to claim, its totals. */
export interface PlannedInvoice {
  currencyId: number;
  lines: PlannedLine[];
  items: TakenItem[];
  /** What universal credits paid of each item's lines, in the order of `items`. */
  credited: Units[];
  capped: boolean;
  total: Units;
  tax: Units;
  /** Σ TotalAmount of its subscription lines and the credit lines paying them (docs/billing.md "SubscriptionAmount"). */
  subscription: Units;
  from: LocalDate;
  to: LocalDate;
}

/** A line's amounts (docs/billing.md): SubTotal = Quantity × UnitPrice; TaxAmount rounded; TotalAmount their sum. */
export function priceLine(line: DueLine, rates: Map<number, Units>, position: number): PlannedLine {
  const subTotal = BigInt(line.quantity) * line.unitPrice;
  const rate = line.taxRateId === null ? 0n : rates.get(line.taxRateId)!;
  const tax = taxOf(subTotal, rate);
  const source = (column: DueLine['source']) => (line.source === column ? line.sourceUniqueId : null);
  return {
    key: `${line.sourceUniqueId}/${line.periodFrom.toString()}`,
    subTotal,
    tax,
    rate,
    periodFrom: line.periodFrom,
    creditUse: line.creditUse,
    subscription: line.subscription === true,
    credited: 0n,
    spends: [],
    Description: line.description,
    Quantity: line.quantity,
    UnitPrice: fromUnits(line.unitPrice),
    SubTotal: fromUnits(subTotal),
    TaxRateId: line.taxRateId,
    TaxRate: fromUnits(rate),
    TaxAmount: fromUnits(tax),
    TotalAmount: fromUnits(subTotal + tax),
    PeriodFrom: formatDateTime(atMidnight(line.periodFrom)),
    PeriodTo: formatDateTime(atMidnight(line.periodTo)),
    Position: position,
    CoworkerContractUniqueId: source('CoworkerContractUniqueId'),
    ContractProductUniqueId: source('ContractProductUniqueId'),
    CoworkerProductUniqueId: source('CoworkerProductUniqueId'),
    BookingUniqueId: source('BookingUniqueId'),
    CoworkerTimePassUniqueId: source('CoworkerTimePassUniqueId'),
    CoworkerChargeUniqueId: source('CoworkerChargeUniqueId'),
    CoworkerBookingCreditUniqueId: null,
    CreditAmount: 0,
  };
}

/** The fields a planned invoice of `customer` is issued with on `today` (its midnight, UTC). */
export function invoiceFields(customer: BilledCustomer, invoice: PlannedInvoice, today: Date): Record<string, unknown> {
  return {
    CoworkerId: customer.id,
    BusinessId: customer.businessId,
    CurrencyId: invoice.currencyId,
    DueDate: new Date(today.getTime() + DUE_IN_DAYS * 86_400_000),
    InvoiceFromDate: atMidnight(invoice.from),
    InvoiceToDate: atMidnight(invoice.to),
    TotalAmount: fromUnits(invoice.total),
    TaxAmount: fromUnits(invoice.tax),
    SubscriptionAmount: fromUnits(invoice.subscription),
  };
}

/** The fields a planned line is written with on the invoice `invoiceId`. */
export function lineFields(line: PlannedLine, invoiceId: number): Record<string, unknown> {
  const fields = wireLine(line);
  return {
    ...fields,
    PeriodFrom: new Date(fields.PeriodFrom),
    PeriodTo: new Date(fields.PeriodTo),
    CoworkerInvoiceId: invoiceId,
    BilledItemKey: line.key,
  };
}

/** A planned invoice as a run answers it (before it has an Id and a number). */
export function billedAnswer(customer: BilledCustomer, invoice: PlannedInvoice): BilledInvoice {
  return {
    CoworkerId: customer.id,
    CurrencyId: invoice.currencyId,
    TotalAmount: fromUnits(invoice.total),
    TaxAmount: fromUnits(invoice.tax),
    Lines: invoice.lines.map(wireLine),
    capped: invoice.capped,
  };
}

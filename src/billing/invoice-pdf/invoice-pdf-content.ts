import { CENT, roundToCents, toUnits } from '../../kernel/money.js';

// What an invoice's PDF says (docs/api.md §10.3): its input, and its amounts, dates and settlement rows
// as printed. invoice-pdf.ts lays them out on the page.

/** What the PDF shows of an invoice: its wire fields (dates as the wire's `…Z` text, amounts as numbers). */
export interface PdfInvoice {
  InvoiceNumber: string;
  CreatedOn: string;
  DueDate?: string | null;
  InvoiceFromDate?: string | null;
  InvoiceToDate?: string | null;
  CurrencyCode?: string | null;
  Description?: string | null;
  BillToName?: string | null;
  BillToAddress?: string | null;
  BillToCity?: string | null;
  BillToPostCode?: string | null;
  BillToCountryName?: string | null;
  BillToTaxIDNumber?: string | null;
  TotalAmount?: number | null;
  TaxAmount?: number | null;
  DiscountAmount?: number | null;
  PaidAmount?: number | null;
  DueAmount?: number | null;
  Paid?: boolean;
  PaidOn?: string | null;
  Void?: boolean;
  CreditNote?: boolean;
  /** For a credit note: the number of the invoice it credits. */
  OriginalInvoiceNumber?: string | null;
  RefundedAmount?: number | null;
  /** The credit notes of the invoice, in the order they were issued: each credits −its TotalAmount. */
  CreditNotes?: ReadonlyArray<{ InvoiceNumber: string; TotalAmount: number }>;
}

export interface PdfLine {
  Description?: string | null;
  PeriodFrom?: string | null;
  PeriodTo?: string | null;
  Quantity?: number | null;
  UnitPrice?: number | null;
  /** Percent. */
  TaxRate?: number | null;
  SubTotal?: number | null;
  TaxAmount?: number | null;
  TotalAmount?: number | null;
}

export interface PdfBusiness {
  Name: string;
  Address?: string | null;
  City?: string | null;
  PostCode?: string | null;
  CountryName?: string | null;
  Email?: string | null;
  WebAddress?: string | null;
}

export interface PdfDocumentInput {
  invoice: PdfInvoice;
  lines: readonly PdfLine[];
  business: PdfBusiness;
  /** The invoice's CII: the PDF is then a Factur-X that embeds it (factur-x.ts, docs/einvoices.md). */
  facturX?: string;
}

// Formats made once: toLocaleString builds a new one on every call.
const CENTS = new Intl.NumberFormat('en-GB', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const UNIT_PRICE = new Intl.NumberFormat('en-GB', { minimumFractionDigits: 2, maximumFractionDigits: 4 });
const UP_TO_FOUR = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 4 });
const DAY = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });

/** An amount as exact cents, rounded half away from zero (docs/api.md §9.1). */
export const centsOf = (value: number | null | undefined): bigint => roundToCents(toUnits(value ?? 0)) / CENT;

/** Cents as the PDF prints an amount: thousands grouped, exactly two decimals: 123450n → "1,234.50". */
export const formatCents = (cents: bigint): string => CENTS.format(Number(cents) / 100);

/** An amount as the PDF prints it (docs/api.md §10.3): thousands grouped, exactly two decimals, "1,234.50". */
export function formatAmount(value: number | null | undefined): string {
  return formatCents(centsOf(value));
}

/** A unit price keeps the decimals it was stored with (up to four), at least two: 12.3456 → "12.3456". */
export function formatUnitPrice(value: number | null | undefined): string {
  const amount = value ?? 0;
  return (toUnits(amount) % CENT === 0n ? CENTS : UNIT_PRICE).format(amount);
}

/**
 * The rows under an invoice's total that explain its amount due (docs/api.md §10.3), in cents, so the
 * printed rows add up to the printed amount due: each credit note by number, what was paid, what was
 * refunded (a refund never makes the invoice due again, docs/settlement.md, so it is taken off again),
 * a void, and the amount due.
 */
export function settlementRows(invoice: PdfInvoice): Array<{ label: string; cents: bigint }> {
  const rows: Array<{ label: string; cents: bigint }> = [];
  if (invoice.Void) rows.push({ label: 'Voided', cents: -centsOf(invoice.TotalAmount) });
  for (const note of invoice.CreditNotes ?? []) rows.push({ label: `Credit note ${note.InvoiceNumber}`, cents: centsOf(note.TotalAmount) });
  const paid = centsOf(invoice.PaidAmount);
  if (paid !== 0n || !invoice.Void) rows.push({ label: 'Paid', cents: -paid });
  const refunded = centsOf(invoice.RefundedAmount);
  if (refunded !== 0n) rows.push({ label: 'Refunded', cents: refunded }, { label: 'Refunds not due again', cents: -refunded });
  return rows;
}

/** A wire date-time as the PDF shows a date: "2025-03-31T00:00:00Z" → "31 Mar 2025". */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? '' : DAY.format(date);
}

/** A period as the PDF shows it: one date when it is a single day. */
export const formatPeriod = (from?: string | null, to?: string | null): string => {
  if (!from && !to) return '';
  if (from && to && from.slice(0, 10) === to.slice(0, 10)) return formatDate(from);
  return `${formatDate(from)} – ${formatDate(to)}`;
};

/** A tax rate: "20%", "5.5%". */
export const formatPercent = (rate: number | null | undefined): string => `${UP_TO_FOUR.format(rate ?? 0)}%`;

/** A quantity with up to four decimals: "1.5". */
export const formatQuantity = (quantity: number | null | undefined): string => UP_TO_FOUR.format(quantity ?? 0);

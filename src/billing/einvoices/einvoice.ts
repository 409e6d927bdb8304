import { CENT, proportionCents, roundToCents, sum, toUnits, UNIT, type Units } from '../../kernel/money.js';

/**
 * An invoice or credit note as an EN 16931 document (docs/api.md §14.3, docs/einvoices.md): the terms of
 * the standard, filled from the invoice, its lines, its business and its customer, before any syntax.
 * UBL (ubl.ts) and CII (cii.ts) only write this down, so both say the same thing.
 */

/** A line of the service's invoice, with what its tax rate says of VAT. Amounts are the database's. */
export interface SourceLine {
  Position: number;
  Description: string | null;
  Quantity: number | string;
  UnitPrice: number | string;
  SubTotal: number | string;
  TaxAmount: number | string;
  /** The percent captured when billed. */
  TaxRate: number | string;
  /** Dates as the wire writes them, or null. */
  PeriodFrom: string | null;
  PeriodTo: string | null;
  TaxRateId: number | null;
  VatCategoryCode: string | null;
  VatExemptionReasonText: string | null;
  VatExemptionReasonCode: string | null;
}

/** The invoice's wire fields a document reads, with its customer's buyer reference and the bill-to country's code. */
export interface SourceInvoice {
  Id: number;
  InvoiceNumber: string;
  CreatedOn: string;
  DueDate: string | null;
  InvoiceFromDate: string | null;
  InvoiceToDate: string | null;
  CurrencyCode: string | null;
  BillToName: string | null;
  BillToAddress: string | null;
  BillToCity: string | null;
  BillToPostCode: string | null;
  BillToCountryCode: string | null;
  BillToTaxIDNumber: string | null;
  TotalAmount: number | string;
  TaxAmount: number | string;
  PaidAmount: number | string | null;
  CreditNote: boolean;
  Void: boolean;
  BuyerReference: string | null;
}

/** The business at the time of export (docs/api.md §14.2). */
export interface SourceSeller {
  Name: string;
  LegalName: string | null;
  TaxIDNumber: string | null;
  LegalRegistrationNumber: string | null;
  Address: string | null;
  City: string | null;
  PostCode: string | null;
  CountryCode: string | null;
  BankAccountIban: string | null;
  BankAccountBic: string | null;
  PaymentMeansCode: number;
}

/** Everything one document is made of. `original`: for a credit note, the invoice it credits and its lines. */
export interface EInvoiceSource {
  invoice: SourceInvoice;
  lines: SourceLine[];
  seller: SourceSeller;
  original: { InvoiceNumber: string; CreatedOn: string; lines: SourceLine[] } | null;
}

export interface Address {
  line: string | null;
  city: string | null;
  postCode: string | null;
  country: string;
}

/** A VAT category and its rate as the document writes them (the rate left out for O). */
export interface VatKey {
  category: string;
  rate: string | null;
}

export interface DocumentLine extends VatKey {
  id: string;
  name: string;
  quantity: string;
  price: string;
  net: string;
  period: { from: string; to: string } | null;
}

export interface VatGroup extends VatKey {
  taxable: string;
  tax: string;
  reasonText: string | null;
  reasonCode: string | null;
}

export interface EInvoice {
  number: string;
  issueDate: string;
  typeCode: '380' | '381';
  creditNote: boolean;
  currency: string;
  dueDate: string | null;
  paymentTerms: string;
  period: { from: string; to: string } | null;
  buyerReference: string | null;
  preceding: { number: string; issueDate: string } | null;
  seller: { name: string; tradingName: string | null; vatId: string | null; legalId: string | null; address: Address };
  buyer: { name: string; vatId: string | null; address: Address };
  /**
   * K (intra-community supply) needs the country delivered to (BR-IC-12), the buyer's, and a delivery
   * date or an invoicing period (BR-IC-11): the issue date when the invoice has no period.
   */
  delivery: { country: string; date: string | null } | null;
  payment: { code: string; reference: string; iban: string; bic: string | null } | null;
  lines: DocumentLine[];
  vat: VatGroup[];
  totals: { lineNet: string; taxExclusive: string; tax: string; taxInclusive: string; paid: string | null; due: string };
}

/** Categories whose breakdown says why no VAT is charged (BT-120, BT-121). */
const EXEMPT = new Set(['E', 'AE', 'K', 'G', 'O']);
const HUNDRED = toUnits(100);

/** A UTC date-time as the date of the standard: "2025-03-31T10:00:00Z" → "2025-03-31". */
export const utcDate = (value: string): string => new Date(value).toISOString().slice(0, 10);

/** Units as an amount with exactly 2 decimals, rounded half away from zero (docs/api.md §9.1): "1234.50". */
export function amountText(value: Units): string {
  const cents = roundToCents(value) / CENT;
  const magnitude = cents < 0n ? -cents : cents;
  return `${cents < 0n ? '-' : ''}${magnitude / 100n}.${(magnitude % 100n).toString().padStart(2, '0')}`;
}

/** A unit price or quantity with the decimals it was stored with (up to 4), trailing zeros dropped: "12.5", "3". */
export function decimalText(value: Units): string {
  const negative = value < 0n;
  const magnitude = negative ? -value : value;
  const whole = magnitude / UNIT;
  const fraction = (magnitude % UNIT).toString().padStart(4, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** A unit price with its stored decimals and at least 2, as money reads: "4.50", "12.3456". */
function priceText(value: Units): string {
  const text = decimalText(value);
  const point = text.indexOf('.');
  return point < 0 ? `${text}.00` : text.length - point === 2 ? `${text}0` : text;
}

const rateOf = (line: SourceLine): string | null => (line.VatCategoryCode === 'O' ? null : decimalText(toUnits(line.TaxRate)));
const keyOf = (key: VatKey) => `${key.category}|${key.rate ?? ''}`;
const periodOf = (from: string | null, to: string | null) => (from && to ? { from: utcDate(from), to: utcDate(to) } : null);

/** The VAT groups of lines, in the order of each group's first line, with their net and tax sums (BG-23). */
function groupsOf(lines: readonly SourceLine[]): Array<{ key: VatKey; net: Units; tax: Units; rate: Units; line: SourceLine }> {
  const groups = new Map<string, { key: VatKey; net: Units; tax: Units; rate: Units; line: SourceLine }>();
  for (const line of lines) {
    const key = { category: line.VatCategoryCode!, rate: rateOf(line) };
    const group = groups.get(keyOf(key)) ?? { key, net: 0n, tax: 0n, rate: toUnits(line.TaxRate), line };
    group.net += roundToCents(toUnits(line.SubTotal));
    group.tax += roundToCents(toUnits(line.TaxAmount));
    groups.set(keyOf(key), group);
  }
  return [...groups.values()];
}

const vatGroup = (key: VatKey, net: Units, tax: Units, line: SourceLine): VatGroup => ({
  ...key,
  taxable: amountText(net),
  tax: amountText(tax),
  reasonText: EXEMPT.has(key.category) ? line.VatExemptionReasonText || null : null,
  reasonCode: EXEMPT.has(key.category) ? line.VatExemptionReasonCode || null : null,
});

/** The invoice's own lines, one per §9.1 line in Position order (BG-25), and their breakdown. */
function invoiceLines(source: EInvoiceSource): { lines: DocumentLine[]; vat: VatGroup[] } {
  const lines = source.lines.map((line): DocumentLine => ({
    id: String(line.Position),
    name: line.Description || '-',
    quantity: decimalText(toUnits(line.Quantity)),
    price: priceText(toUnits(line.UnitPrice)),
    net: amountText(toUnits(line.SubTotal)),
    category: line.VatCategoryCode!,
    rate: rateOf(line),
    period: periodOf(line.PeriodFrom, line.PeriodTo),
  }));
  return { lines, vat: groupsOf(source.lines).map((group) => vatGroup(group.key, group.net, group.tax, group.line)) };
}

/**
 * A credit note's one line split over its original's VAT groups (docs/api.md §14.3), so that each group
 * still balances: with N its net, each group gets round2(N × its share of the original's net), and the
 * group with the largest net takes the remainder; each group's tax is round2(net × rate ÷ 100), and the
 * taxed group with the largest net takes the remainder of the credit note's tax.
 */
function creditNoteLines(source: EInvoiceSource, total: Units, tax: Units): { lines: DocumentLine[]; vat: VatGroup[] } {
  const groups = groupsOf(source.original!.lines);
  const net = total - tax;
  const originalNet = sum(groups.map((group) => group.net));
  const largest = (candidates: typeof groups) =>
    candidates.reduce<(typeof groups)[number] | undefined>((best, group) => (!best || group.net > best.net ? group : best), undefined);
  const nets = new Map(groups.map((group) => [group, proportionCents(net, group.net, originalNet)]));
  const biggest = largest(groups)!;
  nets.set(biggest, net - sum([...nets].filter(([group]) => group !== biggest).map(([, value]) => value)));
  const taxes = new Map(groups.map((group) => [group, proportionCents(nets.get(group)!, group.rate, HUNDRED)]));
  const taxed = largest(groups.filter((group) => group.rate > 0n));
  if (taxed) taxes.set(taxed, tax - sum([...taxes].filter(([group]) => group !== taxed).map(([, value]) => value)));
  const name = source.lines[0]?.Description || `Credit of invoice ${source.original!.InvoiceNumber}`;
  return {
    lines: groups.map((group, index) => ({
      id: String(index + 1),
      name,
      quantity: '1',
      price: priceText(nets.get(group)!),
      net: amountText(nets.get(group)!),
      ...group.key,
      period: null,
    })),
    vat: groups.map((group) => vatGroup(group.key, nets.get(group)!, taxes.get(group)!, group.line)),
  };
}

const address = (line: string | null, city: string | null, postCode: string | null, country: string | null): Address => ({
  line: line || null,
  city: city || null,
  postCode: postCode || null,
  country: country ?? '',
});

/** The document of an invoice or credit note (docs/api.md §14.3); `source` passed the refusals (einvoice-refusals.ts). */
export function toEInvoice(source: EInvoiceSource): EInvoice {
  const { invoice, seller } = source;
  const creditNote = invoice.CreditNote;
  // A credit note's amounts are negative in the service and positive in the document.
  const sign = creditNote ? -1n : 1n;
  const total = roundToCents(toUnits(invoice.TotalAmount)) * sign;
  const tax = roundToCents(toUnits(invoice.TaxAmount)) * sign;
  const paid = creditNote ? 0n : roundToCents(toUnits(invoice.PaidAmount));
  const { lines, vat } = creditNote ? creditNoteLines(source, total, tax) : invoiceLines(source);
  const lineNet = sum(lines.map((line) => toUnits(line.net)));
  // Outside the scope of VAT (O): no VAT identifiers at all (BR-O-02).
  const outsideScope = lines.every((line) => line.category === 'O');
  const period = periodOf(invoice.InvoiceFromDate, invoice.InvoiceToDate);
  const dueDate = !creditNote && invoice.DueDate ? utcDate(invoice.DueDate) : null;
  const payment =
    !creditNote && seller.BankAccountIban
      ? {
          code: String(seller.PaymentMeansCode ?? 58),
          reference: invoice.InvoiceNumber,
          iban: seller.BankAccountIban,
          bic: seller.BankAccountBic || null,
        }
      : null;
  return {
    number: invoice.InvoiceNumber,
    issueDate: utcDate(invoice.CreatedOn),
    typeCode: creditNote ? '381' : '380',
    creditNote,
    currency: invoice.CurrencyCode ?? '',
    dueDate,
    paymentTerms: creditNote ? `Credit note of invoice ${source.original!.InvoiceNumber}` : dueDate ? `Due ${dueDate}` : 'Due on receipt',
    period,
    buyerReference: invoice.BuyerReference || null,
    preceding: creditNote ? { number: source.original!.InvoiceNumber, issueDate: utcDate(source.original!.CreatedOn) } : null,
    seller: {
      name: seller.LegalName || seller.Name,
      tradingName: seller.LegalName && seller.LegalName !== seller.Name ? seller.Name : null,
      vatId: outsideScope ? null : seller.TaxIDNumber,
      legalId: seller.LegalRegistrationNumber || null,
      address: address(seller.Address, seller.City, seller.PostCode, seller.CountryCode),
    },
    buyer: {
      name: invoice.BillToName!,
      vatId: outsideScope ? null : invoice.BillToTaxIDNumber || null,
      address: address(invoice.BillToAddress, invoice.BillToCity, invoice.BillToPostCode, invoice.BillToCountryCode),
    },
    delivery: lines.some((line) => line.category === 'K')
      ? { country: invoice.BillToCountryCode ?? '', date: period ? null : utcDate(invoice.CreatedOn) }
      : null,
    payment,
    lines,
    vat,
    totals: {
      lineNet: amountText(lineNet),
      taxExclusive: amountText(lineNet),
      tax: amountText(tax),
      taxInclusive: amountText(total),
      paid: paid > 0n ? amountText(paid) : null,
      due: amountText(total - paid),
    },
  };
}

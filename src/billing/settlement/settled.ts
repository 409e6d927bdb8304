import { sum, unitsText, type Units } from '../../kernel/money.js';
import type { InvoiceEntry, LockedInvoice } from './settlement.repository.js';

// The settled fields of an invoice as pure functions of its entries and credit notes (docs/api.md §10.1).

/** An invoice's settlement as its entries and credit notes make it (docs/api.md §10.1). */
export interface Settled {
  invoice: LockedInvoice;
  /** Σ Credit of its entries: its payments. */
  paid: Units;
  /** Σ Debit of its entries: its refunds. */
  refunded: Units;
  /** Σ of the amounts its credit notes credit (positive). */
  credited: Units;
  /** What is left to pay: 0 for a void invoice or a credit note. */
  due: Units;
  lastPaymentOn: number | null;
  lastRefundOn: number | null;
  hasPayments: boolean;
}

/** The settlement of an invoice from its entries and the amount its credit notes credit. */
export function settle(invoice: LockedInvoice, entries: readonly InvoiceEntry[], credited: Units): Settled {
  const payments = entries.filter((entry) => entry.Credit > 0n);
  const refunds = entries.filter((entry) => entry.Debit > 0n);
  const paid = sum(payments.map((entry) => entry.Credit));
  const refunded = sum(refunds.map((entry) => entry.Debit));
  const latest = (list: InvoiceEntry[]) => (list.length ? Math.max(...list.map((entry) => entry.TransactionDate)) : null);
  const due = invoice.Void || invoice.CreditNote ? 0n : invoice.TotalAmount - credited - paid;
  return {
    invoice,
    paid,
    refunded,
    credited,
    due,
    lastPaymentOn: latest(payments),
    lastRefundOn: latest(refunds),
    hasPayments: payments.length > 0,
  };
}

/** The invoice's read-only settled columns (docs/api.md §10.1), as written. */
export function settledFields(settled: Settled): Record<string, unknown> {
  const { invoice, paid, refunded, due } = settled;
  const paidInFull = !invoice.Void && !invoice.CreditNote && settled.hasPayments && due === 0n;
  return {
    PaidAmount: unitsText(invoice.CreditNote ? 0n : paid),
    DueAmount: unitsText(due),
    Paid: paidInFull,
    PaidOn: paidInFull ? new Date(settled.lastPaymentOn!) : null,
    Refunded: refunded > 0n,
    RefundedOn: refunded > 0n ? new Date(settled.lastRefundOn!) : null,
    RefundedAmount: unitsText(refunded),
  };
}

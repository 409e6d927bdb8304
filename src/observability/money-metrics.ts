import { Injectable, type OnModuleInit } from '@nestjs/common';
import { Counter } from 'prom-client';
import { ChangeLog, type RecordChange } from '../records/change-log/change-log.service.js';
import { Database } from '../persistence/database.js';
import type { WireRecord } from '../records/record-definition.js';
import { Metrics } from './metrics.js';

// The metrics of the money (docs/operations.md, "Metrics"): invoices issued, credit notes, payments and
// refunds recorded, bookings and check-ins made, counted from the change log as each record is created,
// once its transaction has committed (a rolled-back or retried write counts nothing). The record types
// are named here as the wire names them; nothing else of theirs is known.

/** The ledger entries the service writes itself for an invoice's life (docs/settlement.md): not payments. */
const SERVICE_ENTRY_CODES = new Set(['INV', 'CRN', 'VOID']);

/** What a created record counts as, if anything. */
type Counted = { counter: Counter; labels?: Record<string, string>; amount?: { counter: Counter; value: number } } | null;

@Injectable()
export class MoneyMetrics implements OnModuleInit {
  private readonly invoices: Counter;
  private readonly creditNotes: Counter;
  private readonly payments: Counter;
  private readonly paymentAmounts: Counter;
  private readonly refunds: Counter;
  private readonly bookings: Counter;
  private readonly checkins: Counter;

  constructor(
    private readonly metrics: Metrics,
    private readonly changeLog: ChangeLog,
    private readonly db: Database,
  ) {
    const registers = [metrics.registry];
    this.invoices = new Counter({
      name: 'coworking_invoices_issued_total',
      help: 'Customer invoices issued (by a billing run, the raise route or a create), credit notes not included.',
      registers,
    });
    this.creditNotes = new Counter({ name: 'coworking_credit_notes_total', help: 'Credit notes issued.', registers });
    this.payments = new Counter({
      name: 'coworking_payments_total',
      help: 'Payments of customer invoices recorded (ledger entries crediting an invoice).',
      registers,
    });
    this.paymentAmounts = new Counter({
      name: 'coworking_payments_amount_total',
      help: "The sum of the payments recorded, in each invoice's own currency (a sum across currencies: for rates, not for accounting).",
      registers,
    });
    this.refunds = new Counter({ name: 'coworking_refunds_total', help: 'Refunds of customer invoices recorded.', registers });
    this.bookings = new Counter({ name: 'coworking_bookings_total', help: 'Bookings made.', registers });
    this.checkins = new Counter({ name: 'coworking_checkins_total', help: 'Check-ins made.', registers });
  }

  onModuleInit(): void {
    if (!this.metrics.enabled) return;
    this.changeLog.listen({
      probe: () => null,
      apply: (tx, change) => {
        const counted = change.action === 'Create' && change.after ? this.classify(change, change.after) : null;
        if (counted) {
          this.db.afterCommit(tx, () => {
            counted.counter.inc(counted.labels ?? {});
            if (counted.amount) counted.amount.counter.inc(counted.amount.value);
          });
        }
        return Promise.resolve();
      },
    });
  }

  private classify(change: RecordChange, record: WireRecord): Counted {
    switch (change.definition.name) {
      case 'CoworkerInvoice':
        return { counter: isTrue(record.CreditNote) ? this.creditNotes : this.invoices };
      case 'CoworkerLedgerEntry': {
        if (
          record.CoworkerInvoiceId === null ||
          record.CoworkerInvoiceId === undefined ||
          SERVICE_ENTRY_CODES.has(String(record.Code ?? ''))
        )
          return null;
        const credit = Number(record.Credit ?? 0);
        if (credit > 0) return { counter: this.payments, amount: { counter: this.paymentAmounts, value: credit } };
        return Number(record.Debit ?? 0) > 0 ? { counter: this.refunds } : null;
      }
      case 'Booking':
        return { counter: this.bookings };
      case 'Checkin':
        return { counter: this.checkins };
      default:
        return null;
    }
  }
}

const isTrue = (value: unknown) => value === true || value === 1 || value === '1';

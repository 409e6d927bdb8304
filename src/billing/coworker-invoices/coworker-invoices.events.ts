import { Inject, Injectable } from '@nestjs/common';
import type { RecordChange } from '../../records/change-log/change-log.service.js';
import type { EventDelivery, RecordEvents } from '../../records/record-events.js';
import { CoworkerInvoicesRepository } from './coworker-invoices.repository.js';
import type { Tx } from '../../persistence/tx.js';

const CREATE_FIRST = 'CoworkerInvoiceCreateFirst';

/**
 * The webhook actions of customer invoice changes (src/integrations/webhooks/webhook-actions.ts): a customer's
 * first invoice, paid, settlement (docs/api.md §10: a payment raises PaidAmount, a refund
 * RefundedAmount) and credit notes (a credit note is an invoice).
 */
@Injectable()
export class CoworkerInvoiceEvents implements RecordEvents {
  readonly actions = { Create: 'CoworkerInvoiceCreate', Update: 'CoworkerInvoiceUpdate', Delete: 'CoworkerInvoiceDelete' } as const;
  @Inject(CoworkerInvoicesRepository) private readonly invoices: CoworkerInvoicesRepository;

  fired({ action, before, after }: RecordChange): string[] {
    const actions: string[] = [];
    if (action === 'Create') actions.push(CREATE_FIRST);
    if (after?.Paid === true && before?.Paid !== true) actions.push('CoworkerInvoicePaid');
    if (action === 'Create' && after?.CreditNote === true) actions.push('CoworkerInvoiceCreditNote');
    if (action === 'Update' && Number(after!.PaidAmount) > Number(before!.PaidAmount)) actions.push('CoworkerInvoiceReceivedPayment');
    if (action === 'Update' && Number(after!.RefundedAmount) > Number(before!.RefundedAmount)) actions.push('CoworkerInvoiceRefund');
    return actions;
  }

  /** CoworkerInvoiceCreateFirst is delivered only for the customer's first invoice. */
  async delivery(action: string, change: RecordChange, tx: Tx): Promise<EventDelivery | null | undefined> {
    if (action !== CREATE_FIRST) return undefined;
    const invoice = await change.record();
    return (await this.invoices.invoiceCount(invoice.CoworkerId, tx)) === 1 ? undefined : null;
  }
}

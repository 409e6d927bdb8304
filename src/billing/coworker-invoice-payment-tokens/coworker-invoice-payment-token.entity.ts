import { Entity } from 'typeorm';
import { IntColumn, LongTextColumn } from '../../records/columns.js';
import { RecordEntity } from '../../records/record.entity.js';
import { CoworkerInvoice } from '../coworker-invoices/coworker-invoice.entity.js';

/**
 * Codes of the provider that processed an invoice (docs/api.md §9.5; the codes are the contract, most names
 * are not given): 1 MultiGateway; 2–10 provider-specific (4 and 5 subscription types, 6 adaptive
 * payments); 11 a bank-debit (ACH) variant, 12 a direct-debit provider, 13 a bank-debit (BACS)
 * variant; 94 CreditNote, 95 GiftCard, 96 BankTransfer, 97 Cash, 98 Check, 99 Other.
 */
export const REGULAR_PAYMENT_PROVIDERS: readonly number[] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 94, 95, 96, 97, 98, 99];

/** A provider token used to authorise or capture the payment of a customer invoice (docs/api.md §9.5). */
@Entity('coworkerinvoicepaymenttoken')
export class CoworkerInvoicePaymentToken extends RecordEntity {
  @IntColumn({ nullable: false, references: () => CoworkerInvoice }) CoworkerInvoiceId: number;
  @IntColumn() RegularPaymentProvider: number | null;
  @LongTextColumn() Token: string | null;
  @LongTextColumn() Notes: string | null;
}

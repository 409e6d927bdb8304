import { DateTime, Enum, Money, Reference, Text } from '../../../records/validation/fields.js';
import { RecordDto } from '../../../records/validation/record.dto.js';
import { Coworker } from '../../../customers/coworker.entity.js';
import { Business } from '../../../kernel/businesses/business.entity.js';
import { CoworkerInvoice } from '../../coworker-invoices/coworker-invoice.entity.js';
import { PaymentProvider } from '../coworker-ledger-entry.entity.js';

/**
 * A ledger entry's request fields (docs/api.md §10.1). Exactly one of Debit and Credit is above 0; a
 * `Balance` in the body is ignored (it is read-only).
 */
export class CoworkerLedgerEntryDto extends RecordDto {
  @Reference(() => Business, { required: true }) BusinessId: number;
  /** The customer whose account moves: a customer of BusinessId. */
  @Reference(() => Coworker, { required: true, sameBusiness: true }) CoworkerId: number;
  /** The invoice paid (Credit) or refunded (Debit): an invoice of CoworkerId. */
  @Reference(() => CoworkerInvoice) CoworkerInvoiceId?: number | null;
  @Text({ long: true }) Description?: string | null;
  /** Free text, e.g. PAYM. */
  @Text() Code?: string | null;
  @Money({ min: 0, cents: true }) Debit?: number | null;
  @Money({ min: 0, cents: true }) Credit?: number | null;
  /** `ePaymentProvider`; 11 Manual unless given. */
  @Enum(PaymentProvider) PaymentGatewayName?: number | null;
  /** When the money moved; now unless given. */
  @DateTime() TransactionDate?: Date | null;
}

/** An update: every field may be left out (it keeps its stored value), the required ones included. */
export class CoworkerLedgerEntryUpdateDto extends CoworkerLedgerEntryDto {
  @Reference(() => Business) declare BusinessId: number;
  @Reference(() => Coworker, { sameBusiness: true }) declare CoworkerId: number;
}

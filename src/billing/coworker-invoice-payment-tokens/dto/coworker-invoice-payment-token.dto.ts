import { Enum, Reference, Text } from '../../../records/validation/fields.js';
import { RecordDto } from '../../../records/validation/record.dto.js';
import { CoworkerInvoice } from '../../coworker-invoices/coworker-invoice.entity.js';
import { REGULAR_PAYMENT_PROVIDERS } from '../coworker-invoice-payment-token.entity.js';

/** Fields of docs/api.md §9.5 (update, §4.6, adds Id). */
export class CoworkerInvoicePaymentTokenDto extends RecordDto {
  /** The customer invoice the token is linked to. */
  @Reference(() => CoworkerInvoice, { required: true }) CoworkerInvoiceId: number;
  /** Provider that processed the invoice: 1–13 or 94–99. */
  @Enum(REGULAR_PAYMENT_PROVIDERS) RegularPaymentProvider?: number | null;
  /** Provider-specific token used to authorise or capture payment. */
  @Text({ long: true }) Token?: string | null;
  @Text({ long: true }) Notes?: string | null;
}

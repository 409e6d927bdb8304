import { defineRecord } from '../../records/record-definition.js';
import { CoworkerInvoice } from '../coworker-invoices/coworker-invoice.entity.js';
import { CoworkerInvoicePaymentToken } from './coworker-invoice-payment-token.entity.js';
import { CoworkerInvoicePaymentTokenDto } from './dto/coworker-invoice-payment-token.dto.js';

export const coworkerInvoicePaymentTokens = defineRecord({
  name: 'CoworkerInvoicePaymentToken',
  path: 'billing/coworkerinvoicepaymenttokens',
  // A type of the source document: required fields stay required on update (docs/api.md §1.2).
  requiredOnUpdate: true,
  entity: CoworkerInvoicePaymentToken,
  dto: CoworkerInvoicePaymentTokenDto,
  business: { via: () => CoworkerInvoice, on: 'CoworkerInvoiceId' },
  reads: {
    /** The number of the invoice the token pays. */
    InvoiceNumber: { from: () => CoworkerInvoice, on: 'CoworkerInvoiceId', column: 'InvoiceNumber' },
  },
  toStringText: (t) => `Invoice ${t.InvoiceNumber} payment token`,
});

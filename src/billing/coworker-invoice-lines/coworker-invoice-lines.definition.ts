import { defineRecord } from '../../records/record-definition.js';
import { CoworkerInvoice } from '../coworker-invoices/coworker-invoice.entity.js';
import { CoworkerInvoiceLine } from './coworker-invoice-line.entity.js';

/** Invoice lines: written by billing runs only, read through the API (docs/billing.md). */
export const coworkerInvoiceLines = defineRecord({
  name: 'CoworkerInvoiceLine',
  path: 'billing/coworkerinvoicelines',
  entity: CoworkerInvoiceLine,
  operations: ['list', 'get'],
  methodNotAllowed: true,
  business: { via: () => CoworkerInvoice, on: 'CoworkerInvoiceId' },
  hidden: ['BilledItemKey'],
  toStringText: (l) => String(l.Description ?? ''),
});

import { Module } from '@nestjs/common';
import { defineRecord } from '../../common/record-definition.js';
import { recordModule } from '../../common/record.module.js';
import { CoworkerInvoice } from '../coworker-invoices/coworker-invoice.entity.js';
import { CoworkerInvoiceLine } from './coworker-invoice-line.entity.js';
import { CoworkerInvoiceLinesService } from './coworker-invoice-lines.service.js';

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

@Module(recordModule(coworkerInvoiceLines, { service: CoworkerInvoiceLinesService }))
export class CoworkerInvoiceLinesModule {}

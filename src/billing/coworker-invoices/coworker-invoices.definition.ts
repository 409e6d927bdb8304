import { defineRecord } from '../../records/record-definition.js';
import { CoworkerInvoice } from './coworker-invoice.entity.js';
import { CoworkerInvoiceDto } from './dto/coworker-invoice.dto.js';

export const coworkerInvoices = defineRecord({
  name: 'CoworkerInvoice',
  path: 'billing/coworkerinvoices',
  entity: CoworkerInvoice,
  dto: CoworkerInvoiceDto,
  business: { column: 'BusinessId' },
  // Settlement's commands (docs/api.md §10.2): src/billing/settlement/invoice-commands.ts.
  commands: true,
  hidden: ['SettlementSequence'],
  toStringText: (i) => `${i.InvoiceNumber} - ${i.BillToName}`,
});

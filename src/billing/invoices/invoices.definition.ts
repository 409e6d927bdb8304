import { defineRecord } from '../../records/record-definition.js';
import { InvoiceDto, InvoiceUpdateDto } from './dto/invoice.dto.js';
import { Invoice } from './invoice.entity.js';

export const invoices = defineRecord({
  name: 'Invoice',
  path: 'billing/invoices',
  // A type of the source document: required fields stay required on update (docs/api.md §1.2).
  requiredOnUpdate: true,
  entity: Invoice,
  dto: InvoiceDto,
  updateDto: InvoiceUpdateDto,
  // Issued invoices are kept: there is no delete (docs/api.md §3).
  operations: ['list', 'get', 'create', 'update'],
  business: { column: 'BusinessId' },
  toStringText: (i) => String(i.InvoiceNumber),
});

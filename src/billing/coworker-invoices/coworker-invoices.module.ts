import { Module } from '@nestjs/common';
import { defineRecord } from '../../common/record-definition.js';
import { recordModule } from '../../common/record.module.js';
import { CoworkerInvoice } from './coworker-invoice.entity.js';
import { InvoiceIssuanceRepository } from '../invoice-issuance.repository.js';
import { CoworkerInvoicesRepository } from './coworker-invoices.repository.js';
import { CoworkerInvoicesService } from './coworker-invoices.service.js';
import { CoworkerInvoiceDto } from './dto/coworker-invoice.dto.js';
import { SettlementRepository } from '../settlement/settlement.repository.js';

export const coworkerInvoices = defineRecord({
  name: 'CoworkerInvoice',
  path: 'billing/coworkerinvoices',
  entity: CoworkerInvoice,
  dto: CoworkerInvoiceDto,
  business: { column: 'BusinessId' },
  // Settlement's commands (docs/api.md §10.2): src/billing/settlement/invoice-commands.ts.
  commands: true,
  toStringText: (i) => `${i.InvoiceNumber} - ${i.BillToName}`,
});

@Module(recordModule(coworkerInvoices, { service: CoworkerInvoicesService, providers: [InvoiceIssuanceRepository, CoworkerInvoicesRepository, SettlementRepository] }))
export class CoworkerInvoicesModule {}

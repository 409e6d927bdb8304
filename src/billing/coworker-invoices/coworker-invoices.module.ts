import { Module } from '@nestjs/common';
import { RecordModule } from '../../records/record.module.js';
import { InvoiceIssuanceRepository } from '../invoice-issuance.repository.js';
import { coworkerInvoices } from './coworker-invoices.definition.js';
import { CoworkerInvoicesRepository } from './coworker-invoices.repository.js';
import { CoworkerInvoicesRules } from './coworker-invoices.rules.js';
import { CoworkerInvoicesService } from './coworker-invoices.service.js';
import { CoworkerInvoiceEvents } from './coworker-invoices.events.js';

@Module(
  RecordModule.forType({
    definition: coworkerInvoices,
    events: CoworkerInvoiceEvents,
    rules: CoworkerInvoicesRules,
    // InvoiceBooks comes from settlement's module (global).
    providers: [InvoiceIssuanceRepository, CoworkerInvoicesRepository, CoworkerInvoicesService],
    exports: [CoworkerInvoicesService],
  }),
)
export class CoworkerInvoicesModule {}

import { Module } from '@nestjs/common';
import { RecordModule } from '../../records/record.module.js';
import { InvoiceIssuanceRepository } from '../invoice-issuance.repository.js';
import { invoices } from './invoices.definition.js';
import { InvoicesRules } from './invoices.rules.js';

@Module(RecordModule.forType({ definition: invoices, rules: InvoicesRules, providers: [InvoiceIssuanceRepository] }))
export class InvoicesModule {}

import { Module } from '@nestjs/common';
import { DownloadsModule } from '../../downloads/downloads.module.js';
import { SettlementModule } from '../settlement/settlement.module.js';
import { EInvoiceExports } from './einvoice-exports.js';
import { EInvoicesRepository } from './einvoices.repository.js';

/** E-invoices (docs/einvoices.md): the EN 16931 export command of customer invoices. */
@Module({ imports: [SettlementModule, DownloadsModule], providers: [EInvoicesRepository, EInvoiceExports] })
export class EInvoicesModule {}

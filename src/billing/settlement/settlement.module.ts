import { Global, Module } from '@nestjs/common';
import { DownloadsModule } from '../../downloads/downloads.module.js';
import { BillingRunsModule } from '../billing-runs/billing-runs.module.js';
import { ContractProductsModule } from '../contract-products/contract-products.module.js';
import { CoworkerBookingCreditUseHistoriesModule } from '../coworker-booking-credit-use-histories/coworker-booking-credit-use-histories.module.js';
import { CoworkerContractsModule } from '../coworker-contracts/coworker-contracts.module.js';
import { InvoiceBooks } from '../coworker-invoices/invoice-books.js';
import { CoworkerInvoicesModule } from '../coworker-invoices/coworker-invoices.module.js';
import { EntrySettlement } from '../coworker-ledger-entries/entry-settlement.js';
import { CoworkerLedgerEntriesModule } from '../coworker-ledger-entries/coworker-ledger-entries.module.js';
import { CoworkerProductsModule } from '../coworker-products/coworker-products.module.js';
import { InvoicePdfRenderer } from '../invoice-pdf/invoice-pdf.renderer.js';
import { InvoiceCommands } from './invoice-commands.js';
import { InvoiceLedger } from './invoice-ledger.js';
import { InvoicePrints } from './invoice-prints.js';
import { InvoiceRelease } from './invoice-release.js';
import { InvoiceSettlement } from './invoice-settlement.js';
import { SettlementBooks } from './settlement-books.js';
import { SettlementRepository } from './settlement.repository.js';

/**
 * Settlement (docs/settlement.md): the settled fields of invoices, their own ledger entries, the commands,
 * the release of what a deleted invoice billed (through the billing run's due-item sources), printing.
 */
@Module({
  imports: [
    CoworkerInvoicesModule,
    CoworkerLedgerEntriesModule,
    DownloadsModule,
    CoworkerContractsModule,
    ContractProductsModule,
    CoworkerProductsModule,
    BillingRunsModule,
    CoworkerBookingCreditUseHistoriesModule,
  ],
  providers: [
    SettlementRepository,
    InvoiceSettlement,
    InvoiceLedger,
    SettlementBooks,
    InvoiceCommands,
    InvoicePrints,
    InvoicePdfRenderer,
    InvoiceRelease,
    { provide: InvoiceBooks, useExisting: SettlementBooks },
    { provide: EntrySettlement, useExisting: InvoiceSettlement },
  ],
  // The e-invoice export (src/billing/einvoices/) makes its Factur-X PDFs and bounds as prints do.
  exports: [InvoiceBooks, EntrySettlement, InvoicePrints, SettlementRepository],
})
// Global: the invoices' and the ledger entries' rules (lower parts) reach settlement through InvoiceBooks and EntrySettlement.
@Global()
export class SettlementModule {}

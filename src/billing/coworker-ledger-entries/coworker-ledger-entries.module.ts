import { Module } from '@nestjs/common';
import { RecordModule } from '../../records/record.module.js';
import { DownloadsModule } from '../../downloads/downloads.module.js';
import { BillingRunsModule } from '../billing-runs/billing-runs.module.js';
import { CoworkerBookingCreditUseHistoriesModule } from '../coworker-booking-credit-use-histories/coworker-booking-credit-use-histories.module.js';
import { ContractProductsModule } from '../contract-products/contract-products.module.js';
import { CoworkerContractsModule } from '../coworker-contracts/coworker-contracts.module.js';
import { CoworkerInvoicesModule } from '../coworker-invoices/coworker-invoices.module.js';
import { CoworkerProductsModule } from '../coworker-products/coworker-products.module.js';
import { InvoicePdfRenderer } from '../invoice-pdf/invoice-pdf.renderer.js';
import { InvoiceCommands } from '../settlement/invoice-commands.js';
import { InvoicePrints } from '../settlement/invoice-prints.js';
import { InvoiceRelease } from '../settlement/invoice-release.js';
import { InvoiceSettlement } from '../settlement/invoice-settlement.js';
import { SettlementRepository } from '../settlement/settlement.repository.js';
import { coworkerLedgerEntries } from './coworker-ledger-entries.definition.js';
import { CoworkerLedgerEntriesRules } from './coworker-ledger-entries.rules.js';

@Module(
  RecordModule.forType({
    definition: coworkerLedgerEntries,
    rules: CoworkerLedgerEntriesRules,
    providers: [InvoiceSettlement, SettlementRepository, InvoiceCommands, InvoicePrints, InvoicePdfRenderer, InvoiceRelease],
    // The e-invoice export (src/billing/einvoices/) makes its Factur-X PDFs and bounds as prints do.
    exports: [InvoicePrints, SettlementRepository],
    imports: [
      CoworkerInvoicesModule,
      DownloadsModule,
      CoworkerContractsModule,
      ContractProductsModule,
      CoworkerProductsModule,
      BillingRunsModule,
      CoworkerBookingCreditUseHistoriesModule,
    ],
  }),
)
export class CoworkerLedgerEntriesModule {}

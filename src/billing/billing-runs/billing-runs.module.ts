import { Module } from '@nestjs/common';
import { RecordModule } from '../../records/record.module.js';
import { ContractProductsModule } from '../contract-products/contract-products.module.js';
import { CoworkerContractsModule } from '../coworker-contracts/coworker-contracts.module.js';
import { CoworkerInvoiceLinesModule } from '../coworker-invoice-lines/coworker-invoice-lines.module.js';
import { CoworkerInvoicesModule } from '../coworker-invoices/coworker-invoices.module.js';
import { CoworkerProductsModule } from '../coworker-products/coworker-products.module.js';
import { DueItemSources } from '../due-items/due-items.js';
import { CoworkerBookingCreditUseHistoriesModule } from '../coworker-booking-credit-use-histories/coworker-booking-credit-use-histories.module.js';
import { UniversalCredits } from './universal-credits.js';
import { BillingRunWorker } from './billing-run.worker.js';
import { BillingRunner } from './billing-runner.js';
import { BatchIssuance } from './batch-issuance.js';
import { billingRuns } from './billing-runs.definition.js';
import { BillingRunsService } from './billing-runs.service.js';
import { BuiltInDueSources } from './built-in-sources.js';
import { RaiseInvoiceController } from './raise-invoice.controller.js';
import { TeamInvoicing } from './team-invoicing.js';

@Module(
  RecordModule.forType({
    definition: billingRuns,
    imports: [
      CoworkerContractsModule,
      ContractProductsModule,
      CoworkerProductsModule,
      CoworkerInvoicesModule,
      CoworkerInvoiceLinesModule,
      CoworkerBookingCreditUseHistoriesModule,
    ],
    providers: [
      BillingRunsService,
      DueItemSources,
      BuiltInDueSources,
      BillingRunner,
      BatchIssuance,
      BillingRunWorker,
      TeamInvoicing,
      UniversalCredits,
    ],
    controllers: [RaiseInvoiceController],
    exports: [BillingRunsService, DueItemSources],
  }),
)
export class BillingRunsModule {}

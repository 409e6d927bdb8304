import { Global, Module } from '@nestjs/common';
import { CustomerPlans } from '../../customers/coworkers/customer-plans.js';
import { RecordModule } from '../../records/record.module.js';
import { coworkerContracts } from './coworker-contracts.definition.js';
import { CoworkerContractsRepository } from './coworker-contracts.repository.js';
import { CoworkerContractsRules } from './coworker-contracts.rules.js';
import { coworkerContractEvents } from './coworker-contracts.events.js';

@Module(
  RecordModule.forType({
    definition: coworkerContracts,
    events: coworkerContractEvents,
    rules: CoworkerContractsRules,
    providers: [CoworkerContractsRepository, { provide: CustomerPlans, useExisting: CoworkerContractsRules }],
    exports: [CustomerPlans],
  }),
)
// Global: a customer's TariffId (customers, a lower layer) starts and ends contracts through CustomerPlans.
@Global()
export class CoworkerContractsModule {}

import { Module } from '@nestjs/common';
import { RecordModule } from '../../records/record.module.js';
import { BillingRunsModule } from '../billing-runs/billing-runs.module.js';
import { ChargeItems } from './charge-items.js';
import { charges } from './charges.definition.js';
import { ChargesRules } from './charges.rules.js';

@Module(RecordModule.forType({ definition: charges, rules: ChargesRules, providers: [ChargeItems], imports: [BillingRunsModule] }))
export class ChargesModule {}

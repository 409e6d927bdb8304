import { Module } from '@nestjs/common';
import { CoworkerTimePassesModule } from '../coworker-time-passes/coworker-time-passes.module.js';
import { BillingRunsModule } from './billing-runs.module.js';
import { TimePassCharges } from './time-pass-charges.js';

/**
 * Passes as a due-item source of billing runs (time-pass-charges.ts), kept with the runs that bill them
 * (docs/architecture.md §6). A module apart from the passes' own: sales release passes, and billing runs
 * read sales, so the passes' module cannot import billing runs.
 */
@Module({ imports: [BillingRunsModule, CoworkerTimePassesModule], providers: [TimePassCharges] })
export class TimePassBillingModule {}

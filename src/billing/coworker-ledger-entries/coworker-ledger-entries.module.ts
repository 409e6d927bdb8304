import { Module } from '@nestjs/common';
import { RecordModule } from '../../records/record.module.js';
import { coworkerLedgerEntries } from './coworker-ledger-entries.definition.js';
import { CoworkerLedgerEntriesRules } from './coworker-ledger-entries.rules.js';

// EntrySettlement comes from settlement's module (global).
@Module(RecordModule.forType({ definition: coworkerLedgerEntries, rules: CoworkerLedgerEntriesRules }))
export class CoworkerLedgerEntriesModule {}

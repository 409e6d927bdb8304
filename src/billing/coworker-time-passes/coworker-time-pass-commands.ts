import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { claimCommand } from '../../records/commands/claim-command.js';
import { RecordCommands } from '../../records/commands/record-commands.js';
import { InjectRecords } from '../../records/record.module.js';
import type { RecordService } from '../../records/record.service.js';
import { coworkerTimePasses } from './coworker-time-passes.definition.js';
import { CoworkerTimePassesRepository } from './coworker-time-passes.repository.js';

/**
 * `POST /api/billing/coworkertimepasses/runcommand` `USE_TIME_PASS` (docs/presence.md): every pass of the
 * ids reads Used, UsedDate now, in one transaction; one used already refuses the whole command. Each is
 * one conditional UPDATE, so of parallel commands (or check-ins) on one pass exactly one uses it.
 */
@Injectable()
export class CoworkerTimePassCommands implements OnModuleInit {
  @Inject(RecordCommands) private readonly commands: RecordCommands;
  @Inject(CoworkerTimePassesRepository) private readonly passes: CoworkerTimePassesRepository;
  @InjectRecords(coworkerTimePasses) private readonly records: RecordService;

  onModuleInit(): void {
    this.commands.register(
      coworkerTimePasses,
      claimCommand({
        key: 'USE_TIME_PASS',
        name: 'Use time pass',
        permission: { entity: coworkerTimePasses.name, action: 'Edit' },
        done: (pass) => pass.Used === true,
        doneAlready: (id) => `CoworkerTimePass ${id} has been used already.`,
        claim: (id, at, by, tx) => this.passes.claim(id, at, by, tx),
        records: this.records,
      }),
    );
  }
}

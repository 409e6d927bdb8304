import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { RecordCommands } from '../../common/commands/record-commands.js';
import { refusal } from '../../common/errors.js';
import { InjectRecords } from '../../common/record.module.js';
import type { RecordService } from '../../common/record.service.js';
import { coworkerTimePasses } from './coworker-time-passes.definition.js';
import { CoworkerTimePassesRepository } from './coworker-time-passes.repository.js';

const alreadyUsed = (id: unknown) => `CoworkerTimePass ${id} has been used already.`;

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
    this.commands.register('CoworkerTimePass', {
      key: 'USE_TIME_PASS',
      name: 'Use time pass',
      permission: { entity: 'CoworkerTimePass', action: 'Edit' },
      refuses: (pass) => (pass.Used === true ? alreadyUsed(pass.Id) : null),
      run: async ({ records, manager, actor }) => {
        const now = new Date();
        for (const pass of records) {
          // Used meanwhile by a check-in or another command: the refusal rolls back the others.
          if (!(await this.passes.claim(Number(pass.Id), now, actor?.email ?? null, manager!))) throw refusal(alreadyUsed(pass.Id));
          await this.records.recordChange(manager!, actor, 'Update', Number(pass.Id), pass);
        }
        return null;
      },
    });
  }
}

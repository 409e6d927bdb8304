import { Module } from '@nestjs/common';
import { RecordModule } from '../../records/record.module.js';
import { CoworkerTimePassCommands } from './coworker-time-pass-commands.js';
import { coworkerTimePasses } from './coworker-time-passes.definition.js';
import { CoworkerTimePassesRepository } from './coworker-time-passes.repository.js';
import { CoworkerTimePassesRules } from './coworker-time-passes.rules.js';
import { CoworkerTimePassesService } from './coworker-time-passes.service.js';

@Module(
  RecordModule.forType({
    definition: coworkerTimePasses,
    rules: CoworkerTimePassesRules,
    providers: [CoworkerTimePassesRepository, CoworkerTimePassesService, CoworkerTimePassCommands],
    exports: [CoworkerTimePassesService],
  }),
)
export class CoworkerTimePassesModule {}

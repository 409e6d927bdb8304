import { Module } from '@nestjs/common';
import { RecordModule } from '../../records/record.module.js';
import { tariffs } from './tariffs.definition.js';
import { tariffEvents } from './tariffs.events.js';

@Module(RecordModule.forType({ definition: tariffs, events: tariffEvents }))
export class TariffsModule {}

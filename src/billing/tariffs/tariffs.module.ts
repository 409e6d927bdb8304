import { Module } from '@nestjs/common';
import { RecordModule } from '../../common/record.module.js';
import { tariffs } from './tariffs.definition.js';

@Module(RecordModule.forType({ definition: tariffs }))
export class TariffsModule {}

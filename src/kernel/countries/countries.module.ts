import { Module } from '@nestjs/common';
import { RecordModule } from '../../records/record.module.js';
import { countries } from './countries.definition.js';

@Module(RecordModule.forType({ definition: countries }))
export class CountriesModule {}

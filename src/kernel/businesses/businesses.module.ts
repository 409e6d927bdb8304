import { Module } from '@nestjs/common';
import { RecordModule } from '../../records/record.module.js';
import { businesses } from './businesses.definition.js';
import { businessEvents } from './businesses.events.js';

@Module(RecordModule.forType({ definition: businesses, events: businessEvents }))
export class BusinessesModule {}

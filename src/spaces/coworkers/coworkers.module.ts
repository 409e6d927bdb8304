import { Module } from '@nestjs/common';
import { defineRecord } from '../../common/record-definition.js';
import { recordModule } from '../../common/record.module.js';
import { Tariff } from '../../billing/tariffs/tariff.entity.js';
import { Coworker } from './coworker.entity.js';
import { CoworkerDto } from './dto/coworker.dto.js';

export const coworkers = defineRecord({
  name: 'Coworker',
  path: 'spaces/coworkers',
  entity: Coworker,
  dto: CoworkerDto,
  business: { column: 'BusinessId' },
  reads: {
    TariffName: { from: () => Tariff, on: 'TariffId', column: 'Name' },
  },
  computed: {
    ActiveContract: (c) => c.TariffId !== null,
  },
  toStringText: (c) => String(c.FullName),
});

@Module(recordModule(coworkers))
export class CoworkersModule {}

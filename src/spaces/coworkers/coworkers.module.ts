import { Module } from '@nestjs/common';
import { defineRecord } from '../../common/record-definition.js';
import { recordModule } from '../../common/record.module.js';
import { Tariff } from '../../billing/tariffs/tariff.entity.js';
import { UsersModule } from '../../sys/users/users.module.js';
import { Coworker } from './coworker.entity.js';
import { CoworkersService } from './coworkers.service.js';
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

@Module(recordModule(coworkers, { service: CoworkersService, imports: [UsersModule] }))
export class CoworkersModule {}

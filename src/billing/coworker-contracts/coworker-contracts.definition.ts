import { defineRecord } from '../../records/record-definition.js';
import { Coworker } from '../../customers/coworker.entity.js';
import { Tariff } from '../tariffs/tariff.entity.js';
import { CoworkerContract } from './coworker-contract.entity.js';
import { activeFieldSql } from './coworker-contracts.repository.js';
import { CoworkerContractDto } from './dto/coworker-contract.dto.js';

export const coworkerContracts = defineRecord({
  name: 'CoworkerContract',
  path: 'billing/coworkercontracts',
  entity: CoworkerContract,
  dto: CoworkerContractDto,
  business: { via: () => Coworker, on: 'CoworkerId' },
  reads: {
    // Started and not cancelled as of the moment of the read; lists filter and sort on it.
    Active: { kind: 'bool', nullable: false, sql: activeFieldSql },
    TariffName: { from: () => Tariff, on: 'TariffId', column: 'Name' },
    CoworkerFullName: { from: () => Coworker, on: 'CoworkerId', column: 'FullName' },
  },
  toStringText: (c) => `${c.CoworkerFullName} - ${c.TariffName}`,
});

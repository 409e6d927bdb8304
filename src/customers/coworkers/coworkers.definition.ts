import { defineRecord, type WireRecord } from '../../records/record-definition.js';
import { Coworker } from '../coworker.entity.js';
import { coworkerReadSql } from './coworkers.repository.js';
import { CoworkerDto } from './dto/coworker.dto.js';

const sortedIds = (value: unknown) => [...(value as number[])].sort((a, b) => a - b);

/** FullName split at its last space: "Ada King Lovelace" is Ada King + Lovelace; one word is a first name. */
function guessedNames(fullName: unknown): [string, string] {
  const name = String(fullName ?? '').trim();
  const cut = name.lastIndexOf(' ');
  return cut < 0 ? [name, ''] : [name.slice(0, cut).trim(), name.slice(cut + 1)];
}

export const coworkers = defineRecord({
  name: 'Coworker',
  path: 'spaces/coworkers',
  entity: Coworker,
  dto: CoworkerDto,
  business: { column: 'BusinessId' },
  // COWORKER_BILL_RUN (docs/billing.md) is registered by the billing run.
  commands: true,
  hidden: ['BillingSequence'],
  reads: {
    // The tariff of the customer's main active contract (the primary one, else the first started).
    TariffId: { kind: 'int', sql: coworkerReadSql.TariffId },
    TariffName: { kind: 'text', sql: coworkerReadSql.TariffName },
    UserId: { kind: 'int', sql: coworkerReadSql.UserId },
    Teams: { kind: 'idList', sql: coworkerReadSql.Teams },
    CoworkerContractIds: { kind: 'idList', sql: coworkerReadSql.CoworkerContractIds },
  },
  computed: {
    Businesses: (c) => [c.BusinessId],
    GuessedFirstName: (c) => guessedNames(c.FullName)[0],
    GuessedLastName: (c) => guessedNames(c.FullName)[1],
    Teams: (c) => sortedIds(c.Teams),
    // Null, not [], when the customer has no active contract (as the platform answers).
    CoworkerContractIds: (c) => ((c.CoworkerContractIds as number[]).length ? sortedIds(c.CoworkerContractIds) : null),
    ActiveContract: (c: WireRecord) => c.CoworkerContractIds !== null,
  },
  computedTypes: {
    Businesses: { kind: 'idList', nullable: false, description: 'Read-only: [BusinessId].' },
    GuessedFirstName: { kind: 'text', nullable: false, description: 'Read-only: FullName before its last space.' },
    GuessedLastName: { kind: 'text', nullable: false, description: 'Read-only: FullName after its last space.' },
    CoworkerContractIds: { kind: 'idList', nullable: true, description: 'Read-only: the active contracts, null when there is none.' },
    ActiveContract: { kind: 'bool', nullable: false, description: 'Read-only.' },
  },
  toStringText: (c) => String(c.FullName),
});

import type { EntityManager } from 'typeorm';
import type { Database } from '../../common/database.js';
import type { SqlContext } from '../../common/record-definition.js';
import { parseDbDateTime } from '../../common/wire-values.js';
import { Tariff } from '../tariffs/tariff.entity.js';
import { CoworkerContract } from './coworker-contract.entity.js';

// What "an active contract" and "the customer's main contract" mean, in one place for every reader:
// a contract is active from its StartDate until its CancellationDate (exclusive), as of now; the main
// active contract is the primary one, else the one that started first, else the oldest record.

type Quoting = Pick<SqlContext, 'id' | 'table'>;

/** SQL: the contract aliased `alias` is active at `now` (SQL). */
export function activeContractSql(q: Quoting, alias: string, now: string): string {
  const cancelled = `${alias}.${q.id('CancellationDate')}`;
  return `(${alias}.${q.id('StartDate')} <= ${now} AND (${cancelled} IS NULL OR ${cancelled} > ${now}))`;
}

const mainFirst = (q: Quoting, alias: string) =>
  `${alias}.${q.id('IsPrimaryContract')} DESC, ${alias}.${q.id('StartDate')} ASC, ${alias}.${q.id('Id')} ASC`;

/** SQL: a column of the main active contract of the customer whose Id is `coworkerId` (SQL), or NULL. */
export function mainActiveContractSql(q: Quoting, coworkerId: string, now: string, column: 'TariffId' | 'TariffName'): string {
  const contracts = `${q.table(CoworkerContract)} mc`;
  const where = `mc.${q.id('CoworkerId')} = ${coworkerId} AND ${activeContractSql(q, 'mc', now)}`;
  const order = `ORDER BY ${mainFirst(q, 'mc')} LIMIT 1`;
  if (column === 'TariffId') return `(SELECT mc.${q.id('TariffId')} FROM ${contracts} WHERE ${where} ${order})`;
  return `(SELECT mt.${q.id('Name')} FROM ${contracts} JOIN ${q.table(Tariff)} mt ON mt.${q.id('Id')} = mc.${q.id('TariffId')} WHERE ${where} ${order})`;
}

/** A customer's main active contract as the plan's renewals need it. */
export interface MainContract {
  Id: number;
  TariffId: number;
  StartDate: Date;
  CancellationDate: Date | null;
}

/** The main active contract of a customer at `at`, read inside `manager`'s transaction; null when none. */
export async function mainActiveContract(db: Database, coworkerId: number, at: Date, manager?: EntityManager): Promise<MainContract | null> {
  const q: Quoting = { id: (name) => db.id(name), table: (entity) => db.tableOf(entity) };
  const [row] = await db.query(
    `SELECT mc.${db.id('Id')} AS id, mc.${db.id('TariffId')} AS tariff, mc.${db.id('StartDate')} AS start, mc.${db.id('CancellationDate')} AS cancelled ` +
    `FROM ${db.tableOf(CoworkerContract)} mc WHERE mc.${db.id('CoworkerId')} = ? AND ${activeContractSql(q, 'mc', '?')} ORDER BY ${mainFirst(q, 'mc')} LIMIT 1`,
    [coworkerId, db.dateParam(at), db.dateParam(at)],
    manager,
  );
  if (!row) return null;
  const cancelled = parseDbDateTime(row.cancelled);
  return { Id: Number(row.id), TariffId: Number(row.tariff), StartDate: new Date(parseDbDateTime(row.start)!), CancellationDate: cancelled === null ? null : new Date(cancelled) };
}

import { Injectable } from '@nestjs/common';
import { Database } from '../../persistence/database.js';
import type { SqlContext } from '../../records/record-definition.js';
import { parseDbDateTime, toWire } from '../../records/wire-values.js';
import { lockCustomerBusiness } from '../../customers/customer-rows.repository.js';
import { provideCustomerPlanSql } from '../../customers/coworkers/customer-plans.js';
import { Tariff } from '../tariffs/tariff.entity.js';
import { CoworkerContract } from './coworker-contract.entity.js';
import type { Tx } from '../../persistence/tx.js';

// What "an active contract" and "the customer's main contract" mean, in one place for every reader:
// a contract is active from its StartDate until its CancellationDate (exclusive), as of now; the main
// active contract is the primary one, else the one that started first, else the oldest record.

type Quoting = Pick<SqlContext, 'id' | 'table'>;

/** SQL: the contract aliased `alias` is active at `now` (SQL). */
export function activeContractSql(q: Quoting, alias: string, now: string): string {
  const cancelled = `${alias}.${q.id('CancellationDate')}`;
  return `(${alias}.${q.id('StartDate')} <= ${now} AND (${cancelled} IS NULL OR ${cancelled} > ${now}))`;
}

/** SQL of the read-only field Active: the contract read is active at the moment of the read. */
export const activeFieldSql = (q: SqlContext): string => `CASE WHEN ${activeContractSql(q, q.alias, q.now)} THEN 1 ELSE 0 END`;

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

// A customer's read fields TariffId, TariffName and CoworkerContractIds (the customers, a lower layer,
// name no contract: docs/architecture.md §6).
provideCustomerPlanSql({
  mainActive: mainActiveContractSql,
  table: (q) => q.table(CoworkerContract),
  active: activeContractSql,
});

/** A customer's main active contract as the plan's renewals need it. */
export interface MainContract {
  Id: number;
  TariffId: number;
  StartDate: Date;
  CancellationDate: Date | null;
}

/** What a contract takes from its tariff. */
export interface TariffTerms {
  BusinessId: number;
  /** The tariff's price as a wire amount. */
  Price: number | null;
}

/**
 * The SQL of contracts beyond the machinery's own, run inside the writing transaction (`tx`).
 * Hand-built: a sale reads the main contract, and the customer's row is locked FOR UPDATE on MySQL,
 * which TypeORM refuses to write on SQLite (where write transactions take turns anyway).
 */
@Injectable()
export class CoworkerContractsRepository {
  private readonly quoting: Quoting = { id: (name) => this.db.id(name), table: (entity) => this.db.tableOf(entity) };

  constructor(private readonly db: Database) {}

  /** The main active contract of a customer at `at`; null when none. */
  async mainActive(coworkerId: number, at: Date, tx?: Tx): Promise<MainContract | null> {
    const { db, quoting: q } = this;
    const [row] = await db.query(
      `SELECT mc.${db.id('Id')} AS id, mc.${db.id('TariffId')} AS tariff, mc.${db.id('StartDate')} AS start, mc.${db.id('CancellationDate')} AS cancelled ` +
        `FROM ${db.tableOf(CoworkerContract)} mc WHERE mc.${db.id('CoworkerId')} = ? AND ${activeContractSql(q, 'mc', '?')} ORDER BY ${mainFirst(q, 'mc')} LIMIT 1`,
      [coworkerId, db.dateParam(at), db.dateParam(at)],
      tx,
    );
    if (!row) return null;
    const cancelled = parseDbDateTime(row.cancelled);
    return {
      Id: Number(row.id),
      TariffId: Number(row.tariff),
      StartDate: new Date(parseDbDateTime(row.start)!),
      CancellationDate: cancelled === null ? null : new Date(cancelled),
    };
  }

  /** The ids of a customer's contracts active at `at` (all of them, or only `onlyId`). */
  async activeIds(coworkerId: number, at: Date, tx: Tx, onlyId?: number): Promise<number[]> {
    const { db } = this;
    const when = db.dateParam(at);
    const rows = await db.query<{ id: number | string }>(
      `SELECT c.${db.id('Id')} AS id FROM ${db.tableOf(CoworkerContract)} c WHERE c.${db.id('CoworkerId')} = ? AND ${activeContractSql(this.quoting, 'c', '?')}` +
        (onlyId === undefined ? '' : ` AND c.${db.id('Id')} = ?`),
      [coworkerId, when, when, ...(onlyId === undefined ? [] : [onlyId])],
      tx,
    );
    return rows.map((row) => Number(row.id));
  }

  /** The customer's business, its row locked until the transaction ends: it serialises the main-contract mark of its contracts (customer-rows.repository.ts). */
  lockCustomerBusiness(coworkerId: number, tx: Tx): Promise<number | null> {
    return lockCustomerBusiness(this.db, coworkerId, tx);
  }

  async tariffTerms(tariffId: number, tx: Tx): Promise<TariffTerms | null> {
    const { db } = this;
    const [tariff] = await db.query(
      `SELECT ${db.id('BusinessId')} AS b, ${db.id('Price')} AS price FROM ${db.tableOf(Tariff)} WHERE ${db.id('Id')} = ?`,
      [tariffId],
      tx,
    );
    return tariff ? { BusinessId: Number(tariff.b), Price: toWire('money', tariff.price) as number | null } : null;
  }

  /** The ids of the customer's contracts marked as its main one, but for `exceptId` (0: none). */
  async markedMainIds(coworkerId: number, exceptId: number, tx: Tx): Promise<number[]> {
    const { db } = this;
    const rows = await db.query<{ id: number | string }>(
      `SELECT ${db.id('Id')} AS id FROM ${db.tableOf(CoworkerContract)} WHERE ${db.id('CoworkerId')} = ? AND ${db.id('IsPrimaryContract')} = 1 AND ${db.id('Id')} <> ?`,
      [coworkerId, exceptId],
      tx,
    );
    return rows.map((row) => Number(row.id));
  }

  /** How many of the customer's contracts on tariffs of another business than `businessId` are not cancelled at `at`. */
  async countRunningOutside(coworkerId: number, businessId: number, at: Date, tx: Tx): Promise<number> {
    const { db } = this;
    const [running] = await db.query<{ n: number | string }>(
      `SELECT COUNT(*) AS n FROM ${db.tableOf(CoworkerContract)} c JOIN ${db.tableOf(Tariff)} t ON t.${db.id('Id')} = c.${db.id('TariffId')} ` +
        `WHERE c.${db.id('CoworkerId')} = ? AND t.${db.id('BusinessId')} <> ? AND (c.${db.id('CancellationDate')} IS NULL OR c.${db.id('CancellationDate')} > ?)`,
      [coworkerId, businessId, db.dateParam(at)],
      tx,
    );
    return Number(running.n);
  }
}

import type { Principal } from '../../platform/principal.js';
import type { SqlContext } from '../../records/record-definition.js';
import type { Tx } from '../../persistence/tx.js';

/** A customer's main active contract, as its TariffId follows it. */
export interface MainPlan {
  Id: number;
  TariffId: number;
}

/** A contract a customer's TariffId starts. */
export interface StartedPlan {
  CoworkerId: number;
  TariffId: number;
  StartDate: Date;
  IsPrimaryContract: boolean;
}

/**
 * A customer's plans are its contracts, a record type of billing, the layer above the customers
 * (docs/architecture.md §6): billing's contracts module implements this and provides it globally, so the
 * customers' rules name no type of billing. Every method runs inside the customer's transaction.
 */
export abstract class CustomerPlans {
  /** The main active contract of the customer at `at`; null when none. */
  abstract mainActive(coworkerId: number, at: Date, tx?: Tx): Promise<MainPlan | null>;
  /** Starts a contract under the same rules as one created through the API; returns its Id. */
  abstract start(tx: Tx, actor: Principal | undefined, contract: StartedPlan): Promise<number>;
  /** Ends the customer's contracts active at `at` (all of them, or only `onlyId`) at that moment. */
  abstract cancelActive(tx: Tx, actor: Principal | undefined, coworkerId: number, at: Date, onlyId?: number): Promise<void>;
  /** How many of the customer's contracts run on (are not cancelled at `at`) on tariffs of another business than `businessId`. */
  abstract countRunningOutside(coworkerId: number, businessId: number, at: Date, tx: Tx): Promise<number>;
}

/** The SQL of a customer's read fields that look at its contracts, as the contracts define them. */
export interface CustomerPlanSql {
  /** SQL: a column of the main active contract of the customer whose Id is `coworkerId` (SQL) at `now` (SQL), or NULL. */
  mainActive(q: SqlContext, coworkerId: string, now: string, column: 'TariffId' | 'TariffName'): string;
  /** The contracts' table, quoted. */
  table(q: SqlContext): string;
  /** SQL: the contract aliased `alias` is active at `now` (SQL). */
  active(q: SqlContext, alias: string, now: string): string;
}

let planSql: CustomerPlanSql | null = null;

/**
 * Given once by billing's contracts when their module file loads: a definition is data read before any
 * provider is made (the SQL snapshots start no application), so its read fields resolve this when first
 * compiled, once every module is loaded, like `entityNamed` (src/records/validation/fields.ts).
 */
export function provideCustomerPlanSql(sql: CustomerPlanSql): void {
  planSql = sql;
}

/** The SQL of the plan read fields; throws when billing's contracts are not loaded. */
export function customerPlanSql(): CustomerPlanSql {
  if (!planSql) throw new Error("A customer's plan fields need billing's contracts loaded (provideCustomerPlanSql)");
  return planSql;
}

import { Database } from '../../persistence/database.js';
import type { Principal } from '../../platform/principal.js';
import { ContractProduct } from '../contract-products/contract-product.entity.js';
import { CoworkerContract } from '../coworker-contracts/coworker-contract.entity.js';
import { CoworkerProduct } from '../coworker-products/coworker-product.entity.js';
import { Product } from '../products/product.entity.js';
import { Tariff } from '../tariffs/tariff.entity.js';
import { updateStampParameters, updateStampSql } from '../../records/audit-stamp.js';
import { inList } from '../due-items/due-items.js';
import type { Tx } from '../../persistence/tx.js';

/** A row as the built-in sources read it: the columns named in each method, as the database returns them. */
export type DueRow = Record<string, unknown>;

/**
 * The SQL of the four built-in due-item sources (docs/billing.md, 1. to 4.): what each reads of a
 * customer, and the conditional UPDATE that claims an item from the state the run read.
 */
export class DueSourcesRepository {
  constructor(private readonly db: Database) {}

  private q(name: string): string {
    return this.db.id(name);
  }

  private readonly contractColumns = (alias: string) =>
    ['Id', 'UniqueId', 'StartDate', 'CancellationDate', 'BillingDay', 'ApplyProRating', 'Price', 'InvoicedPeriod']
      .map((c) => `${alias}.${this.q(c)} AS ${this.q(c)}`)
      .join(', ');

  private readonly saleColumns = (alias: string) =>
    [
      'Id',
      'UniqueId',
      'CoworkerId',
      'ProductId',
      'Quantity',
      'Price',
      'SaleDate',
      'RepeatCycle',
      'RepeatUnit',
      'RepeatFrom',
      'RepeatUntil',
      'InvoicedPeriod',
    ]
      .map((c) => `${alias}.${this.q(c)} AS ${this.q(c)}`)
      .join(', ');

  private productColumns(alias: string): string {
    const q = (n: string) => this.q(n);
    return (
      `${alias}.${q('Name')} AS ProductName, ${alias}.${q('InvoiceLineDisplayAs')} AS DisplayAs, ${alias}.${q('TaxRateId')} AS TaxRateId, ${alias}.${q('CurrencyId')} AS CurrencyId, ` +
      `${alias}.${q('InvoiceCoworker')} AS InvoiceCoworker`
    );
  }

  /** 1. The customers' contracts with a period due (RenewalDate) by `dueBy`, with their tariff's terms (by customer). */
  contractsDue(customerIds: readonly number[], dueBy: Date, tx: Tx | undefined): Promise<DueRow[]> {
    const { db } = this;
    const q = (n: string) => this.q(n);
    return db.query(
      `SELECT ${this.contractColumns('k')}, t.${q('Name')} AS TariffName, t.${q('InvoiceEvery')} AS InvoiceEvery, t.${q('TaxRateId')} AS TaxRateId, t.${q('CurrencyId')} AS CurrencyId, k.${q('CoworkerId')} AS CoworkerId ` +
        `FROM ${db.tableOf(CoworkerContract)} k JOIN ${db.tableOf(Tariff)} t ON t.${q('Id')} = k.${q('TariffId')} ` +
        `WHERE k.${q('CoworkerId')} ${inList(customerIds)} AND k.${q('RenewalDate')} IS NOT NULL AND k.${q('RenewalDate')} <= ? ORDER BY k.${q('CoworkerId')}, k.${q('StartDate')}, k.${q('Id')}`,
      [...customerIds, db.dateParam(dueBy)],
      tx,
    );
  }

  /** 2. The customers' contract products with their contract's and product's terms (by customer). */
  contractProducts(customerIds: readonly number[], tx: Tx | undefined): Promise<DueRow[]> {
    const { db } = this;
    const q = (n: string) => this.q(n);
    return db.query(
      `SELECT cp.${q('Id')} AS CpId, cp.${q('UniqueId')} AS CpUniqueId, cp.${q('Quantity')} AS Quantity, cp.${q('Price')} AS CpPrice, cp.${q('RepeatFrom')} AS RepeatFrom, cp.${q('RepeatUntil')} AS RepeatUntil, cp.${q('InvoicedPeriod')} AS CpInvoiced, ` +
        `${this.contractColumns('k')}, t.${q('InvoiceEvery')} AS InvoiceEvery, p.${q('Name')} AS ProductName, p.${q('InvoiceLineDisplayAs')} AS DisplayAs, p.${q('TaxRateId')} AS TaxRateId, ` +
        `p.${q('CurrencyId')} AS CurrencyId, p.${q('ApplyProRating')} AS ProductProRating, p.${q('InvoiceCoworker')} AS InvoiceCoworker, cp.${q('CoworkerId')} AS CoworkerId ` +
        `FROM ${db.tableOf(ContractProduct)} cp JOIN ${db.tableOf(CoworkerContract)} k ON k.${q('Id')} = cp.${q('CoworkerContractId')} ` +
        `JOIN ${db.tableOf(Tariff)} t ON t.${q('Id')} = k.${q('TariffId')} JOIN ${db.tableOf(Product)} p ON p.${q('Id')} = cp.${q('ProductId')} ` +
        `WHERE cp.${q('CoworkerId')} ${inList(customerIds)} ORDER BY cp.${q('CoworkerId')}, cp.${q('Id')}`,
      [...customerIds],
      tx,
    );
  }

  /** 3. The customers' one-off sales not billed yet, dated before `before`, with their product (by customer). */
  unbilledOneOffSales(customerIds: readonly number[], before: Date, tx: Tx | undefined): Promise<DueRow[]> {
    const { db } = this;
    const q = (n: string) => this.q(n);
    return db.query(
      `SELECT ${this.saleColumns('s')}, ${this.productColumns('p')} FROM ${db.tableOf(CoworkerProduct)} s JOIN ${db.tableOf(Product)} p ON p.${q('Id')} = s.${q('ProductId')} ` +
        `WHERE s.${q('CoworkerId')} ${inList(customerIds)} AND s.${q('Invoiced')} = 0 AND s.${q('RegularCharge')} = 0 AND s.${q('SaleDate')} < ? ` +
        `ORDER BY s.${q('CoworkerId')}, s.${q('SaleDate')}, s.${q('Id')}`,
      [...customerIds, db.dateParam(before)],
      tx,
    );
  }

  /** 4. The customers' recurring sales, with their product (by customer). */
  recurringSales(customerIds: readonly number[], tx: Tx | undefined): Promise<DueRow[]> {
    const { db } = this;
    const q = (n: string) => this.q(n);
    return db.query(
      `SELECT ${this.saleColumns('s')}, ${this.productColumns('p')} FROM ${db.tableOf(CoworkerProduct)} s JOIN ${db.tableOf(Product)} p ON p.${q('Id')} = s.${q('ProductId')} ` +
        `WHERE s.${q('CoworkerId')} ${inList(customerIds)} AND s.${q('RegularCharge')} = 1 AND s.${q('RepeatCycle')} IS NOT NULL ORDER BY s.${q('CoworkerId')}, s.${q('Id')}`,
      [...customerIds],
      tx,
    );
  }

  /**
   * The customer's main contract with its tariff's InvoiceEvery among those started before `startedBefore`:
   * the one marked IsPrimaryContract, else its earliest; one not ended at `now` comes before one that has.
   */
  async mainContract(customerId: number, startedBefore: Date, now: Date, tx: Tx | undefined): Promise<DueRow | null> {
    const { db } = this;
    const q = (n: string) => this.q(n);
    const [row] = await db.query(
      `SELECT ${this.contractColumns('k')}, t.${q('InvoiceEvery')} AS InvoiceEvery FROM ${db.tableOf(CoworkerContract)} k JOIN ${db.tableOf(Tariff)} t ON t.${q('Id')} = k.${q('TariffId')} ` +
        `WHERE k.${q('CoworkerId')} = ? AND k.${q('StartDate')} < ? ` +
        `ORDER BY k.${q('IsPrimaryContract')} DESC, CASE WHEN k.${q('CancellationDate')} IS NULL OR k.${q('CancellationDate')} > ? THEN 0 ELSE 1 END, k.${q('StartDate')}, k.${q('Id')} LIMIT 1`,
      [customerId, db.dateParam(startedBefore), db.dateParam(now)],
      tx,
    );
    return row ?? null;
  }

  /** `UPDATE … SET marks, Version + 1, stamps WHERE Id = ? AND <column> = <read> (or IS NULL)`: whether it changed the row. */
  async conditionalUpdate(
    tx: Tx,
    actor: Principal | undefined,
    entity: abstract new () => unknown,
    id: number,
    marks: Record<string, unknown>,
    column: string,
    read: unknown,
  ): Promise<boolean> {
    const { db } = this;
    const q = (n: string) => this.q(n);
    const set = Object.keys(marks).map((name) => `${q(name)} = ?`);
    const sql =
      `UPDATE ${db.tableOf(entity)} SET ${set.join(', ')}, ${updateStampSql(q)} ` +
      `WHERE ${q('Id')} = ? AND ${read === null ? `${q(column)} IS NULL` : `${q(column)} = ?`}`;
    const parameters = [
      ...Object.values(marks),
      ...updateStampParameters((date) => db.dateParam(date), actor),
      id,
      ...(read === null ? [] : [read]),
    ];
    return (await db.run(sql, parameters, tx)).affected === 1;
  }
}

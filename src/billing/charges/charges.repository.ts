import { inList } from '../due-items/due-items.js';
import type { Database } from '../../persistence/database.js';
import { Business } from '../../kernel/businesses/business.entity.js';
import { Charge } from './charge.entity.js';
import type { Tx } from '../../persistence/tx.js';

/** The SQL of charges beyond the record machinery's own. */
export class ChargesRepository {
  constructor(private readonly db: Database) {}

  /**
   * The customer's charges billing has due (docs/billing.md "Item sources"): dated before `before`, not
   * invoiced, with their business's currency; read as FlagClaims.item reads a record billed whole.
   */
  dueForBilling(customerIds: readonly number[], before: Date, tx: Tx | undefined): Promise<Array<Record<string, unknown>>> {
    const { db } = this;
    const q = (name: string) => db.id(name);
    return db.query(
      `SELECT c.${q('Id')} AS id, c.${q('CoworkerId')} AS coworker, c.${q('UniqueId')} AS uniqueId, c.${q('Version')} AS version, c.${q('SaleDate')} AS saleDate, c.${q('TotalAmount')} AS amount, ` +
        `c.${q('Description')} AS description, c.${q('InvoiceLineDisplayAs')} AS display, c.${q('TaxRateId')} AS taxRate, b.${q('CurrencyId')} AS currency ` +
        `FROM ${db.tableOf(Charge)} c JOIN ${db.tableOf(Business)} b ON b.${q('Id')} = c.${q('BusinessId')} ` +
        `WHERE c.${q('CoworkerId')} ${inList(customerIds)} AND c.${q('Invoiced')} = 0 AND c.${q('SaleDate')} < ? ORDER BY c.${q('CoworkerId')}, c.${q('SaleDate')}, c.${q('Id')}`,
      [...customerIds, db.dateParam(before)],
      tx,
    );
  }
}

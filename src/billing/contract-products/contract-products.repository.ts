import { Injectable } from '@nestjs/common';
import { Database } from '../../persistence/database.js';
import { toWire } from '../../records/wire-values.js';
import { Coworker } from '../../customers/coworker.entity.js';
import { CoworkerContract } from '../coworker-contracts/coworker-contract.entity.js';
import { Product } from '../products/product.entity.js';
import { ContractProduct } from './contract-product.entity.js';
import type { Tx } from '../../persistence/tx.js';

/** The SQL of contract products beyond the record machinery's own. */
@Injectable()
export class ContractProductsRepository {
  constructor(private readonly db: Database) {}

  /** Its InvoicedPeriod as stored (not on the wire); undefined when it does not exist. */
  async invoicedPeriod(id: number, tx: Tx): Promise<unknown> {
    const { db } = this;
    const [row] = await db.query(
      `SELECT ${db.id('InvoicedPeriod')} AS p FROM ${db.tableOf(ContractProduct)} WHERE ${db.id('Id')} = ?`,
      [id],
      tx,
    );
    return row?.p;
  }

  /** The contract's customer and that customer's business; null when the contract does not exist. */
  async contractOf(id: number, tx: Tx): Promise<{ coworkerId: number; businessId: number } | null> {
    const { db } = this;
    const [row] = await db.query(
      `SELECT k.${db.id('CoworkerId')} AS c, w.${db.id('BusinessId')} AS b FROM ${db.tableOf(CoworkerContract)} k JOIN ${db.tableOf(Coworker)} w ON w.${db.id('Id')} = k.${db.id('CoworkerId')} WHERE k.${db.id('Id')} = ?`,
      [id],
      tx,
    );
    return row ? { coworkerId: Number(row.c), businessId: Number(row.b) } : null;
  }

  /** The product's business and price (a wire amount); null when it does not exist. */
  async productOf(id: number, tx: Tx): Promise<{ businessId: number; price: number } | null> {
    const { db } = this;
    const [row] = await db.query(
      `SELECT ${db.id('BusinessId')} AS b, ${db.id('Price')} AS p FROM ${db.tableOf(Product)} WHERE ${db.id('Id')} = ?`,
      [id],
      tx,
    );
    return row ? { businessId: Number(row.b), price: toWire('money', row.p) as number } : null;
  }
}

import type { EntityManager } from 'typeorm';
import type { WriteScope } from './write-scope.js';

let connectionOf: (tx: Tx) => EntityManager;

/**
 * The unit of work: one write transaction as the code outside src/persistence/ sees it. It carries the
 * transaction's connection (a TypeORM entity manager, which only the persistence layer unwraps), the
 * request id the change log records, and the request's write scope (deadline, If-Match) when the
 * transaction works for one. `Database.transaction` gives one to its work; every statement of that work
 * is sent with it (`db.query(sql, parameters, tx)`), and so are the record door's writes and the rules'
 * hooks (docs/architecture.md, "The unit of work").
 */
export class Tx {
  readonly #manager: EntityManager;

  static {
    connectionOf = (tx) => tx.#manager;
  }

  /** Made by the persistence layer only: by a driver for each transaction it runs. */
  constructor(
    manager: EntityManager,
    /** The request (X-Request-Id) the transaction works for; the change log records it with each entry. */
    readonly requestId: string | undefined,
    /** The request's write scope (deadline, If-Match, ETag), when the transaction works for a write request. */
    readonly scope: WriteScope | undefined,
  ) {
    this.#manager = manager;
  }
}

/** The entity manager a transaction's statements go through: for the drivers and `Database` only. */
export function managerOf(tx: Tx): EntityManager;
export function managerOf(tx: Tx | undefined): EntityManager | undefined;
export function managerOf(tx: Tx | undefined): EntityManager | undefined {
  return tx && connectionOf(tx);
}

import type { EntityManager } from 'typeorm';
import type { Tx } from './tx.js';

// The one interface both databases are used through (docs/architecture.md, "The database"): each
// driver owns its connections and is the only code that reads its library's private fields
// (src/internals.spec.ts lists them). The façade `Database` (src/persistence/database.ts) picks one.

/** What a write statement did: rows it changed (a conditional claim reads 1 or 0) and the id an INSERT made. */
export interface RunResult {
  affected: number;
  insertId: number;
}

/**
 * What a transaction's work asks of the database besides its statements: that none of it commits once
 * the request's deadline passed, and steps to run just before COMMIT. `WriteScope`
 * (src/persistence/write-scope.ts) is the one implementation; the database only needs its shape.
 */
export interface TransactionScope {
  readonly requestId?: string;
  readonly expired: boolean;
  readonly beforeCommit: ReadonlyArray<(tx: Tx, result: unknown) => Promise<void>>;
  commits: number;
  /** Throws once the deadline has passed. */
  check(): void;
  /** Work starts; `interrupt` stops it early. Returns the function that marks its end. */
  begin(interrupt: () => void): () => void;
  /** COMMIT is about to be sent: from here on the deadline lets it finish. */
  enterCommit(): () => void;
}

/** A transaction's work, given its unit of work (the connection its statements go through, the request id, the scope). */
export type TransactionWork<T> = (tx: Tx) => Promise<T>;

/** The MySQL pool's connections (open, idle) and the requests waiting for one (metrics). */
export interface PoolUse {
  limit: number;
  open: number;
  idle: number;
  waiting: number;
}

export interface DatabaseDriver {
  readonly dialect: 'sqlite' | 'mysql';
  /** REQUEST_TIMEOUT_MS: what bounds a read outside a transaction with no request deadline (MariaDB). */
  readTimeoutMs: number;
  /** Asked once at start: the server's version and kind. */
  start(): Promise<void>;
  close(): void;
  /** Rows of a statement; inside a transaction (`manager`) on its connection. */
  query<T>(sql: string, parameters: unknown[], manager?: EntityManager, deadline?: number): Promise<T[]>;
  /** Rows as arrays of the select list's values, in its order (the hot read path). */
  queryArrays(sql: string, parameters: unknown[], manager?: EntityManager, deadline?: number): Promise<unknown[][]>;
  /**
   * A write statement, answered with what it did: the one place the drivers' result shapes differ.
   * Outside a transaction with a `scope`, it runs as `write` does.
   */
  run(sql: string, parameters: unknown[], manager?: EntityManager, scope?: TransactionScope): Promise<RunResult>;
  /** A write of one statement outside a transaction on behalf of a request, which its deadline may stop. */
  write<T>(sql: string, parameters: unknown[], scope: TransactionScope): Promise<T[]>;
  /** `query` outside a transaction, seeing every write committed anywhere before it was sent. */
  causalRead<T>(sql: string, parameters: unknown[]): Promise<T[]>;
  /** Whether writes run on several nodes that can each take a row's turn (a Galera cluster). */
  replicated(): Promise<boolean>;
  /** Waits until this connection's node has applied every write committed anywhere before the call (Galera); at once elsewhere. */
  catchUp(): Promise<void>;
  /** A write transaction; `causal`: its reads see what any node committed before it began. */
  transaction<T>(work: TransactionWork<T>, scope: TransactionScope | undefined, requestId: string | undefined, causal: boolean): Promise<T>;
  /** Writes whose loss in a power failure costs only a retry, as one transaction not synced to disk. */
  transientWrite(statements: ReadonlyArray<readonly [sql: string, parameters: unknown[]]>): Promise<void>;
  /** Whether an INSERT can return values (RETURNING). */
  supportsReturning(manager?: EntityManager): Promise<boolean>;
  /** Runs `step` once the transaction of `manager` has committed (at once outside a transaction). */
  afterCommit(manager: EntityManager, step: () => void): void;
  poolUse(): PoolUse | null;
  /** The SQLite file; null for MySQL and in-memory databases. */
  sqliteFile(): string | null;
  /** Stops the statement running on a connection (MySQL's KILL QUERY); absent where a driver has none. */
  kill?(connectionId: number): void;
}

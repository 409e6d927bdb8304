import { QueryFailedError } from 'typeorm';

// How the record machinery tells database failures apart (docs/architecture.md, "The database"):
// the database cannot be reached (503), a write refused by a key (400), or a lock conflict that
// running the transaction again resolves. Both drivers' errors are read through TypeORM's wrapper.

type DriverError = { code?: string; errno?: number; message?: string };

function driverError(error: unknown): DriverError | undefined {
  if (error instanceof QueryFailedError) return (error as QueryFailedError & { driverError: DriverError }).driverError;
  return error as DriverError | undefined;
}

/** Connection-level failures: the database is stopped, unreachable, full, or went away mid-query. */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'PROTOCOL_ENQUEUE_AFTER_FATAL_ERROR',
  'PROTOCOL_ENQUEUE_AFTER_QUIT',
  'ER_CON_COUNT_ERROR',
  'ER_TOO_MANY_USER_CONNECTIONS',
  'ER_SERVER_SHUTDOWN',
  'ER_QUERY_INTERRUPTED',
  'ER_CONNECTION_KILLED',
  // MariaDB stopped a read at its max_statement_time: the request's deadline (database.ts).
  'ER_STATEMENT_TIMEOUT',
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
  // A Galera node that is joining, left the cluster's majority, or is not synced refuses queries with
  // errno 1047, "WSREP has not yet prepared node for application use".
  'ER_UNKNOWN_COM_ERROR',
]);
/** TypeORM's own "there is no usable connection" errors, by class name. */
const UNAVAILABLE_ERRORS = new Set([
  'CannotExecuteNotConnectedError',
  'ConnectionIsNotSetError',
  'ConnectionNotFoundError',
  'PoolClosedError',
]);
/** mysql2's pool refusals, which carry no code. */
const UNAVAILABLE_MESSAGES =
  /^(Queue limit reached|Pool is closed|No connections available|Connection lost|Can't add new command when connection is in closed state)/i;

/**
 * Whether an error means the database cannot be reached right now (the request may succeed later),
 * as opposed to a bad query or a refused write. Looks through TypeORM's wrappers and error causes.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const candidate = e as DriverError & { fatal?: boolean; name?: string; driverError?: unknown; cause?: unknown };
    if (candidate.code && UNAVAILABLE_CODES.has(candidate.code)) return true;
    // 1969: MariaDB stopped a read at its max_statement_time (mysql2 knows no code for it).
    if (candidate.errno === 1969) return true;
    // mysql2 marks errors that broke the connection itself as fatal.
    if (candidate.fatal === true) return true;
    if (candidate.name && UNAVAILABLE_ERRORS.has(candidate.name)) return true;
    if (typeof candidate.message === 'string' && UNAVAILABLE_MESSAGES.test(candidate.message)) return true;
    e = candidate.driverError ?? candidate.cause;
  }
  return false;
}

/** A write refused because other records refer to the row (or it refers to a missing one). */
export function isForeignKeyViolation(error: unknown): boolean {
  const e = driverError(error);
  // SQLite reports an ON DELETE RESTRICT refusal as a trigger constraint with the foreign-key message.
  const sqlite =
    e?.code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || (e?.code === 'SQLITE_CONSTRAINT_TRIGGER' && /FOREIGN KEY/i.test(e.message ?? ''));
  return sqlite || e?.errno === 1451 || e?.errno === 1452;
}

export function isUniqueViolation(error: unknown): boolean {
  const e = driverError(error);
  return e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || e?.errno === 1062;
}

/**
 * InnoDB rolled the transaction back to break a deadlock: running it again is safe. A Galera node
 * reports a transaction that lost certification to a conflicting one from another node the same way.
 */
export function isDeadlock(error: unknown): boolean {
  return driverError(error)?.errno === 1213;
}

/**
 * The unique keys of numbers a transaction takes from a counter row it writes (invoice numbers,
 * InvoiceIssuanceRepository.nextNumber). On one server the counter's row lock makes a duplicate
 * impossible. On a Galera node a transaction can read the counter before the node has applied
 * another node's commit that took the same number; when the node applies that commit during the
 * transaction, the INSERT of the number can be refused as a duplicate entry rather than the
 * transaction being aborted as a conflict. It is a conflict all the same (docs/billing.md). A guarded
 * write's row turn is such a number too (Database.takeTurn, docs/architecture.md §7).
 */
const COUNTER_KEYS = /\bUQ_((coworkerinvoice|invoice)_BusinessId_InvoiceNumber|row_turn_TableName_RowId_Turn)\b/;

/** A duplicate entry on a counter-allocated number (COUNTER_KEYS): the transaction is to run again. */
export function isCounterCollision(error: unknown): boolean {
  const e = driverError(error);
  return e?.errno === 1062 && COUNTER_KEYS.test(e.message ?? '');
}

/**
 * A conflict that running the transaction again resolves: a deadlock InnoDB broke by rolling it back
 * (on Galera also a lost certification), a lock wait that timed out (the transaction is then rolled
 * back whole, here), or a counter-allocated number taken meanwhile on another Galera node.
 */
export function isTransientConflict(error: unknown): boolean {
  const errno = driverError(error)?.errno;
  return errno === 1213 || errno === 1205 || isCounterCollision(error);
}

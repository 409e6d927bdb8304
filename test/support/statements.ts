import type { Database } from '../../src/persistence/database.js';
import type { Tx } from '../../src/persistence/tx.js';

/** A statement the service sent through `Database`, with its bound values. */
export interface Statement {
  sql: string;
  parameters: unknown[];
}

/** Runs `work` and returns the statements (reads by `query` and `queryArrays`) it made the service send that `matches` keeps. */
export async function statementsSent(db: Database, matches: (sql: string) => boolean, work: () => Promise<void>): Promise<Statement[]> {
  const seen: Statement[] = [];
  const query = db.query.bind(db);
  const queryArrays = db.queryArrays.bind(db);
  const record = (sql: string, parameters: unknown[] = []) => {
    if (matches(sql)) seen.push({ sql, parameters });
  };
  db.query = <T>(sql: string, parameters?: unknown[], tx?: Tx) => (record(sql, parameters), query<T>(sql, parameters, tx));
  db.queryArrays = (sql, parameters, tx) => (record(sql, parameters), queryArrays(sql, parameters, tx));
  try {
    await work();
  } finally {
    // The prototype's methods show through again.
    Reflect.deleteProperty(db, 'query');
    Reflect.deleteProperty(db, 'queryArrays');
  }
  return seen;
}

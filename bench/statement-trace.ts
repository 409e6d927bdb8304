// A count of the statements sent to the database while a stretch of work runs (BENCH_BILLING_TRACE=1 in
// npm run bench:billing): every statement on either driver, BEGIN and COMMIT included, by SQL text, with
// the time each text took in all. It counts at the libraries (better-sqlite3's statements, mysql2's
// connections), below the service's own database layer, so nothing the service sends is missed; on
// MariaDB each is a round trip (its time from sending to the last packet of the answer).
import { createRequire } from 'node:module';

interface Tally {
  count: number;
  ms: number;
}

type Method = (this: unknown, ...args: unknown[]) => unknown;

/** Statements by SQL text (numbers and list lengths folded, so a text's variants count as one). */
export class StatementTrace {
  readonly bySql = new Map<string, Tally>();
  private readonly restore: Array<() => void> = [];

  /** Starts counting; `stop` ends it. */
  static start(): StatementTrace {
    const trace = new StatementTrace();
    const require = createRequire(import.meta.url);
    const Sqlite = require('better-sqlite3') as new (file: string) => { prepare(sql: string): object; close(): void };
    const scratch = new Sqlite(':memory:');
    const statementProto = Object.getPrototypeOf(scratch.prepare('SELECT 1')) as Record<string, Method>;
    scratch.close();
    for (const name of ['run', 'all', 'get', 'iterate'])
      trace.wrap(statementProto, name, (self) => (self as { source: string }).source, true);
    const mysql = require('mysql2') as { Connection: { prototype: Record<string, Method> } };
    for (const name of ['query', 'execute'])
      trace.wrap(mysql.Connection.prototype, name, (_self, args) => {
        const sql = args[0];
        return typeof sql === 'string' ? sql : String((sql as { sql?: string }).sql);
      });
    return trace;
  }

  stop(): void {
    for (const undo of this.restore.splice(0)) undo();
  }

  /** All statements counted. */
  get total(): number {
    let sum = 0;
    for (const { count } of this.bySql.values()) sum += count;
    return sum;
  }

  /** The `top` texts by count, each as "count × text (ms in all)". */
  report(top = 25, per = 1): string[] {
    return [...this.bySql.entries()]
      .sort((a, b) => b[1].count - a[1].count)
      .slice(0, top)
      .map(([sql, { count, ms }]) => `${(count / per).toFixed(2).padStart(8)} ${ms.toFixed(0).padStart(6)} ms  ${sql.slice(0, 160)}`);
  }

  private wrap(target: Record<string, Method>, name: string, sqlOf: (self: unknown, args: unknown[]) => string, timed = false): void {
    const original = target[name];
    if (typeof original !== 'function') return;
    const bySql = this.bySql;
    target[name] = function (this: unknown, ...args: unknown[]) {
      const sql = sqlOf(this, args)
        .replace(/\s+/g, ' ')
        .replace(/(\?, )+\?/g, '?…')
        .replace(/(\(\?…\), )+\(\?…\)/g, '(?…)…');
      const tally = bySql.get(sql) ?? { count: 0, ms: 0 };
      bySql.set(sql, tally);
      tally.count++;
      const started = performance.now();
      if (!timed) {
        // mysql2's commands end with an 'end' event: the round trip's time, the server's work included.
        const command = original.apply(this, args) as { once?: (event: string, listener: () => void) => void };
        command?.once?.('end', () => (tally.ms += performance.now() - started));
        return command;
      }
      try {
        return original.apply(this, args);
      } finally {
        tally.ms += performance.now() - started;
      }
    };
    this.restore.push(() => {
      target[name] = original;
    });
  }
}

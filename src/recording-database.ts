import type { AnyClass } from './records/columns.js';
import { Database, type RunResult } from './persistence/database.js';
import type { Tx } from './persistence/tx.js';

/**
 * A Database that runs nothing: it records the SQL the code sends through the façade (transient writes and
 * the entity INSERTs TypeORM builds included) and answers each read with `rows`, each write with `affected`
 * changed rows and id 1. A transaction runs its work at once. The SQL snapshots (guarantee-sql.ts,
 * repository-sql.ts) take their statements from the very methods that run them, so they change when those do;
 * `affected`, `returning` and `cluster` choose the branch a method takes where its SQL depends on them.
 */
export class RecordingDatabase extends Database {
  readonly sent: string[] = [];
  rows: Array<Record<string, unknown>> = [];
  /** How many rows a write changed: 0 takes a method's branch for a write that found nothing. */
  affected = 1;
  /** Whether an INSERT can return values: false takes the MySQL branch (SQLite and MariaDB 10.5+ can). */
  returning = true;
  /** Whether writes run on a Galera cluster: true takes the branch that records the turns they add. */
  cluster = false;

  /** Starts the recording of one method afresh, its reads answered with `rows`. */
  reset(rows: Array<Record<string, unknown>> = []): void {
    this.sent.length = 0;
    this.rows = rows;
    this.affected = 1;
    this.returning = true;
    this.cluster = false;
  }

  override query<T>(sql: string): Promise<T[]> {
    this.sent.push(sql);
    return Promise.resolve(this.rows as T[]);
  }

  override queryArrays(sql: string): Promise<unknown[][]> {
    this.sent.push(sql);
    return Promise.resolve(this.rows.map((row) => Object.values(row)));
  }

  override run(sql: string): Promise<RunResult> {
    this.sent.push(sql);
    return Promise.resolve({ affected: this.affected, insertId: 1 });
  }

  override write<T>(sql: string): Promise<T[]> {
    return this.query<T>(sql);
  }

  override causalRead<T>(sql: string): Promise<T[]> {
    return this.query<T>(sql);
  }

  override transientWrite(statements: ReadonlyArray<readonly [sql: string, parameters: unknown[]]>): Promise<void> {
    for (const [sql] of statements) this.sent.push(sql);
    return Promise.resolve();
  }

  /** The INSERT TypeORM's query builder sends for these rows (built, not run). */
  override insertEntities(entity: AnyClass, rows: ReadonlyArray<Record<string, unknown>>): Promise<void> {
    const builder = this.dataSource.createQueryBuilder().insert().into(entity).values(rows).updateEntity(false);
    this.sent.push(builder.getQueryAndParameters()[0]);
    return Promise.resolve();
  }

  override transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return work(this.outsideTransaction);
  }

  override causalTransaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return work(this.outsideTransaction);
  }

  override supportsReturning(): Promise<boolean> {
    return Promise.resolve(this.returning);
  }

  /** One server unless `cluster`; the turns a Galera cluster adds are an entry of their own (recordTurn). */
  override replicated(): Promise<boolean> {
    return Promise.resolve(this.cluster);
  }
}

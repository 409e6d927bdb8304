import { parentPort, workerData } from 'node:worker_threads';
import BetterSqlite3 from 'better-sqlite3';
import { lowerThisThread } from '../platform/idle-priority.js';

/** What SqliteCheckpoints gives the thread: the database file and how often to checkpoint. */
export interface CheckpointWorkerData {
  file: string;
  everyMs: number;
}

// The checkpoint thread of SqliteCheckpoints (docs/architecture.md §7): a connection of its own that
// copies the WAL's committed pages into the database file, off the request thread.
// Background work: at the helpers' priority, so it waits for the request thread on a shared core.
lowerThisThread();
const { file, everyMs } = workerData as CheckpointWorkerData;
const connection = new BetterSqlite3(file, { fileMustExist: true });

const timer = setInterval(() => {
  // PASSIVE: copies what no reader still needs and never waits for a lock, so it never delays the
  // service's connection; what it leaves is copied next time. Busy or failed, it is simply tried again.
  try {
    connection.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    /* tried again at the next tick */
  }
}, everyMs);

parentPort?.once('message', () => {
  clearInterval(timer);
  connection.close();
  parentPort?.close();
});

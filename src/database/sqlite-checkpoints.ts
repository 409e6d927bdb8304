import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { Database } from '../persistence/database.js';
import type { CheckpointWorkerData } from './sqlite-checkpoint.worker.js';

/** How often the checkpoint thread copies the WAL into the database file. */
export const CHECKPOINT_EVERY_MS = 100;
/** SQLite's own default: the committing connection checkpoints once the WAL holds this many pages. */
const SQLITE_AUTOCHECKPOINT_PAGES = 1000;

/**
 * SQLite's WAL checkpoints on a thread of their own (docs/architecture.md §7). Left to SQLite, the
 * connection that commits runs a checkpoint whenever the WAL has grown past 1000 pages: it copies them
 * into the database file and syncs it, on the request thread, 10–15 ms during which no request is
 * answered (every 65th stored invoice PDF, every second while PDFs are made). Here the service's
 * connection never checkpoints (`wal_autocheckpoint = 0`) and a worker thread with a connection of its
 * own does, every CHECKPOINT_EVERY_MS. Should that thread stop, the service's connection goes back to
 * checkpointing itself, so the WAL never grows without bound. An in-memory database has no WAL: nothing
 * to do.
 */
@Injectable()
export class SqliteCheckpoints implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(SqliteCheckpoints.name);
  private worker: Worker | undefined;

  constructor(private readonly db: Database) {}

  async onApplicationBootstrap(): Promise<void> {
    const file = this.db.sqliteFile();
    if (!file) return;
    const worker = new Worker(fileURLToPath(new URL('./sqlite-checkpoint.worker.js', import.meta.url)), {
      workerData: { file, everyMs: CHECKPOINT_EVERY_MS } satisfies CheckpointWorkerData,
    });
    worker.on('error', (error) => this.logger.error(`The SQLite checkpoint thread failed: ${error.message}`));
    worker.on('exit', () => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      void this.autocheckpoint(SQLITE_AUTOCHECKPOINT_PAGES).catch(() => undefined);
    });
    try {
      await once(worker, 'online');
    } catch {
      return; // logged by the 'error' listener; SQLite keeps checkpointing on the service's connection
    }
    // Once running, the thread keeps nothing alive: the service ends when its server and connections do.
    worker.unref();
    this.worker = worker;
    await this.autocheckpoint(0);
  }

  async onApplicationShutdown(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (!worker) return;
    // Held open until the thread has closed its connection.
    worker.ref();
    worker.postMessage('stop');
    await once(worker, 'exit');
  }

  /** Whether the checkpoint thread is running (and the service's connection leaves checkpoints to it). */
  get running(): boolean {
    return this.worker !== undefined;
  }

  private async autocheckpoint(pages: number): Promise<void> {
    await this.db.setWalAutocheckpoint(pages);
  }
}

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { DataSource } from 'typeorm';
import { Database } from '../common/database.js';
import { SqliteCheckpoints } from './sqlite-checkpoints.js';

/** A SQLite database in a file of its own, in WAL mode as the service opens it, with its checkpoints. */
async function fileDatabase() {
  const folder = mkdtempSync(join(tmpdir(), 'checkpoints-'));
  const file = join(folder, 'service.sqlite');
  const dataSource = await new DataSource({ type: 'better-sqlite3', database: file, enableWAL: true }).initialize();
  const db = new Database(dataSource);
  await db.query('CREATE TABLE f (id INTEGER PRIMARY KEY, content BLOB NOT NULL)');
  const checkpoints = new SqliteCheckpoints(db);
  const autocheckpoint = async () => Number(Object.values((await db.query('PRAGMA wal_autocheckpoint'))[0])[0]);
  return {
    db,
    checkpoints,
    autocheckpoint,
    /** Bytes of the database file itself: pages reach it only by a checkpoint (the WAL holds them until then). */
    fileSize: () => statSync(file).size,
    close: async () => {
      await checkpoints.onApplicationShutdown();
      await dataSource.destroy();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** Waits until `done()` holds, for at most `ms`. */
async function eventually(done: () => boolean, ms = 5000): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(20)) if (done()) return true;
  return done();
}

describe('SqliteCheckpoints', () => {
  it('checkpoints on its own thread: the service connection never does, yet the pages reach the database file', async () => {
    const { db, checkpoints, autocheckpoint, fileSize, close } = await fileDatabase();
    try {
      await checkpoints.onApplicationBootstrap();
      assert.equal(checkpoints.running, true);
      assert.equal(await autocheckpoint(), 0);
      const before = fileSize();
      // 8 MB: twice what SQLite's own checkpoint would let the WAL hold.
      for (let i = 0; i < 128; i++) await db.transientWrite([['INSERT INTO f (content) VALUES (?)', [Buffer.alloc(64 * 1024, i)]]]);
      assert.ok(await eventually(() => fileSize() - before >= 8 * 1024 * 1024), `the database file grew by ${fileSize() - before} bytes only`);
    } finally {
      await close();
    }
  });

  it('gives checkpoints back to the service connection when its thread stops, and stops its thread at shutdown', async () => {
    const { checkpoints, autocheckpoint, close } = await fileDatabase();
    try {
      await checkpoints.onApplicationBootstrap();
      await (checkpoints as unknown as { worker: { terminate(): Promise<number> } }).worker.terminate();
      assert.ok(await eventually(() => !checkpoints.running));
      let level = 0;
      assert.ok(await eventually(() => {
        void autocheckpoint().then((value) => (level = value));
        return level === 1000;
      }), 'the service connection checkpoints itself again');
      await checkpoints.onApplicationBootstrap();
      assert.equal(checkpoints.running, true);
      await checkpoints.onApplicationShutdown();
      assert.equal(checkpoints.running, false);
    } finally {
      await close();
    }
  });

  it('starts nothing for an in-memory database', async () => {
    const dataSource = await new DataSource({ type: 'better-sqlite3', database: ':memory:' }).initialize();
    try {
      const checkpoints = new SqliteCheckpoints(new Database(dataSource));
      await checkpoints.onApplicationBootstrap();
      assert.equal(checkpoints.running, false);
    } finally {
      await dataSource.destroy();
    }
  });
});

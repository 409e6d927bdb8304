import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { DataSource } from 'typeorm';
import { eventually } from '../../test/support/auth.js';
import { Database } from '../persistence/database.js';
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
      // Fails unless the thread copied the pages into the file within five seconds.
      await eventually(async () => fileSize() - before >= 8 * 1024 * 1024);
    } finally {
      await close();
    }
  });

  it('gives checkpoints back to the service connection when its thread stops, and stops its thread at shutdown', async () => {
    const { checkpoints, autocheckpoint, close } = await fileDatabase();
    try {
      await checkpoints.onApplicationBootstrap();
      await (checkpoints as unknown as { worker: { terminate(): Promise<number> } }).worker.terminate();
      await eventually(async () => !checkpoints.running);
      // The service connection checkpoints itself again.
      await eventually(async () => (await autocheckpoint()) === 1000);
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

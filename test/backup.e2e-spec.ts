import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Sqlite from 'better-sqlite3';
import { httpRequest } from './support/http.js';
import { startService, type Service } from './support/service.js';
import { basicAuth, onMySql, TEST_JWT_SECRET } from './support/test-app.js';

// Backing up a live SQLite database and restoring it (docs/operations.md, "Backup and restore"): while
// writes run through the API, the backup is taken with SQLite's online backup API (better-sqlite3's
// .backup(), what `sqlite3 live.sqlite ".backup file"` does) and with VACUUM INTO, never by copying the
// file of a WAL database. The backup is then started as a service, and holds every write answered
// before it began. SQLite only: MariaDB is backed up with mariadb-dump or mariabackup.

const ADMIN = { email: 'backup@test.example', password: 'backup-admin-password' };
const auth = basicAuth(ADMIN.email, ADMIN.password);
const WRITERS = 3;

describe(
  'SQLite backup while writes run, restored into a started service',
  { skip: onMySql && 'SQLite only (TEST_DATABASE=mysql runs MariaDB)' },
  () => {
    let dir: string;
    let live: Service | undefined;
    let restored: Service | undefined;
    let currency: number;
    let country: number;
    const env = () => ({ JWT_SECRET: TEST_JWT_SECRET, BOOTSTRAP_ADMIN_EMAIL: ADMIN.email, BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password });
    const call = (service: Service, method: string, path: string, json?: unknown) =>
      httpRequest(service.url + path, { method, headers: { authorization: auth }, json });

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'cw-backup-'));
      live = await startService('live', { ...env(), DATABASE_URL: `sqlite:${join(dir, 'live.sqlite')}` });
      currency = (await call(live, 'GET', '/api/sys/currencies?Currency_Code=EUR')).body.Records[0].Id;
      country = (await call(live, 'GET', '/api/sys/countries?Country_TwoDigitsCode=FR')).body.Records[0].Id;
    });
    after(async () => {
      await live?.stop();
      await restored?.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    it('the backup holds every write answered before it began, and the restored service serves them', async () => {
      const service = live!;
      const answered = new Map<number, string>();
      let stop = false;
      const writer = async (n: number) => {
        for (let i = 0; !stop; i++) {
          const name = `Writer ${n} business ${i}`;
          const res = await call(service, 'POST', '/api/sys/businesses', { Name: name, CurrencyId: currency, CountryId: country });
          assert.equal(res.status, 200, JSON.stringify(res.body));
          answered.set(res.body.Value.Id, name);
        }
      };
      const writers = Array.from({ length: WRITERS }, (_, n) => writer(n));
      // Some writes are in before the backup starts; more keep coming while it runs.
      while (answered.size < 30) await new Promise((resolve) => setTimeout(resolve, 20));
      const before = new Map(answered);
      const source = new Sqlite(join(dir, 'live.sqlite'), { readonly: true, fileMustExist: true });
      assert.equal(source.pragma('journal_mode', { simple: true }), 'wal', 'the live database is in WAL mode');
      const backupFile = join(dir, 'backup.sqlite');
      const vacuumFile = join(dir, 'vacuum-into.sqlite');
      await source.backup(backupFile);
      source.prepare('VACUUM INTO ?').run(vacuumFile);
      source.close();
      stop = true;
      await Promise.all(writers);
      assert.ok(answered.size > before.size, 'writes went on while the backups were taken');

      for (const file of [backupFile, vacuumFile]) {
        const copy = new Sqlite(file, { readonly: true, fileMustExist: true });
        try {
          assert.equal(copy.pragma('integrity_check', { simple: true }), 'ok', file);
          assert.deepEqual(copy.pragma('foreign_key_check'), [], file);
          const rows = copy.prepare('SELECT "Id", "Name" FROM "business"').all() as Array<{ Id: number; Name: string }>;
          const names = new Map(rows.map((row) => [row.Id, row.Name]));
          for (const [id, name] of before) assert.equal(names.get(id), name, `${file}: business ${id} answered before the backup`);
          // Nothing half-written: every write in the backup is one the API answered, as it answered it.
          for (const [id, name] of names) if (name.startsWith('Writer ')) assert.equal(answered.get(id), name, `${file}: business ${id}`);
        } finally {
          copy.close();
        }
      }

      // Restore: the backup file becomes the database of a new service (the live one is stopped first).
      await live!.stop();
      live = undefined;
      const restoredFile = join(dir, 'restored.sqlite');
      copyFileSync(backupFile, restoredFile);
      assert.ok(!existsSync(`${restoredFile}-wal`));
      restored = await startService('restored', { ...env(), DATABASE_URL: `sqlite:${restoredFile}` });
      const ready = await httpRequest(`${restored.url}/health/ready`, { method: 'GET' });
      assert.equal(ready.status, 200, JSON.stringify(ready.body));
      for (const [id, name] of before) {
        const res = await call(restored, 'GET', `/api/sys/businesses/${id}`);
        assert.equal(res.status, 200, `business ${id}`);
        assert.equal(res.body.Name, name);
      }
      // The restored service takes writes again, with ids after those it holds.
      const res = await call(restored, 'POST', '/api/sys/businesses', {
        Name: 'After the restore',
        CurrencyId: currency,
        CountryId: country,
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.ok(res.body.Value.Id > Math.max(...before.keys()));
    });
  },
);

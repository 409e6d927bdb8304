import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { listScans } from '../src/platform/list-lane.js';
import { bearer, createUser, passwordToken } from './support/auth.js';
import { createBusiness, createCoworker } from './support/fixtures.js';
import { appPerSuite, onMySql } from './support/test-app.js';

// docs/api.md §1.3 and docs/architecture.md, "Fair queues": lists take turns per user, so one user's
// flood of text-filtered scans over a large table delays only that user; everyone else's GET by id is
// answered in about its normal time, and the flood beyond the user's share is refused with 429.

const DOUBLINGS = 18; // 2^18 = 262,144 customers

describe('a user flooding the service with list scans', () => {
  const t = appPerSuite();
  let business: number;
  let someone: number;
  let scanner: string;
  let scannerId: number;
  before(async () => {
    business = await createBusiness(t);
    someone = await createCoworker(t, business, { FullName: 'Seed Customer' });
    // The customers table doubled in place: unique emails and ids made from the copied row's Id.
    const [sample] = await t.db.query<Record<string, unknown>>('SELECT * FROM coworker WHERE Id = ?', [someone]);
    const columns = Object.keys(sample).filter((name) => name !== 'Id');
    const unique = onMySql ? 'UUID()' : 'lower(hex(randomblob(16)))';
    for (let round = 0; round < DOUBLINGS; round++) {
      const value = (name: string) =>
        name === 'UniqueId'
          ? unique
          : name === 'Email'
            ? `concat('c${round}.', c.Id, '@example.com')`
            : name === 'FullName'
              ? "concat('Customer ', c.Id)"
              : `c.${t.db.id(name)}`;
      await t.db.query(
        `INSERT INTO coworker (${columns.map((name) => t.db.id(name)).join(', ')}) SELECT ${columns.map(value).join(', ')} FROM coworker c WHERE c.BusinessId = ?`,
        [business],
      );
    }
    scannerId = await createUser(t, {
      Email: 'scanner@example.com',
      Password: 'scanner password 1',
      Roles: ['Coworker-List'],
      Businesses: [business],
    });
    scanner = bearer((await passwordToken(t, 'scanner@example.com', 'scanner password 1')).access_token);
  });

  const timed = async (send: () => Promise<{ status: number }>) => {
    const start = performance.now();
    const { status } = await send();
    return { status, ms: performance.now() - start };
  };
  const scan = (i: number) => t.get(`/api/spaces/coworkers?Coworker_FullName=zz${i}q&page=1&size=30`, { auth: scanner });
  const readById = () => timed(() => t.get(`/api/spaces/coworkers/${someone}`));

  it("answers the others' GET by id in about their normal time and runs at most its share of the user's scans at once", async () => {
    const oneScan = await timed(() => scan(-1));
    assert.equal(oneScan.status, 200);
    const baseline: number[] = [];
    for (let i = 0; i < 3; i++) baseline.push((await readById()).ms);

    let mostOfTheUser = 0;
    let flooding = true;
    const watching = (async () => {
      while (flooding) {
        mostOfTheUser = Math.max(mostOfTheUser, listScans.activeCount);
        await sleep(1);
      }
    })();
    const floodStart = performance.now();
    const flood = Promise.all(Array.from({ length: 30 }, (_, i) => scan(i)));
    await sleep(50);
    const during: Array<{ status: number; ms: number }> = [];
    for (let i = 0; i < 3; i++) during.push(await readById());
    const statuses = (await flood).map((res) => res.status);
    const floodMs = performance.now() - floodStart;
    flooding = false;
    await watching;

    // The flooding user's own lists: answered, refused beyond its share (429), or past their deadline in its queue (503).
    assert.deepEqual(
      [...new Set(statuses)].filter((s) => s !== 200 && s !== 429 && s !== 503),
      [],
      `only 200, 429 or 503: ${statuses.join(',')}`,
    );
    // SQLite's scans run within one turn (the watcher sees none); MariaDB's hold a connection while it looks.
    const share = listScans.limits.perClientRunning;
    assert.ok(mostOfTheUser <= share, `${mostOfTheUser} scans of the user ran at once (its share: ${share})`);
    assert.deepEqual(
      during.map((r) => r.status),
      [200, 200, 200],
    );
    const normal = Math.max(...baseline);
    // A GET by id waits behind at most the scans of the user that started in the same turn (SQLite).
    for (const { ms } of during)
      assert.ok(
        ms < normal + share * oneScan.ms + 1000,
        `a GET by id took ${Math.round(ms)} ms during the flood (normal ${Math.round(normal)} ms, one scan ${Math.round(oneScan.ms)} ms, the flood ${Math.round(floodMs)} ms)`,
      );
  });

  it("refuses a list beyond the user's share of waiting lists at once with 429 and Retry-After; other users still list", async () => {
    // The flood's lists answered 503 at their deadline leave the queue as their turn comes: wait for that.
    for (const until = Date.now() + 10_000; listScans.activeCount || listScans.pendingCount;) {
      assert.ok(Date.now() < until, `the previous flood still queued: ${listScans.activeCount} running, ${listScans.pendingCount} waiting`);
      await sleep(5);
    }
    // The user's running lists (its whole share) held by the test, as long scans would hold them.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const held = Promise.all(
      Array.from({ length: listScans.limits.perClientRunning }, () =>
        listScans.run({ client: `user ${scannerId}`, wanted: () => true }, () => gate),
      ),
    );
    let beyond: { status: number; headers: Headers } | undefined;
    let waiting: Array<Promise<{ status: number }>> = [];
    try {
      // Lists by id: cheap, so the waiting ones finish well within their deadline once released.
      waiting = Array.from({ length: listScans.limits.perClientWaiting }, (_, i) =>
        t.get(`/api/spaces/coworkers?id=[${someone}]&n=${i}`, { auth: scanner }),
      );
      const until = Date.now() + 10_000;
      while (listScans.waitingOf(`user ${scannerId}`) < listScans.limits.perClientWaiting) {
        assert.ok(Date.now() < until, `${listScans.waitingOf(`user ${scannerId}`)} lists waiting`);
        await sleep(5);
      }
      beyond = await t.get('/api/spaces/coworkers?Coworker_FullName=beyond&size=1', { auth: scanner });
      // Someone else's list is not refused for it.
      assert.equal((await t.get('/api/spaces/coworkers?size=1')).status, 200);
    } finally {
      release();
    }
    await held;
    assert.equal(beyond?.status, 429);
    assert.equal(beyond?.headers.get('retry-after'), '1');
    assert.deepEqual([...new Set((await Promise.all(waiting)).map((res) => res.status))], [200]);
  });
});

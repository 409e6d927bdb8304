import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import mysql from 'mysql2/promise';
import { createBusiness, createCoworker } from './support/fixtures.js';
import { appPerSuite, onMySql } from './support/test-app.js';

// docs/api.md §1: reads obey the answer deadline as writes do: a query still running when its 503 is
// sent is stopped in the database. MariaDB only (SQLite runs in the process: nothing outlives the request).

const TIMEOUT = 600;
const ROWS = 200_000;

describe('expensive reads past the deadline (MariaDB)', { skip: !onMySql && 'runs on MariaDB (TEST_DATABASE=mysql)' }, () => {
  const t = appPerSuite({ REQUEST_TIMEOUT_MS: String(TIMEOUT), DATABASE_POOL_SIZE: '5' });
  let admin: mysql.Connection;
  let schema: string;
  before(async () => {
    const business = await createBusiness(t);
    const first = await createCoworker(t, business, { FullName: 'Seed Customer', Email: 'seed@example.com' });
    const url = String((t.db.dataSource.options as { url: string }).url).replace(/^mariadb:/, 'mysql:');
    schema = new URL(url).pathname.slice(1);
    admin = await mysql.createConnection(url);
    // ~200,000 customers, built in one statement from a sequence.
    const [columns] = await admin.query<mysql.RowDataPacket[]>('SHOW COLUMNS FROM `coworker`');
    const names = columns.map((c) => String(c.Field)).filter((n) => n !== 'Id');
    const value = (n: string) =>
      n === 'UniqueId'
        ? 'UUID()'
        : n === 'Email'
          ? "CONCAT('c', seq, '@example.com')"
          : n === 'FullName'
            ? "CONCAT('Customer ', seq)"
            : `c.\`${n}\``;
    await admin.query(
      `INSERT INTO \`coworker\` (${names.map((n) => `\`${n}\``).join(', ')}) SELECT ${names.map(value).join(', ')} FROM \`coworker\` c JOIN seq_1_to_${ROWS} WHERE c.Id = ?`,
      [first],
    );
    await admin.query('ANALYZE TABLE `coworker`');
  });
  // Closed whatever the test found: an open connection would keep the suite's process alive.
  after(() => admin?.end());

  const runningSelects = async () => {
    const [rows] = await admin.query<mysql.RowDataPacket[]>(
      "SELECT ID, INFO FROM information_schema.PROCESSLIST WHERE DB = ? AND COMMAND IN ('Query', 'Execute') AND INFO LIKE '%coworker%' AND ID <> CONNECTION_ID()",
      [schema],
    );
    return rows;
  };

  it('a flood of text-filtered lists answers 503 at the deadline and leaves no query running; others are answered after', async () => {
    // A text filter no index serves, over every customer (and a count of them), 30 at once.
    const lists = await Promise.all(
      Array.from({ length: 30 }, (_, i) => t.get(`/api/spaces/coworkers?Coworker_FullName=zz${i}q&page=1&size=30`)),
    );
    const statuses = lists.map((r) => r.status);
    // One user's lists take turns (docs/architecture.md, "Fair queues"): beyond its share, 429 at once.
    assert.deepEqual(
      [...new Set(statuses)].filter((s) => s !== 200 && s !== 503 && s !== 429),
      [],
      'only 200, 429 or 503',
    );
    assert.ok(statuses.includes(503), `some lists pass the deadline (statuses: ${statuses.join(',')})`);
    // Every 503 went out: none of those queries may still run in the database a moment later (each
    // is stopped within a tenth of a second of the deadline; the check allows a busy server half a second).
    let running = await runningSelects();
    for (let waited = 0; running.length && waited < 500; waited += 100) {
      await sleep(100);
      running = await runningSelects();
    }
    assert.deepEqual(running, [], 'queries still running after their 503');
    const later = await t.get('/api/sys/businesses');
    assert.equal(later.status, 200);
  });
});

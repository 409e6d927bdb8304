import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { passwordHashing } from '../src/auth/passwords.js';
import { holdHashing } from './support/auth.js';
import { createBusiness } from './support/fixtures.js';
import { appPerSuite } from './support/test-app.js';

// docs/api.md §1: no request reads another's uncommitted write (SQLite has one connection), and no write
// transaction waits on a password hash while it holds the database (SQLite's one writer, locked rows on
// MariaDB). The password hashing capacity is held busy by the test, so a create that hashes a password
// waits for it exactly as it would behind a burst of logins.

/** Resolves once a password hash waits for the capacity the test holds. */
async function hashWaiting(): Promise<void> {
  while (passwordHashing.pendingCount === 0) await sleep(5);
}

/** Settles with 'answered' when the request is answered while the hashing stays held, 'stuck' otherwise (then the test fails). */
const answeredWhileHeld = (request: Promise<unknown>) =>
  Promise.race([request.then(() => 'answered' as const), sleep(15_000, 'stuck' as const, { ref: false })]);

describe('a write that waits on a password hash', () => {
  const t = appPerSuite();
  let business: number;
  before(async () => {
    business = await createBusiness(t);
    // The administrator's Basic credentials are verified (one hash) before the capacity is held.
    assert.equal((await t.get('/api/sys/businesses')).status, 200);
  });

  it('holds no transaction: nobody reads the customer before it is committed, and other writes go on', async () => {
    const email = `late.login.${Date.now()}@example.com`;
    const stored = (await t.get(`/api/sys/businesses/${business}`)).body;
    const hashing = holdHashing();
    let create: Promise<{ status: number; body: any }> | undefined;
    try {
      create = t.post('/api/spaces/coworkers', {
        BusinessId: business,
        FullName: 'Late Login',
        Email: email,
        CreateUser: true,
        Password: 'late login password',
      });
      await hashWaiting();
      // Another client's list and the table read outside any transaction: no uncommitted customer.
      const list = await t.get('/api/spaces/coworkers?page=1&size=500');
      assert.equal(list.status, 200);
      assert.equal(list.body.Records.filter((c: any) => c.Email === email).length, 0, 'an uncommitted customer was read');
      assert.equal((await t.rows('coworker')).filter((c) => c.Email === email).length, 0);
      // Another write (on MariaDB one that needs the business row the customer's insert points at) is answered now.
      const rename = t.put(`/api/sys/businesses/${business}`, { ...stored, Name: 'Renamed while a hash waits' });
      assert.equal(await answeredWhileHeld(rename), 'answered', "a write waited on another request's password hash");
      const renamed = await rename;
      assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
    } finally {
      hashing.release();
    }
    await hashing.held;
    const created = await create;
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const list = await t.get('/api/spaces/coworkers?page=1&size=500');
    assert.equal(list.body.Records.filter((c: any) => c.Email === email).length, 1);
    assert.equal((await t.rows('user')).filter((u) => String(u.Email) === email).length, 1);
  });

  it('a user update with a new password keeps no row locked while it hashes', async () => {
    const user = await t.post('/api/sys/users', {
      Email: `locked.${Date.now()}@example.com`,
      FullName: 'Row Lock',
      Password: 'first password here',
      Businesses: [business],
      Roles: ['Product-Read'],
    });
    assert.equal(user.status, 200, JSON.stringify(user.body));
    const id = user.body.Value.Id as number;
    const email = `locked.${Date.now()}@example.com`;
    const hashing = holdHashing();
    let change: Promise<{ status: number }> | undefined;
    try {
      change = t.put(`/api/sys/users/${id}`, { Id: id, Email: email, FullName: 'Row Lock', Password: 'second password here' });
      await hashWaiting();
      const rename = t.put(`/api/sys/users/${id}`, { Id: id, Email: email, FullName: 'Renamed meanwhile' });
      assert.equal(await answeredWhileHeld(rename), 'answered', "an update waited on another request's password hash");
      assert.equal((await rename).status, 200);
    } finally {
      hashing.release();
    }
    await hashing.held;
    assert.equal((await change).status, 200);
  });
});

describe('a transaction that awaits something else', () => {
  const t = appPerSuite();
  let business: number;
  before(async () => {
    business = await createBusiness(t, { Name: 'Before' });
  });

  it('is not read by another request before it ends, and what it rolled back is never read', async () => {
    const { db } = t;
    const rename = `UPDATE ${db.id('business')} SET ${db.id('Name')} = ? WHERE ${db.id('Id')} = ?`;
    let proceed!: () => void;
    const gate = new Promise<void>((resolve) => (proceed = resolve));
    let renamed!: () => void;
    const renamedInside = new Promise<void>((resolve) => (renamed = resolve));
    const work = db.transaction(async (tx) => {
      await db.query(rename, ['Uncommitted name', business], tx);
      renamed();
      await gate;
      throw new Error('rolled back on purpose');
    });
    await renamedInside;
    const read = t.get(`/api/sys/businesses/${business}`);
    const list = t.get('/api/sys/businesses');
    await sleep(50);
    proceed();
    await assert.rejects(work, /rolled back on purpose/);
    assert.equal((await read).body.Name, 'Before');
    assert.deepEqual(
      (await list).body.Records.map((b: any) => b.Name),
      ['Before'],
    );
  });
});

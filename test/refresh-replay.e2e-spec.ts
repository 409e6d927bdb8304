import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { bearer, createUser, eventually, passwordToken, requestToken } from './support/auth.js';
import { createBusiness, createCoworker } from './support/fixtures.js';
import { freshMySqlDatabase, onMySql, startApp, type TestApp } from './support/test-app.js';

// docs/api.md §2.3: presenting a used refresh token (a replay: one of the two holders stole it) revokes its
// family's refresh tokens and, within 5 seconds on every instance, the access tokens minted from that
// family. Other logins of the user keep working.

const PASSWORD = 'correct horse battery';

describe('a refresh-token replay stops the access tokens of its family', () => {
  /** The instance that sees the replay, and (on MariaDB) another instance on the same database. */
  let first: TestApp;
  let second: TestApp;
  let dropDatabase: () => Promise<void> = async () => undefined;
  let business: number;

  before(async () => {
    if (onMySql) {
      const database = await freshMySqlDatabase();
      dropDatabase = database.drop;
      first = await startApp({ DATABASE_URL: database.url });
      second = await startApp({ DATABASE_URL: database.url });
    } else {
      first = await startApp();
      second = first;
    }
    business = await createBusiness(first);
  });
  after(async () => {
    if (second !== first) await second.close();
    await first.close();
    await dropDatabase();
  });

  const status = async (app: TestApp, token: string) => (await app.get('/api/sys/businesses', { auth: bearer(token) })).status;
  const refresh = (refreshToken: string, clientId: string) =>
    requestToken(first, { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId });

  it("the stolen token's successor and the first access token answer 401 within 5 s; other logins keep working", async () => {
    const email = 'replayed@example.com';
    await createUser(first, { Email: email, FullName: 'Replayed User', IsAdmin: true, Password: PASSWORD });
    const login = await passwordToken(first, email, PASSWORD, { client_id: 'phone' });
    const otherClient = await passwordToken(first, email, PASSWORD, { client_id: 'laptop' });
    const rotated = await refresh(login.refresh_token, 'phone');
    assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
    for (const token of [login.access_token, rotated.body.access_token]) {
      assert.equal(await status(first, token), 200);
      assert.equal(await status(second, token), 200);
    }

    const replay = await refresh(login.refresh_token, 'phone');
    assert.deepEqual([replay.status, replay.body.error], [400, 'invalid_grant']);
    // The family's access tokens stop, on this instance and on the other.
    const took = await eventually(async () => {
      const answers = await Promise.all(
        [first, second].flatMap((app) => [status(app, login.access_token), status(app, rotated.body.access_token)]),
      );
      return answers.every((answer) => answer === 401);
    }, 5000);
    assert.ok(took <= 5000);
    // Its refresh tokens too (the successor of the replayed one).
    assert.equal((await refresh(rotated.body.refresh_token, 'phone')).status, 400);

    // Another family of the same user keeps working: its access token, and its refresh.
    assert.equal(await status(first, otherClient.access_token), 200);
    assert.equal(await status(second, otherClient.access_token), 200);
    const otherRotated = await refresh(otherClient.refresh_token, 'laptop');
    assert.equal(otherRotated.status, 200, JSON.stringify(otherRotated.body));
    assert.equal(await status(second, otherRotated.body.access_token), 200);
    // A new login with the replayed family's client starts a new family, which works.
    const again = await passwordToken(first, email, PASSWORD, { client_id: 'phone' });
    assert.equal(await status(first, login.access_token), 401, 'a new login does not bring the revoked family back');
    assert.equal(await status(first, again.access_token), 200);
    assert.equal(await status(second, again.access_token), 200);
    assert.equal((await refresh(again.refresh_token, 'phone')).status, 200);
  });

  it('a token a customer minted for itself with a token of the family stops with the family', async () => {
    const email = 'replayed.customer@example.com';
    const coworker = await createCoworker(first, business, { Email: email });
    await createUser(first, { Email: email, FullName: 'Replayed Customer', CoworkerId: coworker, Password: PASSWORD });
    const login = await passwordToken(first, email, PASSWORD, { client_id: 'kiosk' });
    const minted = await first.post('/api/sys/users/token/refresh', { ValidityInMinutes: 10_080 }, { auth: bearer(login.access_token) });
    assert.equal(minted.status, 200, JSON.stringify(minted.body));
    const week = minted.body.Value as string;
    const ownProfile = async (app: TestApp) => (await app.post('/api/sys/users/token/refresh', {}, { auth: bearer(week) })).status;
    assert.equal(await ownProfile(second), 200);

    assert.equal((await refresh(login.refresh_token, 'kiosk')).status, 200);
    assert.equal((await refresh(login.refresh_token, 'kiosk')).status, 400);
    await eventually(async () => (await ownProfile(first)) === 401 && (await ownProfile(second)) === 401, 5000);
  });

  it('so does a token an administrator minted for itself with a token of the family', async () => {
    const email = 'replayed.admin@example.com';
    const id = await createUser(first, { Email: email, FullName: 'Replayed Admin', IsAdmin: true, Password: PASSWORD });
    const login = await passwordToken(first, email, PASSWORD, { client_id: 'console' });
    const minted = await first.post(
      `/api/sys/users/${id}/token/refresh`,
      { ValidityInMinutes: 10_080 },
      { auth: bearer(login.access_token) },
    );
    assert.equal(minted.status, 200, JSON.stringify(minted.body));
    assert.equal(await status(second, minted.body.Value), 200);
    assert.equal((await refresh(login.refresh_token, 'console')).status, 200);
    assert.equal((await refresh(login.refresh_token, 'console')).status, 400);
    await eventually(
      async () => (await status(first, minted.body.Value)) === 401 && (await status(second, minted.body.Value)) === 401,
      5000,
    );
  });
});

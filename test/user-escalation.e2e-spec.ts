import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { generateSecret } from 'otplib';
import { bearer, createUser, passwordToken } from './support/auth.js';
import { createBusinesses, createCoworker } from './support/fixtures.js';
import { appPerSuite, basicAuth } from './support/test-app.js';

// Two-factor users and Basic; what a restricted administrator may do to users (docs/api.md §11.1
// and §2.7): nobody gives what they do not have, and only users wholly within its reach are touched.

const PASSWORD = 'correct horse battery';

describe('users: escalation refused', () => {
  const t = appPerSuite();
  let mine: number;
  let theirs: number;
  let restricted: string;
  let restrictedId: number;
  const roles = ['User-List', 'User-Read', 'User-Create', 'User-Edit', 'User-Delete', 'Product-List'];
  let n = 0;
  const email = (name: string) => `${name}-${++n}@escalation.example`;
  const usersRows = async () =>
    JSON.stringify((await t.rows('user')).map((u) => [u.Id, u.Roles, u.IsAdmin, u.PasswordHash, u.Active, u.CoworkerId]));
  const userBusinesses = async () => JSON.stringify(await t.db.query(`SELECT * FROM ${t.db.id('user_business')} ORDER BY 1, 2`));

  before(async () => {
    [mine, theirs] = await createBusinesses(t, 'Mine', 'Theirs');
    const address = email('restricted');
    restrictedId = await createUser(t, { Email: address, Roles: roles, Businesses: [mine] });
    restricted = basicAuth(address, PASSWORD);
  });

  /** Answers 401 and changes no user. */
  async function refused(send: () => Promise<{ status: number; body: any }>, status = 401) {
    const before = [await usersRows(), await userBusinesses()];
    const res = await send();
    assert.equal(res.status, status, JSON.stringify(res.body));
    assert.deepEqual([await usersRows(), await userBusinesses()], before);
    return res;
  }

  it('a user with two-factor on is refused over Basic, before and after it was remembered', async () => {
    const address = email('twofactor');
    const id = await createUser(t, { Email: address });
    assert.equal((await t.get('/api/sys/users/' + id, { auth: basicAuth(address, PASSWORD) })).status, 401); // no role, but authenticated
    const grantedId = await createUser(t, { Email: email('twofactor-admin'), IsAdmin: true });
    const granted = (await t.get('/api/sys/users/' + grantedId)).body.Email;
    assert.equal((await t.get('/api/billing/products', { auth: basicAuth(granted, PASSWORD) })).status, 200);
    const put = await t.put('/api/sys/users', {
      Id: grantedId,
      Email: granted,
      FullName: 'Two factor',
      IsAdmin: true,
      TwoFactorEnabled: true,
      TwoFactorSecret: generateSecret(),
    });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    const res = await t.get('/api/billing/products', { auth: basicAuth(granted, PASSWORD) });
    assert.equal(res.status, 401);
    assert.ok(res.headers.get('www-authenticate'));
    const mint = await t.post(`/api/sys/users/${grantedId}/token/refresh`, {}, { auth: basicAuth(granted, PASSWORD) });
    assert.equal(mint.status, 401);
  });

  it('cannot give roles or admin rights it does not hold, on create', async () => {
    for (const extra of [
      { Roles: ['Product-Delete'] },
      { Roles: ['Coworker-List'] },
      { Roles: ['User-Edit', 'Product-Update'] },
      { IsAdmin: true },
    ]) {
      await refused(() =>
        t.post(
          '/api/sys/users',
          { Email: email('helper'), FullName: 'Helper', Password: PASSWORD, Businesses: [mine], ...extra },
          { auth: restricted },
        ),
      );
    }
    await refused(() =>
      t.post(
        '/api/sys/users',
        { Email: email('helper'), FullName: 'Helper', Password: PASSWORD, Businesses: [mine, theirs], Roles: ['Product-List'] },
        { auth: restricted },
      ),
    );
    const ok = await t.post(
      '/api/sys/users',
      { Email: email('helper'), FullName: 'Helper', Password: PASSWORD, Businesses: [mine], Roles: ['product-list', 'User-Update'] },
      { auth: restricted },
    );
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
  });

  it('cannot raise its own roles or businesses', async () => {
    const self = (await t.get('/api/sys/users/' + restrictedId)).body;
    await refused(() => t.put('/api/sys/users', { ...self, Roles: [...roles, 'Product-Delete'] }, { auth: restricted }));
    await refused(() => t.put('/api/sys/users', { ...self, Businesses: [mine, theirs] }, { auth: restricted }));
    await refused(() => t.put('/api/sys/users', { ...self, IsAdmin: true }, { auth: restricted }));
    const same = await t.put('/api/sys/users', { ...self, FullName: 'Still restricted' }, { auth: restricted });
    assert.equal(same.status, 200, JSON.stringify(same.body));
  });

  it('touches no user with a business or a role beyond its own: update, password reset, deactivate, delete, token', async () => {
    const wider = await createUser(t, { Email: email('wider'), Businesses: [mine, theirs], Roles: ['Product-List'] });
    const stronger = await createUser(t, { Email: email('stronger'), Businesses: [mine], Roles: ['Product-Delete'] });
    const admin = await createUser(t, { Email: email('admin'), Businesses: [mine], IsAdmin: true });
    for (const id of [wider, stronger, admin]) {
      const stored = (await t.get('/api/sys/users/' + id)).body;
      await refused(() => t.put('/api/sys/users', { ...stored, FullName: 'Renamed' }, { auth: restricted }));
      await refused(() => t.put('/api/sys/users/' + id, { ...stored, Password: 'a new password here' }, { auth: restricted }));
      await refused(() => t.put('/api/sys/users', { ...stored, Active: false }, { auth: restricted }));
      await refused(() => t.put('/api/sys/users', { ...stored, Businesses: [mine], Roles: [] }, { auth: restricted }));
      await refused(() => t.delete('/api/sys/users/' + id, { auth: restricted }));
      const mint = await refused(() => t.post(`/api/sys/users/${id}/token/refresh`, {}, { auth: restricted }));
      assert.equal(mint.body.Message, 'AccessDenied');
    }
    // A user wholly within its reach: all of it works.
    const within = await createUser(t, { Email: email('within'), Businesses: [mine], Roles: ['Product-List'] });
    assert.equal((await t.post(`/api/sys/users/${within}/token/refresh`, {}, { auth: restricted })).status, 200);
    const stored = (await t.get('/api/sys/users/' + within)).body;
    assert.equal((await t.put('/api/sys/users', { ...stored, Password: 'a new password here' }, { auth: restricted })).status, 200);
    assert.equal((await t.delete('/api/sys/users/' + within, { auth: restricted })).status, 200);
  });

  it('binds logins only to customers of its businesses, one login per customer', async () => {
    const foreign = await createCoworker(t, theirs);
    await refused(() =>
      t.post(
        '/api/sys/users',
        { Email: email('customer'), FullName: 'C', Password: PASSWORD, Businesses: [mine], CoworkerId: foreign },
        { auth: restricted },
      ),
    );
    const own = await createCoworker(t, mine);
    const first = await t.post(
      '/api/sys/users',
      { Email: email('customer'), FullName: 'C', Password: PASSWORD, Businesses: [mine], CoworkerId: own },
      { auth: restricted },
    );
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const second = await refused(
      () => t.post('/api/sys/users', { Email: email('customer'), FullName: 'C', Password: PASSWORD, CoworkerId: own }),
      400,
    );
    assert.equal(second.body.Errors[0].PropertyName, 'CoworkerId');
    // Made at once, on any database: one login.
    const other = await createCoworker(t, mine);
    const answers = await Promise.all(
      [1, 2, 3, 4].map(() => t.post('/api/sys/users', { Email: email('race'), FullName: 'R', Password: PASSWORD, CoworkerId: other })),
    );
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 400, 400, 400]);
    // A customer's token still works after all that.
    const customerEmail = (await t.get('/api/sys/users/' + first.body.Value.Id)).body.Email;
    const token = await passwordToken(t, customerEmail, PASSWORD);
    assert.equal((await t.post('/api/sys/users/token/refresh', {}, { auth: bearer(token.access_token) })).status, 200);
  });
});

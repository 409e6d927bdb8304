import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { generateSecret, generateSync } from 'otplib';
import { bearer, createUser, passwordToken, requestToken } from './support/auth.js';
import { createProduct } from './support/billing-fixtures.js';
import { create, createBusiness, createCoworker, createTariff } from './support/fixtures.js';
import { appPerSuite, basicAuth } from './support/test-app.js';

// One-time codes used once, secrets long enough, login errors that tell nothing, the customer's token
// refresh, and deletes that would leave id lists pointing at nothing.

const PASSWORD = 'correct horse battery';

describe('sign-in rules and listed records', () => {
  const t = appPerSuite();
  let n = 0;
  const email = (name: string) => `${name}-${++n}@signin.example`;

  it('a one-time code accepted once is refused after, also when sent in parallel', async () => {
    const secret = generateSecret();
    const address = email('totp');
    await createUser(t, { Email: address, TwoFactorEnabled: true, TwoFactorSecret: secret });
    const code = generateSync({ secret });
    const form = { grant_type: 'password', username: address, password: PASSWORD, totp: code };
    const answers = await Promise.all([1, 2, 3, 4].map(() => requestToken(t, form)));
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 400, 400, 400]);
    for (const refused of answers.filter((a) => a.status === 400)) assert.equal(refused.body.error, 'two_factor_auth_check');
    const again = await requestToken(t, form);
    assert.deepEqual([again.status, again.body.error], [400, 'two_factor_auth_check']);
  });

  it('a two-factor secret of fewer than 26 base32 characters is refused', async () => {
    for (const secret of ['JBSWY3DPEHPK3PXP', 'JBSWY3DPEHPK3PXPJBSWY3DPE']) {
      const res = await t.post('/api/sys/users', {
        Email: email('short'),
        FullName: 'S',
        Password: PASSWORD,
        TwoFactorEnabled: true,
        TwoFactorSecret: secret,
      });
      assert.equal(res.status, 400);
      assert.equal(res.body.Errors[0].PropertyName, 'TwoFactorSecret');
    }
    assert.ok(await createUser(t, { Email: email('long'), TwoFactorSecret: 'JBSWY3DPEHPK3PXPJBSWY3DPEH' }));
  });

  it('unknown user, wrong password, inactive and locked accounts get the same error', async () => {
    const inactive = email('inactive');
    await createUser(t, { Email: inactive, Active: false });
    const locked = email('locked');
    await createUser(t, { Email: locked });
    for (let i = 0; i < 10; i++) await requestToken(t, { grant_type: 'password', username: locked, password: `wrong-${i}` });
    const known = email('known');
    await createUser(t, { Email: known });
    const answers = await Promise.all([
      requestToken(t, { grant_type: 'password', username: email('nobody'), password: PASSWORD }),
      requestToken(t, { grant_type: 'password', username: known, password: 'not the password' }),
      requestToken(t, { grant_type: 'password', username: inactive, password: PASSWORD }),
      requestToken(t, { grant_type: 'password', username: locked, password: PASSWORD }),
    ]);
    assert.deepEqual(
      answers.map((a) => a.status),
      [400, 400, 400, 400],
    );
    assert.equal(new Set(answers.map((a) => JSON.stringify(a.body))).size, 1, JSON.stringify(answers.map((a) => a.body)));
  });

  it("POST /api/sys/users/token/refresh is the customer's: an administrator's token gets 401", async () => {
    const admin = await passwordToken(t, (await t.get('/api/sys/users/1')).body.Email, 'admin-password-for-tests');
    assert.equal((await t.post('/api/sys/users/token/refresh', {}, { auth: bearer(admin.access_token) })).status, 401);
    const restricted = email('restricted');
    await createUser(t, { Email: restricted, Roles: ['User-Edit'], Businesses: [await createBusiness(t)] });
    assert.equal((await t.post('/api/sys/users/token/refresh', {}, { auth: basicAuth(restricted, PASSWORD) })).status, 401);
    // The administrator mints its own with the {id} variant.
    assert.equal((await t.post('/api/sys/users/1/token/refresh', {}, { auth: bearer(admin.access_token) })).status, 200);
  });

  it('a product or tariff named in ElegibleProducts or ElegibleTariffs cannot be deleted', async () => {
    const business = await createBusiness(t);
    const product = await createProduct(t, business);
    const tariff = await createTariff(t, business);
    const other = await createProduct(t, business);
    const credit = await create(t, '/api/billing/productbookingcredits', {
      Name: 'Hours',
      ProductId: other,
      Credit: 3,
      ElegibleProducts: [other, product],
      ElegibleTariffs: [tariff],
    });
    const customer = await createCoworker(t, business);
    await create(t, '/api/billing/coworkerbookingcredits', {
      CoworkerId: customer,
      Description: 'Hours',
      TotalCredit: 2,
      ElegibleTariffs: [tariff],
    });
    for (const path of [`/api/billing/products/${product}`, `/api/billing/tariffs/${tariff}`]) {
      const before = [await t.rows('product'), await t.rows('tariff')];
      const res = await t.delete(path);
      assert.equal(res.status, 400, res.text);
      assert.match(res.body.Message, /BookingCredit records list it/);
      assert.deepEqual([await t.rows('product'), await t.rows('tariff')], before);
    }
    // Taken out of the lists, they can go.
    const stored = (await t.get(`/api/billing/productbookingcredits/${credit}`)).body;
    assert.equal((await t.put('/api/billing/productbookingcredits', { ...stored, ElegibleProducts: [] })).status, 200);
    assert.equal((await t.delete(`/api/billing/products/${product}`)).status, 200);
    // An id that merely contains the deleted one's digits does not hold it back.
    const product10 = await createProduct(t, business);
    assert.equal((await t.delete(`/api/billing/products/${product10}`)).status, 200);
  });
});

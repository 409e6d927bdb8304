import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { generateSecret, generateSync } from 'otplib';
import { bearer, claims, createUser, eventually, passwordToken, requestToken } from './support/auth.js';
import { createBusinesses, createCoworker } from './support/fixtures.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, appPerSuite, basicAuth, startApp, TEST_JWT_SECRET } from './support/test-app.js';

const PASSWORD = 'correct horse battery';
const DENIED = { Message: 'Authorization has been denied for this request.' };

function signed(payload: object, header: object = { alg: 'HS256', typ: 'JWT' }, secret = TEST_JWT_SECRET): string {
  const encode = (part: object) => Buffer.from(JSON.stringify(part)).toString('base64url');
  const body = `${encode(header)}.${encode(payload)}`;
  return `${body}.${createHmac('sha256', secret).update(body).digest('base64url')}`;
}

describe('authentication and authorisation (docs/api.md §2)', () => {
  const t = appPerSuite();
  let b1: number;
  let b2: number;
  let seq = 0;
  const email = (name: string) => `${name}.${++seq}@example.com`;
  const denied = (res: { status: number; body: unknown; headers: Headers }) => {
    assert.equal(res.status, 401);
    assert.deepEqual(res.body, DENIED);
    assert.ok(res.headers.get('www-authenticate'));
  };

  before(async () => {
    [b1, b2] = await createBusinesses(t, 'North', 'South');
  });

  describe('POST /api/token, password grant', () => {
    it('issues a bearer token, its refresh token and expires_in seconds', async () => {
      const res = await requestToken(t, { grant_type: 'password', username: ADMIN_EMAIL, password: ADMIN_PASSWORD });
      assert.equal(res.status, 200);
      assert.deepEqual(Object.keys(res.body).sort(), ['access_token', 'expires_in', 'refresh_token', 'token_type']);
      assert.equal(res.body.token_type, 'bearer');
      assert.equal(res.body.expires_in, 3600);
      assert.equal(res.headers.get('cache-control'), 'no-store');
      const payload = claims(res.body.access_token);
      assert.equal(JSON.parse(Buffer.from(res.body.access_token.split('.')[0], 'base64url').toString()).alg, 'HS256');
      assert.equal(payload.exp - payload.iat, 3600);
      assert.match(String(payload.sub), /^\d+$/);
      const me = await t.get('/api/sys/businesses', { auth: bearer(res.body.access_token) });
      assert.equal(me.status, 200);
    });

    it('accepts the email in any case', async () => {
      await passwordToken(t, ADMIN_EMAIL.toUpperCase(), ADMIN_PASSWORD);
    });

    it('refuses anything but a form: JSON body, other types, missing or unknown grant → unsupported_grant_type', async () => {
      const json = await t.request('POST', '/api/token', {
        body: { grant_type: 'password', username: ADMIN_EMAIL, password: ADMIN_PASSWORD },
        auth: null,
      });
      assert.equal(json.status, 400);
      assert.deepEqual(json.body, { error: 'unsupported_grant_type' });
      const text = await t.request('POST', '/api/token', { raw: { contentType: 'text/plain', data: 'grant_type=password' }, auth: null });
      assert.deepEqual([text.status, text.body], [400, { error: 'unsupported_grant_type' }]);
      const none = await requestToken(t, { username: ADMIN_EMAIL, password: ADMIN_PASSWORD });
      assert.deepEqual([none.status, none.body], [400, { error: 'unsupported_grant_type' }]);
      const unknown = await requestToken(t, { grant_type: 'client_credentials' });
      assert.deepEqual([unknown.status, unknown.body], [400, { error: 'unsupported_grant_type' }]);
    });

    it('wrong password, unknown user, missing fields, inactive user → invalid_grant with a description', async () => {
      const id = await createUser(t, { Email: email('inactive'), Active: false });
      const inactive = (await t.get(`/api/sys/users/${id}`)).body.Email;
      const forms: Array<Record<string, string>> = [
        { grant_type: 'password', username: ADMIN_EMAIL, password: 'wrong password' },
        { grant_type: 'password', username: 'nobody@example.com', password: PASSWORD },
        { grant_type: 'password', username: ADMIN_EMAIL },
        { grant_type: 'password', username: inactive, password: PASSWORD },
      ];
      for (const form of forms) {
        const res = await requestToken(t, form);
        assert.equal(res.status, 400, JSON.stringify(form));
        assert.equal(res.body.error, 'invalid_grant');
        assert.ok(res.body.error_description);
      }
    });

    it('two-factor: missing or wrong totp → two_factor_auth_check; the current code → token', async () => {
      const secret = generateSecret();
      const address = email('totp');
      await createUser(t, { Email: address, TwoFactorEnabled: true, TwoFactorSecret: secret });
      const missing = await requestToken(t, { grant_type: 'password', username: address, password: PASSWORD });
      assert.deepEqual([missing.status, missing.body.error], [400, 'two_factor_auth_check']);
      const wrong = await requestToken(t, {
        grant_type: 'password',
        username: address,
        password: PASSWORD,
        totp: '000000' === generateSync({ secret }) ? '111111' : '000000',
      });
      assert.deepEqual([wrong.status, wrong.body.error], [400, 'two_factor_auth_check']);
      const right = await requestToken(t, {
        grant_type: 'password',
        username: address,
        password: PASSWORD,
        totp: generateSync({ secret }),
      });
      assert.equal(right.status, 200);
    });

    it('two-factor cannot be turned on without a secret; secrets and passwords are never returned', async () => {
      const res = await t.post('/api/sys/users', { Email: email('nosecret'), FullName: 'X', Password: PASSWORD, TwoFactorEnabled: true });
      assert.equal(res.status, 400);
      assert.equal(res.body.Errors[0].PropertyName, 'TwoFactorSecret');
      const id = await createUser(t, { Email: email('secretive'), TwoFactorSecret: generateSecret() });
      const read = await t.get(`/api/sys/users/${id}`);
      const list = await t.get('/api/sys/users?size=1000');
      for (const text of [read.text, list.text]) {
        assert.doesNotMatch(text, /Password|TwoFactorSecret|scrypt|SecurityStamp|EmailKey/);
      }
    });
  });

  describe('refresh tokens', () => {
    it('rotate: a refresh gives new tokens; the used one replayed is refused and revokes its successor', async () => {
      const first = await passwordToken(t, ADMIN_EMAIL, ADMIN_PASSWORD, { client_id: 'rotation-app' });
      const second = await requestToken(t, { grant_type: 'refresh_token', refresh_token: first.refresh_token, client_id: 'rotation-app' });
      assert.equal(second.status, 200);
      assert.notEqual(second.body.refresh_token, first.refresh_token);
      assert.equal((await t.get('/api/sys/businesses', { auth: bearer(second.body.access_token) })).status, 200);
      const replay = await requestToken(t, { grant_type: 'refresh_token', refresh_token: first.refresh_token, client_id: 'rotation-app' });
      assert.deepEqual([replay.status, replay.body.error], [400, 'invalid_grant']);
      const successor = await requestToken(t, {
        grant_type: 'refresh_token',
        refresh_token: second.body.refresh_token,
        client_id: 'rotation-app',
      });
      assert.deepEqual([successor.status, successor.body.error], [400, 'invalid_grant']);
    });

    it('client_id must match, from the form or the client_id header; by default it is the email', async () => {
      const issued = await passwordToken(t, ADMIN_EMAIL, ADMIN_PASSWORD, { client_id: 'mobile' });
      const mismatch = await requestToken(t, { grant_type: 'refresh_token', refresh_token: issued.refresh_token, client_id: 'desktop' });
      assert.deepEqual([mismatch.status, mismatch.body.error], [400, 'invalid_grant']);
      const viaHeader = await requestToken(
        t,
        { grant_type: 'refresh_token', refresh_token: issued.refresh_token },
        { client_id: 'mobile' },
      );
      assert.equal(viaHeader.status, 200);
      const byDefault = await passwordToken(t, ADMIN_EMAIL, ADMIN_PASSWORD);
      const withoutClient = await requestToken(t, { grant_type: 'refresh_token', refresh_token: byDefault.refresh_token });
      assert.equal(withoutClient.status, 200);
      const withEmail = await requestToken(t, {
        grant_type: 'refresh_token',
        refresh_token: withoutClient.body.refresh_token,
        client_id: ADMIN_EMAIL,
      });
      assert.equal(withEmail.status, 200);
    });

    it('one live refresh token per (user, client_id): a new login revokes the earlier one', async () => {
      const older = await passwordToken(t, ADMIN_EMAIL, ADMIN_PASSWORD, { client_id: 'kiosk' });
      const newer = await passwordToken(t, ADMIN_EMAIL, ADMIN_PASSWORD, { client_id: 'kiosk' });
      const other = await passwordToken(t, ADMIN_EMAIL, ADMIN_PASSWORD, { client_id: 'other-app' });
      assert.equal(
        (await requestToken(t, { grant_type: 'refresh_token', refresh_token: older.refresh_token, client_id: 'kiosk' })).status,
        400,
      );
      assert.equal(
        (await requestToken(t, { grant_type: 'refresh_token', refresh_token: other.refresh_token, client_id: 'other-app' })).status,
        200,
      );
      // The replay of `older` revoked the kiosk family, newer included.
      assert.equal(
        (await requestToken(t, { grant_type: 'refresh_token', refresh_token: newer.refresh_token, client_id: 'kiosk' })).status,
        400,
      );
    });

    it('unknown or missing refresh tokens → invalid_grant; refresh tokens are stored hashed', async () => {
      const issued = await passwordToken(t, ADMIN_EMAIL, ADMIN_PASSWORD, { client_id: 'hash-check' });
      const forms: Array<Record<string, string>> = [
        { grant_type: 'refresh_token', refresh_token: 'not-a-token' },
        { grant_type: 'refresh_token' },
      ];
      for (const form of forms) {
        const res = await requestToken(t, form);
        assert.deepEqual([res.status, res.body.error], [400, 'invalid_grant']);
      }
      const stored = JSON.stringify(await t.rows('refresh_token'));
      assert.ok(!stored.includes(issued.refresh_token));
    });

    it('20 simultaneous refreshes with one refresh token yield at most one new token', async () => {
      const issued = await passwordToken(t, ADMIN_EMAIL, ADMIN_PASSWORD, { client_id: 'race' });
      const results = await Promise.all(
        Array.from({ length: 20 }, () =>
          requestToken(t, { grant_type: 'refresh_token', refresh_token: issued.refresh_token, client_id: 'race' }),
        ),
      );
      const granted = results.filter((r) => r.status === 200);
      assert.ok(granted.length <= 1, `${granted.length} granted`);
      assert.ok(results.every((r) => r.status === 200 || r.body.error === 'invalid_grant'));
      const live = (await t.rows('refresh_token')).filter((r) => r.ClientId === 'race' && r.UsedOn === null && r.RevokedOn === null);
      assert.ok(live.length <= 1);
    });
  });

  describe('bearer and basic on every authenticated route', () => {
    it('no credentials, or a malformed scheme → 401 with the body and WWW-Authenticate', async () => {
      denied(await t.get('/api/sys/businesses', { auth: null }));
      denied(await t.get('/api/sys/businesses', { auth: 'Token abc' }));
      denied(await t.get('/api/sys/businesses', { auth: 'Bearer' }));
    });

    it('tampered, expired, alg:none and wrong-secret tokens → 401', async () => {
      const good = (await passwordToken(t, ADMIN_EMAIL, ADMIN_PASSWORD)).access_token;
      const payload = claims(good);
      const [h, , s] = good.split('.');
      const tampered = `${h}.${Buffer.from(JSON.stringify({ ...payload, sub: '999' })).toString('base64url')}.${s}`;
      const now = Math.floor(Date.now() / 1000);
      const expired = signed({ ...payload, iat: now - 7200, exp: now - 3600 });
      const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.`;
      const wrongSecret = signed(payload, undefined, 'another-secret-another-secret-another-secret');
      for (const token of [tampered, expired, none, wrongSecret, 'garbage'])
        denied(await t.get('/api/sys/businesses', { auth: bearer(token) }));
      assert.equal((await t.get('/api/sys/businesses', { auth: bearer(signed(payload)) })).status, 200);
    });

    it('Basic works on every route; wrong Basic → 401', async () => {
      assert.equal((await t.get('/api/sys/countries?size=1', { auth: basicAuth(ADMIN_EMAIL, ADMIN_PASSWORD) })).status, 200);
      denied(await t.get('/api/sys/countries', { auth: basicAuth(ADMIN_EMAIL, 'nope-nope-nope') }));
    });

    it('Basic: the user id ends at the first colon, so a password may contain colons (RFC 7617)', async () => {
      const address = email('colons');
      const password = 'pass:word:with:colons';
      await createUser(t, { Email: address, Password: password, IsAdmin: true });
      assert.equal((await t.get('/api/sys/countries?size=1', { auth: basicAuth(address, password) })).status, 200);
      denied(await t.get('/api/sys/countries?size=1', { auth: basicAuth(address, 'pass:word') }));
    });

    it('malformed Basic credentials → 401', async () => {
      const encoded = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`;
      for (const auth of [
        'Basic',
        'Basic not*base64!',
        encoded('no-colon-at-all'),
        encoded(`:${ADMIN_PASSWORD}`),
        'Basic  ',
        `Basic ${Buffer.from(`${ADMIN_EMAIL}:${ADMIN_PASSWORD}`).toString('base64')}extra`,
      ]) {
        denied(await t.get('/api/sys/countries?size=1', { auth }));
      }
    });

    it('public routes need nothing', async () => {
      assert.equal((await t.get('/health', { auth: null })).status, 200);
      assert.equal((await t.get('/api/docs-json', { auth: null })).status, 200);
    });
  });

  describe('roles', () => {
    it('<Entity>-<Action> roles, compared case-insensitively, with -Update for -Edit', async () => {
      const address = email('roles');
      await createUser(t, { Email: address, Roles: ['business-list', 'BUSINESS-Read', 'Business-Update'], Businesses: [b1, b2] });
      const auth = basicAuth(address, PASSWORD);
      assert.equal((await t.get('/api/sys/businesses', { auth })).status, 200);
      const read = await t.get(`/api/sys/businesses/${b1}`, { auth });
      assert.equal(read.status, 200);
      assert.equal((await t.put(`/api/sys/businesses/${b1}`, { ...read.body }, { auth })).status, 200);
      const before = await t.rows('business');
      denied(
        await t.post('/api/sys/businesses', { Name: 'X', CurrencyId: read.body.CurrencyId, CountryId: read.body.CountryId }, { auth }),
      );
      denied(await t.delete(`/api/sys/businesses/${b1}`, { auth }));
      denied(await t.get('/api/sys/users', { auth }));
      assert.deepEqual(await t.rows('business'), before);
    });

    it('unknown role names are refused when the user is saved', async () => {
      const res = await t.post('/api/sys/users', { Email: email('badrole'), FullName: 'X', Password: PASSWORD, Roles: ['Business-Fly'] });
      assert.equal(res.status, 400);
      assert.equal(res.body.Errors[0].PropertyName, 'Roles');
    });

    it("a customer's token on an administrator's route → 401", async () => {
      const address = email('customer');
      await createCoworker(t, b1, { Email: address, CreateUser: true, Password: PASSWORD });
      const token = (await passwordToken(t, address, PASSWORD)).access_token;
      denied(await t.get('/api/sys/businesses', { auth: bearer(token) }));
      denied(await t.get('/api/spaces/coworkers', { auth: bearer(token) }));
    });

    it('CreateUser without Password → 400 naming Password, and nothing is created', async () => {
      const before = await t.rows('coworker');
      const res = await t.post('/api/spaces/coworkers', { BusinessId: b1, FullName: 'No Pass', Email: email('nopass'), CreateUser: true });
      assert.equal(res.status, 400);
      assert.equal(res.body.Errors[0].PropertyName, 'Password');
      assert.deepEqual(await t.rows('coworker'), before);
    });
  });

  describe('restricted administrators', () => {
    let auth: string;
    before(async () => {
      const address = email('restricted');
      await createUser(t, {
        Email: address,
        Businesses: [b1],
        Roles: [
          'Business-List',
          'Business-Read',
          'Business-Edit',
          'Coworker-List',
          'Coworker-Read',
          'Coworker-Create',
          'Coworker-Edit',
          'User-List',
          'User-Read',
          'User-Create',
        ],
      });
      auth = basicAuth(address, PASSWORD);
      await createCoworker(t, b1, { FullName: 'In North' });
      await createCoworker(t, b2, { FullName: 'In South' });
    });

    it('see only their businesses in lists, with counts and pages to match', async () => {
      const businesses = await t.get('/api/sys/businesses', { auth });
      assert.deepEqual(
        businesses.body.Records.map((b: any) => b.Id),
        [b1],
      );
      assert.equal(businesses.body.TotalItems, 1);
      const coworkers = await t.get('/api/spaces/coworkers?size=1', { auth });
      const all = await t.get('/api/spaces/coworkers?size=1000');
      const north = all.body.Records.filter((c: any) => c.BusinessId === b1).length;
      assert.equal(coworkers.body.TotalItems, north);
      assert.equal(coworkers.body.TotalPages, north);
      const batch = await t.get(`/api/sys/businesses?id=[${b1},${b2}]`, { auth });
      assert.deepEqual(
        batch.body.map((b: any) => b.Id),
        [b1],
      );
    });

    it("get 401 on another business's record, and on creating into or moving to another business", async () => {
      denied(await t.get(`/api/sys/businesses/${b2}`, { auth }));
      const south = (await t.get(`/api/spaces/coworkers?Coworker_Business=${b2}`)).body.Records[0];
      denied(await t.get(`/api/spaces/coworkers/${south.Id}`, { auth }));
      const before = await t.rows('coworker');
      denied(await t.post('/api/spaces/coworkers', { BusinessId: b2, FullName: 'Sneaky', Email: 'sneaky@example.com' }, { auth }));
      const north = (await t.get(`/api/spaces/coworkers?Coworker_Business=${b1}`)).body.Records[0];
      denied(await t.put('/api/spaces/coworkers', { ...north, BusinessId: b2 }, { auth }));
      denied(await t.put('/api/spaces/coworkers', { ...south, FullName: 'Renamed' }, { auth }));
      assert.deepEqual(await t.rows('coworker'), before);
      assert.equal(
        (await t.post('/api/spaces/coworkers', { BusinessId: b1, FullName: 'Allowed', Email: 'allowed@example.com' }, { auth })).status,
        200,
      );
    });

    it('see and make users of their businesses only, and never full administrators', async () => {
      const users = await t.get('/api/sys/users?size=1000', { auth });
      assert.ok(users.body.Records.every((u: any) => u.Businesses.includes(b1)));
      assert.ok(!users.body.Records.some((u: any) => u.Email === ADMIN_EMAIL));
      denied(await t.post('/api/sys/users', { Email: email('x'), FullName: 'X', Password: PASSWORD, Businesses: [b2] }, { auth }));
      denied(
        await t.post('/api/sys/users', { Email: email('x'), FullName: 'X', Password: PASSWORD, IsAdmin: true, Businesses: [b1] }, { auth }),
      );
      assert.equal(
        (await t.post('/api/sys/users', { Email: email('x'), FullName: 'X', Password: PASSWORD, Businesses: [b1] }, { auth })).status,
        200,
      );
    });
  });

  describe('revocation', () => {
    const check = async (change: (id: number) => Promise<void>, stillWorks?: (auth: string) => Promise<void>) => {
      const address = email('revoked');
      const id = await createUser(t, { Email: address, Roles: ['Country-List'] });
      const token = await passwordToken(t, address, PASSWORD, { client_id: 'revoke' });
      const viaBearer = bearer(token.access_token);
      const viaBasic = basicAuth(address, PASSWORD);
      assert.equal((await t.get('/api/sys/countries?size=1', { auth: viaBearer })).status, 200);
      assert.equal((await t.get('/api/sys/countries?size=1', { auth: viaBasic })).status, 200);
      await change(id);
      const took = await eventually(async () => (await t.get('/api/sys/countries?size=1', { auth: viaBearer })).status === 401);
      assert.ok(took <= 5000);
      if (stillWorks) await stillWorks(viaBasic);
      else assert.equal((await t.get('/api/sys/countries?size=1', { auth: viaBasic })).status, 401);
      const refresh = await requestToken(t, { grant_type: 'refresh_token', refresh_token: token.refresh_token, client_id: 'revoke' });
      assert.equal(refresh.status, 400);
      return id;
    };
    const update = async (id: number, changes: Record<string, unknown>) => {
      const user = (await t.get(`/api/sys/users/${id}`)).body;
      assert.equal((await t.put('/api/sys/users', { ...user, ...changes })).status, 200);
    };

    it('deactivating a user stops its tokens and Basic credentials', async () => {
      await check((id) => update(id, { Active: false }));
    });

    it('changing the password stops existing tokens and the old Basic password', async () => {
      await check((id) => update(id, { Password: 'a brand new password' }));
    });

    it('changing the roles stops existing tokens', async () => {
      await check(
        (id) => update(id, { Roles: ['Country-List', 'Country-Read'] }),
        async (basic) => {
          assert.equal((await t.get('/api/sys/countries?size=1', { auth: basic })).status, 200);
        },
      );
    });

    it('deleting a user stops its tokens', async () => {
      await check(async (id) => {
        assert.equal((await t.delete(`/api/sys/users/${id}`)).status, 200);
      });
    });

    it('a PUT that changes nothing that matters keeps tokens working', async () => {
      const address = email('stable');
      const id = await createUser(t, { Email: address, Roles: ['Country-List'] });
      const token = (await passwordToken(t, address, PASSWORD)).access_token;
      await update(id, { FullName: 'Renamed' });
      assert.equal((await t.get('/api/sys/countries?size=1', { auth: bearer(token) })).status, 200);
    });
  });

  describe('brute force', () => {
    it('10 consecutive failures (grant and Basic) lock the account: the right password then fails too', async () => {
      const address = email('locked');
      await createUser(t, { Email: address, Roles: ['Country-List'] });
      for (let i = 0; i < 5; i++)
        assert.equal((await requestToken(t, { grant_type: 'password', username: address, password: `wrong-${i}` })).status, 400);
      for (let i = 0; i < 5; i++) assert.equal((await t.get('/api/sys/countries', { auth: basicAuth(address, `wrong-${i}`) })).status, 401);
      const grant = await requestToken(t, { grant_type: 'password', username: address, password: PASSWORD });
      assert.deepEqual([grant.status, grant.body.error], [400, 'invalid_grant']);
      // The same description as a wrong password: nobody learns that the account is locked.
      const wrong = await requestToken(t, { grant_type: 'password', username: address, password: 'wrong-again' });
      assert.equal(grant.body.error_description, wrong.body.error_description);
      denied(await t.get('/api/sys/countries', { auth: basicAuth(address, PASSWORD) }));
      const [row] = (await t.rows('user')).filter((u) => u.Email === address);
      assert.ok(row.LockedUntil);
    });

    it('parallel Basic requests with the same credentials share one password check', async () => {
      const address = email('burst');
      await createUser(t, { Email: address, Roles: ['Country-List'] });
      const wrong = await Promise.all(
        Array.from({ length: 20 }, () => t.get('/api/sys/countries?size=1', { auth: basicAuth(address, 'the-same-wrong-guess') })),
      );
      assert.deepEqual([...new Set(wrong.map((res) => res.status))], [401]);
      const [row] = (await t.rows('user')).filter((u) => u.Email === address);
      assert.equal(Number(row.FailedLoginCount), 1);
      assert.equal(row.LockedUntil, null);
      const right = await Promise.all(
        Array.from({ length: 20 }, () => t.get('/api/sys/countries?size=1', { auth: basicAuth(address, PASSWORD) })),
      );
      assert.deepEqual([...new Set(right.map((res) => res.status))], [200]);
    });

    it('a success resets the count', async () => {
      const address = email('reset');
      await createUser(t, { Email: address });
      for (let round = 0; round < 2; round++) {
        for (let i = 0; i < 9; i++) await requestToken(t, { grant_type: 'password', username: address, password: 'wrong' });
        await passwordToken(t, address, PASSWORD);
      }
    });

    it('rate limits per client address with 429 and Retry-After (token endpoint and the rest counted apart)', async () => {
      const limited = await startApp({ RATE_LIMIT_TOKEN_PER_MINUTE: '4', RATE_LIMIT_PER_MINUTE: '5' });
      try {
        // The administrator's Basic credentials are checked (one login attempt of the address) and remembered
        // first: once the address is over its /api/token limit, Basic credentials are no longer checked.
        assert.equal((await limited.get('/api/sys/countries?size=1')).status, 200);
        const statuses = [];
        for (let i = 0; i < 4; i++)
          statuses.push((await requestToken(limited, { grant_type: 'password', username: ADMIN_EMAIL, password: 'x' })).status);
        assert.deepEqual(statuses, [400, 400, 400, 429]);
        const over = await requestToken(limited, { grant_type: 'password', username: ADMIN_EMAIL, password: ADMIN_PASSWORD });
        assert.equal(over.status, 429);
        assert.ok(Number(over.headers.get('retry-after')) > 0);
        const api = [];
        for (let i = 0; i < 5; i++)
          api.push((await limited.get(i % 2 ? '/api/sys/countries?size=1' : '/api/sys/currencies?size=1')).status);
        assert.deepEqual(api, [200, 200, 200, 200, 429]);
        assert.equal((await limited.get('/health')).status, 200);
      } finally {
        await limited.close();
      }
    });
  });

  describe('token refresh operations', () => {
    let customerToken: string;
    let customerUserId: number;
    before(async () => {
      const address = email('refresher');
      await createCoworker(t, b1, { Email: address, CreateUser: true, Password: PASSWORD });
      customerToken = (await passwordToken(t, address, PASSWORD)).access_token;
      customerUserId = Number(claims(customerToken).sub);
    });

    it('POST /api/sys/users/token/refresh: default 30 minutes, or ValidityInMinutes', async () => {
      const res = await t.post('/api/sys/users/token/refresh', {}, { auth: bearer(customerToken) });
      assert.equal(res.status, 200);
      assert.equal(res.body.Message, 'OK');
      assert.equal(res.body.WasSuccessful, true);
      assert.equal(res.body.Status, 200);
      const payload = claims(res.body.Value);
      assert.equal(payload.exp - payload.iat, 1800);
      assert.equal(payload.sub, String(customerUserId));
      assert.equal((await t.post('/api/sys/users/token/refresh', {}, { auth: bearer(res.body.Value) })).status, 200);
      const week = await t.post('/api/sys/users/token/refresh', { ValidityInMinutes: 10080 }, { auth: bearer(customerToken) });
      const weekClaims = claims(week.body.Value);
      assert.equal(weekClaims.exp - weekClaims.iat, 10080 * 60);
      const noBody = await t.request('POST', '/api/sys/users/token/refresh', { auth: bearer(customerToken) });
      assert.equal(noBody.status, 200);
    });

    it('ValidityInMinutes out of bounds (0, -1, text, 10081) → 400 envelope', async () => {
      for (const value of [0, -1, 'text', 10081, 1.5]) {
        const res = await t.post('/api/sys/users/token/refresh', { ValidityInMinutes: value }, { auth: bearer(customerToken) });
        assert.equal(res.status, 400, String(value));
        assert.equal(res.body.WasSuccessful, false);
        assert.equal(res.body.Value, null);
        assert.equal(res.body.Errors[0].PropertyName, 'ValidityInMinutes');
      }
    });

    it('missing or invalid token → 401; a user that no longer resolves → AccessDenied', async () => {
      denied(await t.post('/api/sys/users/token/refresh', {}, { auth: null }));
      denied(await t.post('/api/sys/users/token/refresh', {}, { auth: bearer('garbage') }));
      const ghost = signed({ sub: '987654', ver: 0, iat: Math.floor(Date.now() / 1000), exp: Math.floor(Date.now() / 1000) + 600 });
      const res = await t.post('/api/sys/users/token/refresh', {}, { auth: bearer(ghost) });
      assert.equal(res.status, 401);
      assert.equal(res.body.Message, 'AccessDenied');
      assert.equal(res.body.WasSuccessful, false);
      assert.equal(res.body.Value, null);
    });

    it('POST /api/sys/users/{id}/token/refresh: full administrator gets a token for the user', async () => {
      const res = await t.post(`/api/sys/users/${customerUserId}/token/refresh`, { ValidityInMinutes: 5 });
      assert.equal(res.status, 200);
      const payload = claims(res.body.Value);
      assert.equal(payload.sub, String(customerUserId));
      assert.equal(payload.exp - payload.iat, 300);
      assert.equal((await t.post('/api/sys/users/token/refresh', {}, { auth: bearer(res.body.Value) })).status, 200);
    });

    it('unknown user → 404; User-Edit with no business in common → AccessDenied; in common → 200; no role → 401', async () => {
      const missing = await t.post('/api/sys/users/987654/token/refresh', {});
      assert.deepEqual([missing.status, missing.body], [404, 'Not found']);
      const south = email('south-admin');
      await createUser(t, { Email: south, Businesses: [b2], Roles: ['User-Edit'] });
      const target = await createUser(t, { Email: email('north-user'), Businesses: [b1] });
      const refused = await t.post(`/api/sys/users/${target}/token/refresh`, {}, { auth: basicAuth(south, PASSWORD) });
      assert.equal(refused.status, 401);
      assert.equal(refused.body.Message, 'AccessDenied');
      const north = email('north-admin');
      await createUser(t, { Email: north, Businesses: [b1], Roles: ['User-Update'] });
      assert.equal((await t.post(`/api/sys/users/${target}/token/refresh`, {}, { auth: basicAuth(north, PASSWORD) })).status, 200);
      denied(await t.post(`/api/sys/users/${target}/token/refresh`, {}, { auth: bearer(customerToken) }));
    });
  });

  describe('users', () => {
    it('emails are unique, case-insensitively; a refused user changes nothing', async () => {
      const address = email('unique');
      await createUser(t, { Email: address });
      const before = await t.rows('user');
      const res = await t.post('/api/sys/users', { Email: address.toUpperCase(), FullName: 'Dup', Password: PASSWORD });
      assert.equal(res.status, 400);
      assert.equal(res.body.Errors[0].PropertyName, 'Email');
      const short = await t.post('/api/sys/users', { Email: email('short'), FullName: 'Short', Password: 'short' });
      assert.equal(short.body.Errors[0].PropertyName, 'Password');
      const noPassword = await t.post('/api/sys/users', { Email: email('nopw'), FullName: 'No password' });
      assert.equal(noPassword.body.Errors[0].PropertyName, 'Password');
      assert.deepEqual(await t.rows('user'), before);
    });

    it('update: absent or null Password keeps the stored one', async () => {
      const address = email('keep');
      const id = await createUser(t, { Email: address });
      const user = (await t.get(`/api/sys/users/${id}`)).body;
      assert.equal((await t.put('/api/sys/users', { ...user, FullName: 'Kept', Password: null })).status, 200);
      await passwordToken(t, address, PASSWORD);
    });

    it('the bootstrap administrator exists once and is a full administrator', async () => {
      const admins = (await t.get(`/api/sys/users?User_Email=${encodeURIComponent(ADMIN_EMAIL)}`)).body;
      assert.equal(admins.TotalItems, 1);
      assert.equal(admins.Records[0].IsAdmin, true);
      assert.equal(admins.Records[0].Active, true);
    });
  });
});

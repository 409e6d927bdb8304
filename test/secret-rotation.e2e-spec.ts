import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { jwtKeyId } from '../src/config/configuration.js';
import { bearer, claims, passwordToken } from './support/auth.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, freshMySqlDatabase, onMySql, startApp, type TestApp } from './support/test-app.js';

// JWT_SECRET rotation (docs/operations.md, "Secret rotation"): instances restarted with a new
// JWT_SECRET and the old one in JWT_PREVIOUS_SECRETS keep accepting the tokens the old secret signed
// until they expire; once the old secret is removed, they are refused. Three starts of the service on
// one database, as a rolling rotation does.

const OLD = 'the-old-secret-the-old-secret-the-old-secret';
const NEW = 'the-new-secret-the-new-secret-the-new-secret';
const REMOVED = 'a-removed-secret-a-removed-secret-removed';

function signed(payload: object, secret: string, header: object): string {
  const encode = (part: object) => Buffer.from(JSON.stringify(part)).toString('base64url');
  const body = `${encode(header)}.${encode(payload)}`;
  return `${body}.${createHmac('sha256', secret).update(body).digest('base64url')}`;
}
const header = (token: string) => JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString()) as Record<string, unknown>;

describe('JWT_SECRET rotation with JWT_PREVIOUS_SECRETS', () => {
  let database: { url: string; drop: () => Promise<void> };
  let oldToken: string;
  let payload: Record<string, unknown>;
  const statusWith = async (t: TestApp, token: string) => (await t.get('/api/sys/businesses', { auth: bearer(token) })).status;

  before(async () => {
    if (onMySql) {
      database = await freshMySqlDatabase();
    } else {
      const dir = mkdtempSync(join(tmpdir(), 'cw-rotation-'));
      database = { url: `sqlite:${join(dir, 'db.sqlite')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
    }
    // Before the rotation: tokens are signed with OLD.
    const before = await startApp({ DATABASE_URL: database.url, JWT_SECRET: OLD });
    try {
      oldToken = (await passwordToken(before, ADMIN_EMAIL, ADMIN_PASSWORD)).access_token;
      assert.equal(await statusWith(before, oldToken), 200);
    } finally {
      await before.close();
    }
    payload = claims(oldToken);
  });
  after(() => database.drop());

  it('tokens carry a kid, a hash of the secret that signed them and not the secret', () => {
    const { kid, alg } = header(oldToken);
    assert.equal(alg, 'HS256');
    assert.equal(kid, jwtKeyId(OLD));
    assert.ok(typeof kid === 'string' && !OLD.includes(kid) && !oldToken.includes(OLD));
  });

  it('during the rotation: old tokens work until they expire, new tokens are signed with the new secret, removed secrets are refused', async () => {
    const during = await startApp({ DATABASE_URL: database.url, JWT_SECRET: NEW, JWT_PREVIOUS_SECRETS: OLD });
    try {
      assert.equal(await statusWith(during, oldToken), 200, 'a token signed with the previous secret');
      const now = Math.floor(Date.now() / 1000);
      const expired = signed({ ...payload, iat: now - 7200, exp: now - 60 }, OLD, { alg: 'HS256', typ: 'JWT', kid: jwtKeyId(OLD) });
      assert.equal(await statusWith(during, expired), 401, 'the previous secret does not extend a token past its expiry');
      // Tokens issued before kids existed are checked against every secret still accepted.
      assert.equal(await statusWith(during, signed(payload, OLD, { alg: 'HS256', typ: 'JWT' })), 200);
      // A removed secret: refused whether its token names its own kid, the previous one's, or none.
      for (const kid of [jwtKeyId(REMOVED), jwtKeyId(OLD), undefined]) {
        assert.equal(await statusWith(during, signed(payload, REMOVED, { alg: 'HS256', typ: 'JWT', kid })), 401, `kid ${kid}`);
      }
      const fresh = (await passwordToken(during, ADMIN_EMAIL, ADMIN_PASSWORD)).access_token;
      assert.equal(header(fresh).kid, jwtKeyId(NEW));
      assert.equal(await statusWith(during, fresh), 200);
    } finally {
      await during.close();
    }
  });

  it('after the rotation (the old secret removed), its tokens are refused', async () => {
    const afterwards = await startApp({ DATABASE_URL: database.url, JWT_SECRET: NEW });
    try {
      assert.equal(await statusWith(afterwards, oldToken), 401);
      const fresh = (await passwordToken(afterwards, ADMIN_EMAIL, ADMIN_PASSWORD)).access_token;
      assert.equal(await statusWith(afterwards, fresh), 200);
    } finally {
      await afterwards.close();
    }
  });
});

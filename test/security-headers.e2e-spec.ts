import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { passwordToken, requestToken } from './support/auth.js';
import { createProduct } from './support/billing-fixtures.js';
import { createBusiness } from './support/fixtures.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, appPerSuite, type HttpResponse } from './support/test-app.js';

// Security headers on every answer and CORS for CORS_ORIGINS only (docs/operations.md, "Security
// headers and CORS"; docs/api.md §1: nosniff everywhere, no-store on records and tokens).

const ALLOWED = 'https://app.example.com';
const ALSO_ALLOWED = 'http://localhost:5173';
const OTHER = 'https://evil.example.net';

const corsHeaders = (res: HttpResponse) => [...res.headers.keys()].filter((name) => name.startsWith('access-control-'));
const preflight = (origin: string, method = 'POST', headers = 'authorization,content-type,idempotency-key') => ({
  origin,
  'access-control-request-method': method,
  'access-control-request-headers': headers,
});

describe('security headers and CORS', () => {
  const t = appPerSuite({ CORS_ORIGINS: `${ALLOWED},${ALSO_ALLOWED}` });
  let product: number;

  before(async () => {
    product = await createProduct(t, await createBusiness(t));
  });

  describe('CORS (CORS_ORIGINS)', () => {
    it('a preflight from a listed origin gets the CORS headers, and no other work is done', async () => {
      for (const origin of [ALLOWED, ALSO_ALLOWED]) {
        const res = await t.request('OPTIONS', '/api/billing/products', { headers: preflight(origin), auth: null });
        assert.equal(res.status, 204);
        assert.equal(res.headers.get('access-control-allow-origin'), origin);
        assert.match(res.headers.get('access-control-allow-methods') ?? '', /\bPOST\b/);
        const allowedHeaders = (res.headers.get('access-control-allow-headers') ?? '').toLowerCase();
        for (const header of ['authorization', 'content-type', 'idempotency-key', 'if-match'])
          assert.ok(allowedHeaders.includes(header), header);
        assert.equal(res.headers.get('access-control-allow-credentials'), null, 'bearer tokens, no cookies');
        assert.match(res.headers.get('vary') ?? '', /Origin/);
      }
    });

    it('a preflight from any other origin gets no CORS header', async () => {
      for (const origin of [OTHER, 'null', `${ALLOWED}.evil.example`, 'http://app.example.com']) {
        const res = await t.request('OPTIONS', '/api/billing/products', { headers: preflight(origin), auth: null });
        assert.notEqual(res.status, 204);
        assert.deepEqual(corsHeaders(res), [], origin);
      }
    });

    it('answers to a listed origin may be read by its scripts (and their ETag and request id); others may not', async () => {
      const allowed = await t.get(`/api/billing/products/${product}`, { headers: { origin: ALLOWED } });
      assert.equal(allowed.status, 200);
      assert.equal(allowed.headers.get('access-control-allow-origin'), ALLOWED);
      assert.match(allowed.headers.get('access-control-expose-headers') ?? '', /ETag.*X-Request-Id|X-Request-Id.*ETag/);
      const other = await t.get(`/api/billing/products/${product}`, { headers: { origin: OTHER } });
      assert.equal(other.status, 200);
      assert.deepEqual(corsHeaders(other), []);
    });
  });

  describe('X-Content-Type-Options: nosniff and the Content-Security-Policy', () => {
    it('on every kind of answer: records, lists, errors, tokens, health, the documentation', async () => {
      const answers: Array<[string, HttpResponse]> = [
        ['record', await t.get(`/api/billing/products/${product}`)],
        ['list', await t.get('/api/billing/products')],
        ['401', await t.get('/api/billing/products', { auth: null })],
        ['404', await t.get('/api/no-such-route')],
        ['400', await t.post('/api/billing/products', { Name: 42 })],
        ['token', await requestToken(t, { grant_type: 'password', username: ADMIN_EMAIL, password: ADMIN_PASSWORD })],
        ['token error', await requestToken(t, { grant_type: 'password', username: ADMIN_EMAIL, password: 'wrong' })],
        ['health', await t.get('/health', { auth: null })],
        ['docs', await t.get('/api/docs', { auth: null })],
        ['docs asset', await t.get('/api/docs/swagger-ui-init.js', { auth: null })],
        ['openapi', await t.get('/api/docs-json', { auth: null })],
      ];
      for (const [name, res] of answers) {
        assert.equal(res.headers.get('x-content-type-options'), 'nosniff', name);
        assert.ok(res.headers.get('content-security-policy'), name);
        assert.equal(res.headers.get('x-frame-options'), 'DENY', name);
        assert.ok(res.headers.get('referrer-policy'), name);
      }
      assert.deepEqual(
        answers.filter(([, res]) => res.status >= 500).map(([name]) => name),
        [],
      );
    });

    it('JSON answers load nothing; the documentation page may load its own scripts and styles only', async () => {
      const api = (await t.get('/api/billing/products')).headers.get('content-security-policy')!;
      assert.match(api, /default-src 'none'/);
      assert.match(api, /frame-ancestors 'none'/);
      const docs = (await t.get('/api/docs', { auth: null })).headers.get('content-security-policy')!;
      assert.match(docs, /script-src 'self'(;|$)/, 'no inline or remote script');
      assert.match(docs, /connect-src 'self'/);
      assert.doesNotMatch(docs, /unsafe-eval|\*/);
    });
  });

  describe('Cache-Control: no-store', () => {
    it('on answers holding records or tokens, and on errors', async () => {
      const token = await requestToken(t, { grant_type: 'password', username: ADMIN_EMAIL, password: ADMIN_PASSWORD });
      assert.equal(token.status, 200);
      const refreshed = await requestToken(t, { grant_type: 'refresh_token', refresh_token: token.body.refresh_token });
      const { Id, UpdatedOn, CreatedOn, ...fields } = (await t.get(`/api/billing/products/${product}`)).body;
      assert.ok(Id && UpdatedOn !== undefined && CreatedOn !== undefined);
      const created = await t.post('/api/billing/products', { ...fields, Name: 'Cached nowhere' });
      assert.equal(created.status, 200, created.text);
      const answers: Array<[string, HttpResponse]> = [
        ['token', token],
        ['refreshed token', refreshed],
        ['record', await t.get(`/api/billing/products/${product}`)],
        ['list', await t.get('/api/billing/products')],
        ['created', created],
        ['updated', await t.put('/api/billing/products', { ...(await t.get(`/api/billing/products/${product}`)).body, Name: 'Renamed' })],
        ['deleted', await t.delete(`/api/billing/products/${created.body.Value.Id}`)],
        ['401', await t.get('/api/billing/products', { auth: null })],
        ['token error', await requestToken(t, { grant_type: 'password', username: ADMIN_EMAIL, password: 'wrong' })],
      ];
      for (const [name, res] of answers) {
        assert.ok(res.status < 500, `${name}: ${res.status}`);
        assert.equal(res.headers.get('cache-control'), 'no-store', name);
      }
    });
  });

  describe('the API documentation (Swagger UI)', () => {
    it('does not keep the authorisation in localStorage (persistAuthorization: false)', async () => {
      const init = await t.get('/api/docs/swagger-ui-init.js', { auth: null });
      assert.equal(init.status, 200);
      assert.match(init.text, /"persistAuthorization":\s*false/);
      assert.doesNotMatch(init.text, /"persistAuthorization":\s*true/);
    });

    it('a bearer token from /api/token works on the routes the page calls', async () => {
      const { access_token } = await passwordToken(t, ADMIN_EMAIL, ADMIN_PASSWORD);
      assert.equal((await t.get('/api/billing/products', { auth: `Bearer ${access_token}` })).status, 200);
    });
  });
});

describe('CORS without CORS_ORIGINS (the default)', () => {
  const t = appPerSuite();

  it('no origin gets CORS headers, on a preflight or a request', async () => {
    const pre = await t.request('OPTIONS', '/api/billing/products', { headers: preflight(ALLOWED), auth: null });
    assert.deepEqual(corsHeaders(pre), []);
    const get = await t.get('/api/billing/products', { headers: { origin: ALLOWED } });
    assert.equal(get.status, 200);
    assert.deepEqual(corsHeaders(get), []);
    assert.equal(get.headers.get('x-content-type-options'), 'nosniff');
  });
});

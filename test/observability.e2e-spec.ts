import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { HealthRepository } from '../src/health/health.repository.js';
import { requestToken } from './support/auth.js';
import { createBilledInvoice, createCoworkerInvoice, createCreditSpendingBooking, createProduct } from './support/billing-fixtures.js';
import { create, createBusiness } from './support/fixtures.js';
import { freePort, sleep } from './support/service.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, appPerSuite, onMySql, startApp, TEST_JWT_SECRET, type TestApp } from './support/test-app.js';
import { startReceiver, type Receiver } from './support/webhook-receiver.js';

// Prometheus metrics and the liveness and readiness checks over HTTP (docs/operations.md, "Metrics"
// and "Health checks").

const HOOKS = '/api/sys/webhooks';
const WEBHOOKS = { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_RETRY_DELAYS: '0.2', WEBHOOK_MAX_CONSECUTIVE_FAILURES: '50' };

/** Prometheus's text format: each sample's name, labels and value. */
function samples(text: string): Array<{ name: string; labels: Record<string, string>; value: number }> {
  return text
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const match = /^(\w+)(?:\{(.*)\})? (\S+)$/.exec(line);
      assert.ok(match, `a sample line: ${line}`);
      const labels: Record<string, string> = {};
      for (const [, name, value] of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[name] = value;
      return { name: match[1], labels, value: Number(match[3]) };
    });
}
const value = (text: string, name: string, labels: Record<string, string> = {}) =>
  samples(text)
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);

describe('metrics are off by default', () => {
  const t = appPerSuite();

  it('GET /metrics is no route', async () => {
    const res = await t.get('/metrics', { auth: null });
    assert.equal(res.status, 404);
    assert.doesNotMatch(res.text, /http_requests_total/);
  });
});

describe('GET /metrics (METRICS_ENABLED=true)', () => {
  const t = appPerSuite({ METRICS_ENABLED: 'true', RATE_LIMIT_TOKEN_PER_MINUTE: '3', ...WEBHOOKS });
  let receiver: Receiver;
  let business: number;
  const scrape = async () => {
    const res = await t.get('/metrics', { auth: null });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
    return res.text;
  };

  before(async () => {
    receiver = await startReceiver((path) => (path === '/refuse' ? 500 : 200));
    business = await createBusiness(t);
  });
  after(() => receiver.close());

  it('counts requests by method, route template and status, with their latency', async () => {
    const product = await createProduct(t, business);
    const before = await scrape();
    for (let i = 0; i < 3; i++) assert.equal((await t.get(`/api/billing/products/${product}`)).status, 200);
    assert.equal((await t.get(`/api/billing/products/${product}`, { auth: null })).status, 401);
    assert.equal((await t.get(`/no/such/path/${product}`)).status, 404);
    const text = await scrape();
    const route = { method: 'GET', route: '/api/billing/products/:id' };
    assert.equal(
      value(text, 'http_requests_total', { ...route, status: '200' }) - value(before, 'http_requests_total', { ...route, status: '200' }),
      3,
    );
    assert.equal(
      value(text, 'http_requests_total', { ...route, status: '401' }) - value(before, 'http_requests_total', { ...route, status: '401' }),
      1,
    );
    assert.equal(
      value(text, 'http_request_duration_seconds_count', { ...route, status: '200' }) -
        value(before, 'http_request_duration_seconds_count', { ...route, status: '200' }),
      3,
    );
    assert.ok(value(text, 'http_request_duration_seconds_sum', { ...route, status: '200' }) > 0);
    assert.ok(value(text, 'http_request_duration_seconds_bucket', { ...route, status: '200', le: '+Inf' }) >= 3);
    assert.ok(value(text, 'http_requests_total', { route: '(unmatched)', status: '404' }) >= 1);
    // Ids and unknown paths never become labels (one series per route, not per record).
    assert.ok(!samples(text).some((s) => s.labels.route?.includes(String(product)) && s.labels.route !== '(unmatched)'));
    assert.doesNotMatch(text, /no\/such\/path/);
    // The process's own metrics come along.
    assert.ok(value(text, 'process_resident_memory_bytes') > 0);
    assert.ok(samples(text).some((s) => s.name.startsWith('nodejs_eventloop_lag')));
  });

  it('counts 429s of the rate limit by limit', async () => {
    const before = value(await scrape(), 'coworking_rate_limited_total', { limit: 'token' });
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => requestToken(t, { grant_type: 'password', username: ADMIN_EMAIL, password: 'wrong password' })),
    );
    const refused = answers.filter((res) => res.status === 429).length;
    assert.ok(refused >= 3, `${refused} of 6 refused with 429`);
    const text = await scrape();
    assert.equal(value(text, 'coworking_rate_limited_total', { limit: 'token' }) - before, refused);
    assert.ok(value(text, 'http_requests_total', { route: '/api/token', status: '429' }) >= refused);
  });

  it("shows the webhook outbox's backlog, attempts and failed deliveries", async () => {
    const ok = await create(t, HOOKS, { BusinessId: business, Name: 'fine', Action: 3, URL: `${receiver.url}/fine` });
    const refused = await create(t, HOOKS, { BusinessId: business, Name: 'refused', Action: 3, URL: `${receiver.url}/refuse` });
    assert.equal((await t.post(`${HOOKS}/${ok}/test`)).status, 200);
    assert.equal((await t.post(`${HOOKS}/${refused}/test`)).status, 200);
    // The refused delivery is tried twice (one retry), then Failed.
    for (let i = 0; ; i++) {
      const log = (await t.get(`${HOOKS}/${refused}/deliveries`)).body.Records as Array<{ Status: string }>;
      if (log[0]?.Status === 'Failed') break;
      assert.ok(i < 300, `the delivery did not fail: ${JSON.stringify(log)}`);
      await sleep(50);
    }
    await receiver.waitFor('/fine', 1);
    for (let i = 0; (await t.get(`${HOOKS}/${ok}/deliveries`)).body.Records[0]?.Status !== 'Succeeded'; i++) {
      assert.ok(i < 300);
      await sleep(50);
    }
    const text = await scrape();
    assert.equal(value(text, 'coworking_webhook_outbox_up'), 1);
    assert.equal(value(text, 'coworking_webhook_outbox_pending'), 0);
    assert.equal(value(text, 'coworking_webhook_outbox_oldest_pending_seconds'), 0);
    assert.equal(value(text, 'coworking_webhook_deliveries_failed'), 1);
    assert.equal(value(text, 'coworking_webhook_attempts_total', { outcome: 'failed' }), 2);
    assert.equal(value(text, 'coworking_webhook_attempts_total', { outcome: 'succeeded' }), 1);
  });

  it('counts the money once it is committed (invoices, credit notes, payments, bookings; refused ones not), billing runs and prints', async () => {
    const before = await scrape();
    const billed = await createBilledInvoice(t);
    const invoice = (await t.get(`/api/billing/coworkerinvoices/${billed}`)).body;
    const other = await createCoworkerInvoice(t, invoice.BusinessId, invoice.CoworkerId, { TotalAmount: 50 });
    const command = (Key: string, Ids: number[], Parameters: unknown[] = []) =>
      t.post('/api/billing/coworkerinvoices/runcommand', { Key, Ids, Parameters });
    assert.equal((await command('PAY_COWORKER_INVOICE_MANUAL', [billed])).body.WasSuccessful, true);
    // Refused (nothing is due any more): rolled back, so not counted.
    assert.equal((await command('PAY_COWORKER_INVOICE_MANUAL', [billed])).body.WasSuccessful, false);
    assert.equal((await command('COWORKER_INVOICE_CANCEL', [other], [{ Name: `Amount${other}`, Value: 20 }])).body.WasSuccessful, true);
    await createCreditSpendingBooking(t);
    const printed = await command('COWORKER_INVOICE_PRINT', [billed]);
    assert.equal(printed.body.WasSuccessful, true, JSON.stringify(printed.body));
    const text = await scrape();
    const grew = (name: string, labels: Record<string, string> = {}) => value(text, name, labels) - value(before, name, labels);
    // The billing run of createBilledInvoice: one manual run of one business, one invoice of one line.
    assert.equal(grew('coworking_billing_runs_started_total', { trigger: 'Manual' }), 1);
    assert.equal(grew('coworking_billing_runs_finished_total', { trigger: 'Manual' }), 1);
    assert.equal(grew('coworking_billing_runs_failed_total'), 0);
    assert.equal(grew('coworking_billing_run_invoices_total', { trigger: 'Manual' }), 1);
    assert.equal(grew('coworking_billing_run_lines_total', { trigger: 'Manual' }), 1);
    assert.equal(grew('coworking_billing_run_duration_seconds_count', { trigger: 'Manual' }), 1);
    assert.equal(grew('coworking_prints_total', { outcome: 'made' }), 1);
    assert.equal(grew('coworking_print_duration_seconds_count'), 1);
    assert.equal(value(text, 'coworking_print_steps_waiting'), 0);
    assert.equal(grew('coworking_invoices_issued_total'), 2, "the run's invoice and the one created");
    assert.equal(grew('coworking_credit_notes_total'), 1);
    assert.equal(grew('coworking_payments_total'), 1);
    assert.equal(grew('coworking_payments_amount_total'), invoice.TotalAmount);
    assert.equal(grew('coworking_refunds_total'), 0);
    assert.equal(grew('coworking_bookings_total'), 1);
    assert.ok(text.includes('# TYPE coworking_checkins_total counter'));
  });

  it('shows the database pool (MariaDB) and the billing-run lag gauge', async () => {
    const text = await scrape();
    assert.ok(text.includes('# TYPE coworking_billing_run_lag_seconds gauge'));
    if (onMySql) {
      assert.equal(value(text, 'coworking_db_pool_max_connections'), 10);
      assert.ok(
        value(text, 'coworking_db_pool_connections', { state: 'idle' }) + value(text, 'coworking_db_pool_connections', { state: 'used' }) >=
          1,
      );
      assert.ok(samples(text).some((s) => s.name === 'coworking_db_pool_waiting_requests'));
    } else {
      assert.ok(!samples(text).some((s) => s.name.startsWith('coworking_db_pool_')), 'SQLite has no pool');
    }
  });

  it('holds no secret: no credential, token, webhook secret, e-mail or database address', async () => {
    const text = await scrape();
    for (const secret of [
      TEST_JWT_SECRET,
      ADMIN_PASSWORD,
      ADMIN_EMAIL,
      'Basic ',
      'Bearer ',
      'whsec_',
      '127.0.0.1:3306',
      'sqlite',
      receiver.url,
    ]) {
      assert.ok(!text.includes(secret), `the metrics hold ${secret}`);
    }
  });

  it('is public and not rate-limited; only GET', async () => {
    const answers = await Promise.all(Array.from({ length: 5 }, () => t.get('/metrics', { auth: null })));
    assert.deepEqual(
      answers.map((res) => res.status),
      [200, 200, 200, 200, 200],
    );
    assert.equal((await t.post('/metrics', {}, { auth: null })).status, 404);
  });
});

describe('METRICS_PORT: metrics on a port of their own', () => {
  let t: TestApp;
  let port: number;

  before(async () => {
    port = await freePort();
    t = await startApp({ METRICS_PORT: String(port), HOST: '127.0.0.1' });
  });
  after(() => t?.close());

  it('serves GET /metrics there, and nothing on PORT', async () => {
    assert.equal((await t.get('/health', { auth: null })).status, 200);
    const res = await fetch(`http://127.0.0.1:${port}/metrics`);
    assert.equal(res.status, 200);
    const text = await res.text();
    assert.ok(value(text, 'http_requests_total', { route: '/health', status: '200' }) >= 1);
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    assert.equal((await fetch(`http://127.0.0.1:${port}/`)).status, 404);
    assert.equal((await fetch(`http://127.0.0.1:${port}/api/sys/businesses`)).status, 404);
    assert.equal((await t.get('/metrics', { auth: null })).status, 404);
  });
});

describe('GET /health/live and /health/ready', () => {
  const t = appPerSuite();

  it('live and ready answer 200 naming their checks; /health is unchanged', async () => {
    const live = await t.get('/health/live', { auth: null });
    assert.equal(live.status, 200);
    assert.equal(live.body.status, 'ok');
    const ready = await t.get('/health/ready', { auth: null });
    assert.equal(ready.status, 200, ready.text);
    assert.equal(ready.body.status, 'ok');
    for (const check of ['database', 'shutdown', 'migrations']) assert.equal(ready.body.details[check]?.status, 'up', check);
    const health = await t.get('/health', { auth: null });
    assert.equal(health.status, 200);
    assert.deepEqual(health.body, { status: 'ok' });
    for (const res of [live, ready]) assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
  });

  it('are public, not rate-limited, and in the API documentation', async () => {
    const answers = await Promise.all(Array.from({ length: 5 }, () => t.get('/health/ready', { auth: null })));
    assert.ok(answers.every((res) => res.status === 200));
    const paths = Object.keys((await t.get('/api/docs-json', { auth: null })).body.paths);
    for (const path of ['/health', '/health/live', '/health/ready']) assert.ok(paths.includes(path), path);
    assert.ok(!paths.includes('/metrics'));
  });
});

describe('/health/ready with the database failing', () => {
  const t = appPerSuite();

  it("names only the failing check, never the database's address or its driver's error text", async () => {
    const health = t.app.get(HealthRepository);
    const ping = health.ping.bind(health);
    health.ping = () => Promise.reject(new Error('connect ECONNREFUSED 10.20.30.40:3306 (mysql://app:hunter2@db.internal/coworking)'));
    try {
      const ready = await t.get('/health/ready', { auth: null });
      assert.equal(ready.status, 503);
      assert.equal(ready.body.status, 'error');
      assert.deepEqual(ready.body.error, { database: { status: 'down' } });
      assert.equal(ready.body.details.database.status, 'down');
      for (const leak of ['10.20.30.40', '3306', 'hunter2', 'ECONNREFUSED', 'db.internal'])
        assert.ok(!ready.text.includes(leak), `the answer tells ${leak}: ${ready.text}`);
    } finally {
      health.ping = ping;
    }
    assert.equal((await t.get('/health/ready', { auth: null })).status, 200);
  });
});

describe('/health/ready while the instance shuts down', () => {
  let t: TestApp;
  let receiver: Receiver;

  before(async () => {
    t = await startApp(WEBHOOKS);
    receiver = await startReceiver(() => 'hang');
  });
  after(() => receiver.close());

  it('answers 503 (shutdown down) while a drain holds the shutdown, and live still 200', async () => {
    const business = await createBusiness(t);
    const hook = await create(t, HOOKS, { BusinessId: business, Name: 'slow', Action: 3, URL: `${receiver.url}/slow` });
    assert.equal((await t.post(`${HOOKS}/${hook}/test`)).status, 200);
    // An attempt in flight: the shutdown waits for it before the server stops listening.
    await receiver.waitFor('/slow', 1);
    const closed = t.close();
    let ready;
    for (let i = 0; ; i++) {
      ready = await t.get('/health/ready', { auth: null });
      if (ready.status !== 200) break;
      assert.ok(i < 200, 'ready never turned');
      await sleep(20);
    }
    assert.equal(ready.status, 503, ready.text);
    assert.equal(ready.body.details?.shutdown?.status, 'down', ready.text);
    assert.equal(ready.body.details.database.status, 'up');
    assert.equal((await t.get('/health/live', { auth: null })).status, 200);
    await receiver.close();
    await closed;
  });
});

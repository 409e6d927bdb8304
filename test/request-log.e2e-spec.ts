import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { freshMySqlDatabase, onMySql, TEST_JWT_SECRET } from './support/test-app.js';
import { sleep, startService, type Service } from './support/service.js';

// The request log as the README starts the service (LOG_LEVEL info): one line per answer, with the
// request id, method, route template, status and time, and no query value (docs/architecture.md §1).

const EMAIL = 'log-admin@test.example';
const PASSWORD = 'log-admin-password-1';

describe('request log at info', () => {
  let service: Service;
  let database: { url: string; drop: () => Promise<void> };

  before(async () => {
    database = onMySql ? await freshMySqlDatabase() : { url: 'sqlite::memory:', drop: async () => undefined };
    service = await startService('request-log', {
      LOG_LEVEL: 'info',
      DATABASE_URL: database.url,
      JWT_SECRET: TEST_JWT_SECRET,
      BOOTSTRAP_ADMIN_EMAIL: EMAIL,
      BOOTSTRAP_ADMIN_PASSWORD: PASSWORD,
    });
  });
  after(async () => {
    await service?.stop();
    await database?.drop();
  });

  const answered = () =>
    service
      .output()
      .split('\n')
      .filter((line) => line.includes('"answered"'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);

  it('writes exactly one line per answer, naming the route template and never the query', async () => {
    const auth = `Basic ${Buffer.from(`${EMAIL}:${PASSWORD}`).toString('base64')}`;
    const ids = ['log-list-1', 'log-get-2', 'log-none-3'];
    const list = await fetch(`${service.url}/api/billing/products?Product_Name=secret-filter-value&page=1`, {
      headers: { authorization: auth, 'x-request-id': ids[0] },
    });
    const one = await fetch(`${service.url}/api/billing/products/424242`, { headers: { authorization: auth, 'x-request-id': ids[1] } });
    const none = await fetch(`${service.url}/no/such/route?token=secret-token-value`, { headers: { 'x-request-id': ids[2] } });
    assert.deepEqual([list.status, one.status, none.status], [200, 404, 404]);
    // Lines are written asynchronously: wait until all three arrived (10 s at most). Counted by their
    // ids, not by all lines: the start-up's health checks may still be arriving (they made this flaky).
    const ours = () => answered().filter((line) => ids.includes(String(line.reqId)));
    for (const start = Date.now(); ours().length < 3 && Date.now() - start < 10_000;) await sleep(50);
    const lines = ours();
    assert.deepEqual(
      lines.map(({ reqId, method, route, status }) => ({ reqId, method, route, status })),
      [
        { reqId: ids[0], method: 'GET', route: '/api/billing/products', status: 200 },
        { reqId: ids[1], method: 'GET', route: '/api/billing/products/:id', status: 404 },
        { reqId: ids[2], method: 'GET', route: '/no/such/route', status: 404 },
      ],
    );
    for (const line of lines) assert.equal(typeof line.ms, 'number');
    const output = service.output();
    assert.ok(!output.includes('secret-filter-value') && !output.includes('secret-token-value'), 'no query value is logged');
    assert.ok(!output.includes('incoming request') && !output.includes('request completed'), "Fastify's own two lines per request are off");
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { httpRequest, type HttpAnswer } from './support/http.js';
import { freePort, sleep, startService, waitForHealth, type Service } from './support/service.js';
import { proxiedMySqlDatabase, type TcpProxy } from './support/tcp-proxy.js';
import { basicAuth, freshMySqlDatabase, onMySql, TEST_JWT_SECRET } from './support/test-app.js';

// The database goes away under a running service (a TCP proxy between them is stopped) and comes back.
// MariaDB only: SQLite has no server to lose.

const REQUEST_TIMEOUT_MS = 4000;
const ADMIN = { email: 'faults@test.example', password: 'faults-admin-password' };
const auth = basicAuth(ADMIN.email, ADMIN.password);

/** An answer and how long it took. */
type Timed = HttpAnswer & { ms: number };

describe('database faults (MariaDB behind a TCP proxy)', { skip: !onMySql && 'runs on MariaDB (TEST_DATABASE=mysql)' }, () => {
  let database: Awaited<ReturnType<typeof freshMySqlDatabase>>;
  let proxy: TcpProxy;
  let service: Service;
  let env: Record<string, string>;

  const call = async (method: string, path: string, body?: unknown): Promise<Timed> => {
    const start = Date.now();
    const res = await httpRequest(service.url + path, {
      method,
      headers: { authorization: auth },
      json: body,
      timeoutMs: REQUEST_TIMEOUT_MS * 3,
    });
    return { ...res, ms: Date.now() - start };
  };
  const unavailable = (res: Timed, what: string) => {
    assert.equal(res.status, 503, `${what}: ${JSON.stringify(res.body)}`);
    assert.ok(res.ms < REQUEST_TIMEOUT_MS + 1000, `${what} answered after ${res.ms} ms`);
  };
  const unavailableEnvelope = (res: Timed, what: string) => {
    unavailable(res, what);
    assert.equal(res.body.Status, 503);
    assert.equal(res.body.WasSuccessful, false);
    assert.equal(typeof res.body.Message, 'string');
    assert.doesNotMatch(res.body.Message, /ECONN|PROTOCOL|at .*\.js/);
  };

  before(async () => {
    let url: string;
    ({ database, proxy, url } = await proxiedMySqlDatabase());
    env = {
      DATABASE_URL: url,
      JWT_SECRET: TEST_JWT_SECRET,
      BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
      BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
      REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
    };
    service = await startService('faults', env);
  });
  after(async () => {
    await service?.stop();
    await proxy?.stop();
    await database?.drop();
  });

  let createdId: number;

  it('serves while the database is there', async () => {
    assert.deepEqual((await call('GET', '/health')).body, { status: 'ok' });
    const currency = (await call('GET', '/api/sys/currencies?Currency_Code=EUR')).body.Records[0].Id;
    const country = (await call('GET', '/api/sys/countries?Country_TwoDigitsCode=FR')).body.Records[0].Id;
    const created = await call('POST', '/api/sys/businesses', { Name: 'Before the outage', CurrencyId: currency, CountryId: country });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    createdId = created.body.Value.Id;
  });

  it("database stopped: health and every request answer 503 promptly, in the contract's body", async () => {
    await proxy.stop();
    const health = await call('GET', '/health');
    unavailable(health, 'health');
    assert.deepEqual(health.body, { status: 'unavailable' });
    // Readiness names the database; liveness (the process) is unaffected.
    const ready = await call('GET', '/health/ready');
    unavailable(ready, 'ready');
    assert.equal(ready.body.details.database.status, 'down');
    assert.equal(ready.body.details.shutdown.status, 'up');
    assert.equal((await call('GET', '/health/live')).status, 200);
    await sleep(2100); // past the two-second cache of who the caller is
    unavailableEnvelope(await call('GET', '/api/sys/businesses'), 'list');
    unavailableEnvelope(await call('GET', `/api/sys/businesses/${createdId}`), 'get');
    unavailableEnvelope(await call('POST', '/api/sys/businesses', { Name: 'During the outage', CurrencyId: 1, CountryId: 1 }), 'create');
    const token = await httpRequest(`${service.url}/api/token`, {
      method: 'POST',
      form: { grant_type: 'password', username: ADMIN.email, password: ADMIN.password },
    });
    assert.equal(token.status, 503, JSON.stringify(token.body));
    assert.equal(service.child.exitCode, null, 'the service keeps running');
  });

  it('database hanging (connections accepted, never answered): 503 within the request timeout, not a hang', async () => {
    await proxy.start('blackhole');
    const health = await call('GET', '/health');
    unavailable(health, 'health');
    assert.deepEqual(health.body, { status: 'unavailable' });
    const results = await Promise.all([call('GET', '/api/sys/businesses'), call('GET', `/api/sys/businesses/${createdId}`)]);
    for (const res of results) unavailableEnvelope(res, 'request while the database hangs');
    await proxy.stop();
  });

  it('database back: the service recovers by itself, nothing written before is lost', async () => {
    await proxy.start();
    const recoveredIn = await waitForHealth(service, 15_000);
    const list = await call('GET', '/api/sys/businesses');
    assert.equal(list.status, 200, JSON.stringify(list.body));
    assert.deepEqual(
      list.body.Records.map((b: { Name: string }) => b.Name),
      ['Before the outage'],
    );
    const created = await call('POST', '/api/sys/businesses', {
      Name: 'After the outage',
      CurrencyId: list.body.Records[0].CurrencyId,
      CountryId: list.body.Records[0].CountryId,
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.ok(recoveredIn < 15_000);
  });

  it('database down at start-up: the process keeps retrying and serves once it is there', async () => {
    await proxy.stop();
    const late = await startService('late', { ...env, PORT: String(await freePort()) }, { waitForHealth: false });
    try {
      await sleep(4000);
      assert.equal(late.child.exitCode, null, `still retrying:\n${late.output()}`);
      await proxy.start();
      await waitForHealth(late, 20_000);
      assert.equal((await fetch(`${late.url}/api/sys/businesses`, { headers: { authorization: auth } })).status, 200);
    } finally {
      const exit = await late.stop();
      assert.equal(exit.code, 0, late.output());
    }
  });
});

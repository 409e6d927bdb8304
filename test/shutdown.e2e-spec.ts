import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DataSource } from 'typeorm';
import { validateEnvironment } from '../src/config/configuration.js';
import { buildDataSourceOptions } from '../src/database/data-source-options.js';
import { basicAuth, freshMySqlDatabase, onMySql, TEST_JWT_SECRET } from './support/test-app.js';
import { sleep, startService, type Service } from './support/service.js';

// SIGTERM to the built service (node dist/src/main.js): it stops accepting, finishes what is in
// flight, closes the database pool and exits 0.

const ADMIN = { email: 'shutdown@test.example', password: 'shutdown-admin-password' };

describe('SIGTERM', () => {
  let dir: string;
  let database: { url: string; drop: () => Promise<void> };
  let service: Service;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cw-shutdown-'));
    database = onMySql ? await freshMySqlDatabase() : { url: `sqlite:${join(dir, 'db.sqlite')}`, drop: async () => undefined };
    service = await startService('shutdown', {
      DATABASE_URL: database.url,
      JWT_SECRET: TEST_JWT_SECRET,
      BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
      BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
    });
  });
  after(async () => {
    await service?.stop();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('finishes the request in flight, refuses new connections, closes the pool and exits 0', async () => {
    const currencies: any = await (
      await fetch(`${service.url}/api/sys/currencies?Currency_Code=EUR`, {
        headers: { authorization: basicAuth(ADMIN.email, ADMIN.password) },
      })
    ).json();
    const body = JSON.stringify({ Name: 'Written during shutdown', CurrencyId: currencies.Records[0].Id, CountryId: 1 });

    // A create whose body is still on its way when the signal arrives.
    let inFlight: ReturnType<typeof request> | undefined;
    const response = new Promise<{ status: number; body: any }>((resolve, reject) => {
      const req = request(
        `${service.url}/api/sys/businesses`,
        {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            authorization: basicAuth(ADMIN.email, ADMIN.password),
            'transfer-encoding': 'chunked',
          },
        },
        (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
        },
      );
      req.on('error', reject);
      req.write(body.slice(0, 10));
      inFlight = req;
    });
    await sleep(300);

    service.child.kill('SIGTERM');
    await sleep(700);
    assert.equal(service.child.exitCode, null, 'still running while a request is in flight');
    await assert.rejects(
      fetch(`${service.url}/health`, { signal: AbortSignal.timeout(3000) }),
      (error: any) => error.cause?.code === 'ECONNREFUSED',
      'new connections are refused',
    );

    inFlight!.end(body.slice(10));
    const res = await response;
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.WasSuccessful, true);

    const exit = await service.exited;
    assert.deepEqual(exit, { code: 0, signal: null }, service.output());
    assert.doesNotMatch(service.output(), /"level":(50|60)/, 'no error logged during shutdown');

    // The acknowledged write is in the database.
    const id = res.body.Value.Id;
    const check = await new DataSource(buildDataSourceOptions(validateEnvironment({ DATABASE_URL: database.url }))).initialize();
    try {
      const rows = await check.query(
        `SELECT ${check.driver.escape('Name')} AS name FROM ${check.driver.escape('business')} WHERE ${check.driver.escape('Id')} = ?`,
        [id],
      );
      assert.deepEqual(
        rows.map((row: { name: string }) => row.name),
        ['Written during shutdown'],
      );
    } finally {
      await check.destroy();
    }
  });
});

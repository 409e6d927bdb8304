import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { httpRequest, type HttpAnswer } from './support/http.js';
import { sleep, startService, type Service } from './support/service.js';
import { freshMySqlDatabase, onMySql, TEST_JWT_SECRET } from './support/test-app.js';

// docs/operations.md, "Logs": under overload a 503 is the service working as designed. The built
// service, as production runs it, gets a burst far over what it can answer in time (REQUEST_TIMEOUT_MS
// of 100 ms; on MariaDB a pool of one connection, so the pool's queue overflows too): its log has no
// line per 503, no error for them, and no "Reply was already sent" from handlers that finish after
// their request's 503 went out.

const ADMIN = { email: 'overload-admin@test.example', password: 'overload-admin-password' };

interface LogLine {
  level: number;
  msg: string;
  unavailable?: Record<string, number>;
  err?: { message?: string };
}

// On SQLite every statement runs synchronously in the process: a 1,500-request burst was answered within
// 100 ms each (nothing waits on a pool), so the overload this checks is MariaDB's.
describe(
  'the log of a service under a burst over its limits',
  { skip: !onMySql && 'runs on MariaDB (TEST_DATABASE=mysql): SQLite had no 503 under the same burst' },
  () => {
    let service: Service;
    let dir: string;
    let database: Awaited<ReturnType<typeof freshMySqlDatabase>> | undefined;
    let token: string;
    let business: number;
    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'cw-overload-'));
      database = onMySql ? await freshMySqlDatabase() : undefined;
      const env = {
        DATABASE_URL: database?.url ?? `sqlite:${join(dir, 'overload.sqlite')}`,
        JWT_SECRET: TEST_JWT_SECRET,
        BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
        BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
        RATE_LIMIT_PER_MINUTE: '1000000',
        LOG_LEVEL: 'warn',
      };
      // A token first (a password check takes longer than the burst's deadline), then the same database
      // served with REQUEST_TIMEOUT_MS=100.
      const first = await startService('token', env);
      const res = await httpRequest(`${first.url}/api/token`, {
        method: 'POST',
        form: { grant_type: 'password', username: ADMIN.email, password: ADMIN.password },
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      token = res.body.access_token;
      // The burst's business too, while the service still has time to answer (made in the burst's
      // service, its own 503 would be one more in the count and its customers would name no business).
      const made = await httpRequest(`${first.url}/api/sys/businesses`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        json: { Name: 'Overload', CurrencyId: 1, CountryId: 1 },
      });
      assert.equal(made.status, 200, JSON.stringify(made.body));
      business = made.body.Value.Id;
      await first.stop();
      service = await startService('overloaded', { ...env, REQUEST_TIMEOUT_MS: '100', DATABASE_POOL_SIZE: '1' });
    });
    after(async () => {
      await service?.stop();
      await database?.drop();
      rmSync(dir, { recursive: true, force: true });
    });

    it('answers 503 to what it cannot answer in time and logs them as a few counted warnings, without "Reply was already sent"', async () => {
      const send = (path: string, json?: unknown): Promise<HttpAnswer | null> =>
        httpRequest(service.url + path, {
          method: json ? 'POST' : 'GET',
          headers: { authorization: `Bearer ${token}` },
          json,
          timeoutMs: 30_000,
        }).catch(() => null);
      const started = Date.now();
      const logBefore = service.output().length;
      const answers = await Promise.all(
        Array.from({ length: 400 }, (_, i) =>
          i % 4 === 0
            ? send('/api/spaces/coworkers', { BusinessId: business, FullName: `Burst ${i}`, Email: `burst${i}@example.com` })
            : i % 4 === 1
              ? send('/api/sys/countries?size=1000')
              : send(`/api/sys/currencies?size=1000&page=${1 + (i % 3)}`),
        ),
      );
      const seconds = Math.ceil((Date.now() - started) / 1000);
      // The counted lines are written a second after their first 503.
      await sleep(1500);
      const statuses = answers.map((answer) => answer?.status ?? 0);
      const unavailable = statuses.filter((status) => status === 503).length;
      assert.ok(
        unavailable >= 50,
        `the burst overloaded the service: ${unavailable} answers 503 of ${statuses.length} (${JSON.stringify(Object.fromEntries(statuses.map((s) => [s, statuses.filter((x) => x === s).length])))})`,
      );

      const lines = service
        .output()
        .slice(logBefore)
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as LogLine);
      assert.deepEqual(
        lines
          .filter((line) => /already sent/i.test(line.msg ?? '') || /already sent/i.test(line.err?.message ?? ''))
          .map((line) => line.msg),
        [],
      );
      assert.deepEqual(
        lines.filter((line) => line.level >= 50).map((line) => JSON.stringify(line).slice(0, 600)),
        [],
        'no error logged for overload',
      );
      // 429: the user's lists beyond its share of the list queue (docs/api.md §2.2), refused at once, as designed.
      assert.deepEqual(
        answers
          .filter((answer) => ![200, 429, 503].includes(answer?.status ?? 0))
          .map((answer) => `${answer?.status} ${JSON.stringify(answer?.body).slice(0, 300)}`),
        [],
        'every answer is 200, 429 or 503',
      );
      const counted = lines.filter((line) => line.unavailable);
      assert.ok(counted.length >= 1 && counted.length <= seconds + 2, `${counted.length} counted lines for a burst of ${seconds} s`);
      assert.ok(
        lines.length <= counted.length + 5,
        `the log has ${lines.length} lines: ${lines
          .slice(0, 5)
          .map((line) => line.msg)
          .join(' | ')}`,
      );
      const logged = counted.reduce((sum, line) => sum + Object.values(line.unavailable!).reduce((a, b) => a + b, 0), 0);
      assert.equal(logged, unavailable, 'the counts add up to the 503s answered');
    });
  },
);

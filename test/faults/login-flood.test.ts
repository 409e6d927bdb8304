// The login flood (docs/faults.md, "Login under a credential flood"; docs/api.md §2.2): a flood of wrong
// Basic credentials from many random addresses while someone logs in at POST /api/token every second,
// each time from an address that has never logged in here (the hardest case: no lane of known
// addresses helps it). Every login answers 200 within a second of its normal time, measured in the same
// test before the flood. The built service on SQLite, behind TRUST_PROXY so X-Forwarded-For names the client.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { httpRequest } from '../support/http.js';
import { sleep, startService, type Service } from '../support/service.js';
import { basicAuth, TEST_JWT_SECRET } from '../support/test-app.js';

const LOGIN = { email: 'flood-login@test.example', password: 'flood-login-password' };
const FLOODERS = 48;
const LOGINS = 8;

/** An address no request of this test used before: 10.x.y.z from a counter. */
let addresses = 0;
const freshAddress = () => {
  addresses++;
  return `10.${(addresses >> 16) & 255}.${(addresses >> 8) & 255}.${addresses & 255}`;
};

describe('a flood of wrong Basic credentials from many random addresses', () => {
  let service: Service;

  before(async () => {
    service = await startService('login-flood', {
      DATABASE_URL: 'sqlite::memory:',
      JWT_SECRET: TEST_JWT_SECRET,
      BOOTSTRAP_ADMIN_EMAIL: LOGIN.email,
      BOOTSTRAP_ADMIN_PASSWORD: LOGIN.password,
      BILLING_RUN_INTERVAL_SECONDS: '0',
      TRUST_PROXY: '127.0.0.1',
    });
  });
  after(async () => {
    await service?.stop();
  });

  /** One login at POST /api/token from a new address: its status and how long it took. */
  const login = async () => {
    const start = performance.now();
    const res = await httpRequest(`${service.url}/api/token`, {
      method: 'POST',
      headers: { 'x-forwarded-for': freshAddress() },
      form: { grant_type: 'password', username: LOGIN.email, password: LOGIN.password },
      timeoutMs: 20_000,
    });
    return { status: res.status, ms: performance.now() - start };
  };

  it('leaves a login every second from a new address answered 200 within a second of its normal time', async () => {
    // Its normal time, on this machine, now: the slowest of a few logins with nothing else running.
    await login();
    const normal = Math.max(...(await Promise.all([login(), login(), login()].map(async (p) => (await p).ms))));

    let flooding = true;
    const floodAnswers = new Map<number, number>();
    const flooder = async () => {
      while (flooding) {
        const auth = basicAuth(`guess-${randomBytes(6).toString('hex')}@test.example`, randomBytes(9).toString('hex'));
        try {
          const res = await httpRequest(`${service.url}/api/sys/businesses`, {
            method: 'GET',
            headers: { authorization: auth, 'x-forwarded-for': freshAddress() },
            timeoutMs: 20_000,
          });
          floodAnswers.set(res.status, (floodAnswers.get(res.status) ?? 0) + 1);
        } catch {
          floodAnswers.set(0, (floodAnswers.get(0) ?? 0) + 1);
        }
      }
    };
    const flood = Promise.all(Array.from({ length: FLOODERS }, flooder));
    const logins: Array<{ status: number; ms: number }> = [];
    try {
      // The flood under way before the first login.
      await sleep(1000);
      for (let i = 0; i < LOGINS; i++) {
        const next = sleep(1000);
        logins.push(await login());
        await next;
      }
    } finally {
      flooding = false;
      await flood;
    }
    const seen = [...floodAnswers].map(([status, count]) => `${status}×${count}`).join(', ');
    // The flood was a flood: many wrong credentials refused (401), the rest turned away (429, 503).
    assert.ok((floodAnswers.get(401) ?? 0) > LOGINS, `the flood's answers: ${seen}`);
    assert.deepEqual(
      [...floodAnswers.keys()].filter((status) => ![401, 429, 503].includes(status)),
      [],
      `the flood's answers: ${seen}`,
    );
    for (const [i, { status, ms }] of logins.entries()) {
      assert.equal(status, 200, `login ${i} during the flood (${seen})`);
      assert.ok(
        ms < normal + 1000,
        `login ${i} took ${Math.round(ms)} ms during the flood, normally ${Math.round(normal)} ms (the flood's answers: ${seen})`,
      );
    }
  });
});

// Part of npm run test:cluster: presence (docs/presence.md) across two instances of the built service on one
// MariaDB database behind nginx. Check-ins of one customer arriving on both instances at once make one check-in
// and use one pass; USE_TIME_PASS on one pass from both instances succeeds once.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { httpRequest, type HttpAnswer } from '../support/http.js';
import { startNginx, type Nginx } from '../support/nginx.js';
import { startService, type Service } from '../support/service.js';
import { basicAuth, freshMySqlDatabase, TEST_JWT_SECRET } from '../support/test-app.js';

const ADMIN = { email: 'presence-admin@test.example', password: 'presence-admin-password' };
const admin = basicAuth(ADMIN.email, ADMIN.password);
const PASSES = '/api/billing/coworkertimepasses';
const CHECKINS = '/api/spaces/checkins';

interface Res extends HttpAnswer {
  text: string;
  upstream: string | null;
}

async function call(base: string, method: string, path: string, json?: unknown): Promise<Res> {
  const res = await httpRequest(base + path, { method, json, headers: { authorization: admin, 'x-forwarded-for': '10.28.0.1' }, timeoutMs: 20_000 });
  return { ...res, text: typeof res.body === 'string' ? res.body : JSON.stringify(res.body), upstream: res.headers.get('x-upstream') };
}

const serverErrors = (answers: Res[]) => answers.filter((answer) => answer.status >= 500).map((answer) => `${answer.status} ${answer.text}`);

describe('presence across two instances behind nginx', () => {
  let database: Awaited<ReturnType<typeof freshMySqlDatabase>>;
  let a: Service;
  let b: Service;
  let nginx: Nginx;
  let business: number;
  let dayPass: number;

  before(async () => {
    database = await freshMySqlDatabase();
    const env = { DATABASE_URL: database.url, JWT_SECRET: TEST_JWT_SECRET, BOOTSTRAP_ADMIN_EMAIL: ADMIN.email, BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password, TRUST_PROXY: '127.0.0.1' };
    [a, b] = await Promise.all([startService('A', env), startService('B', env)]);
    nginx = await startNginx([a.port, b.port]);
    const gbp = (await call(a.url, 'GET', '/api/sys/currencies?Currency_Code=GBP')).body.Records[0].Id;
    const gb = (await call(a.url, 'GET', '/api/sys/countries?Country_TwoDigitsCode=GB')).body.Records[0].Id;
    business = await createOk('/api/sys/businesses', { Name: 'Door Works', CurrencyId: gbp, CountryId: gb });
    dayPass = await createOk('/api/billing/timepasses', { BusinessId: business, Name: 'Day pass', Price: 20, CurrencyId: gbp });
  });

  after(async () => {
    await nginx?.stop();
    await a?.stop();
    await b?.stop();
    await database?.drop();
  });

  async function createOk(path: string, body: unknown): Promise<number> {
    const res = await call(nginx.url, 'POST', path, body);
    assert.equal(res.status, 200, `${path}: ${res.text}`);
    return res.body.Value.Id;
  }
  const customer = (name: string) => createOk('/api/spaces/coworkers', { BusinessId: business, FullName: name, Email: `${name.replace(/\W/g, '.')}@example.com` });
  const passesOf = async (who: number) => (await call(b.url, 'GET', `${PASSES}?CoworkerTimePass_Coworker=${who}&size=1000`)).body.Records as any[];

  it('20 parallel check-ins of one customer through nginx, over both instances: one 200, one check-in, one pass used', async () => {
    for (let round = 0; round < 3; round++) {
      const who = await customer(`Visitor ${round}`);
      await createOk(PASSES, { CoworkerId: who, BusinessId: business, TimePassId: dayPass, CreateMultiple: 5 });
      const answers = await Promise.all(Array.from({ length: 20 }, () => call(nginx.url, 'POST', CHECKINS, { BusinessId: business, CoworkerId: who, FromTime: `2027-06-0${round + 1}T09:00:00Z` })));
      assert.deepEqual(serverErrors(answers), []);
      assert.deepEqual(new Set(answers.map((answer) => answer.upstream)), new Set([`127.0.0.1:${a.port}`, `127.0.0.1:${b.port}`]), 'both instances took check-ins');
      assert.equal(answers.filter((answer) => answer.status === 200).length, 1, answers.map((answer) => answer.text).join('\n'));
      for (const refused of answers.filter((answer) => answer.status !== 200)) assert.equal(refused.body.Errors[0].PropertyName, 'FromTime', refused.text);
      assert.equal((await passesOf(who)).filter((pass) => pass.Used).length, 1);
      const open = (await call(a.url, 'GET', `${CHECKINS}?Checkin_Coworker=${who}&Checkin_ToTime=null`)).body.Records as any[];
      assert.equal(open.length, 1);
    }
  });

  it('USE_TIME_PASS of one pass from both instances at once: exactly one succeeds', async () => {
    const who = await customer('Command holder');
    const pass = await createOk(PASSES, { CoworkerId: who, BusinessId: business, TimePassId: dayPass });
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => call(i % 2 ? a.url : b.url, 'POST', `${PASSES}/runcommand`, { Key: 'USE_TIME_PASS', Ids: [pass] })));
    assert.deepEqual(serverErrors(answers), []);
    assert.equal(answers.filter((answer) => answer.body.WasSuccessful === true).length, 1, answers.map((answer) => answer.text).join('\n'));
  });
});

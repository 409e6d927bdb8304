// Part of npm run test:cluster: presence (docs/presence.md) across two instances of the built service on one
// MariaDB database behind nginx. Check-ins of one customer arriving on both instances at once make one check-in
// and use one pass; USE_TIME_PASS on one pass from both instances succeeds once.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { serverErrors, twoInstancesBehindNginx, type ClusterAnswer as Res, type TwoInstances } from '../support/cluster.js';
import type { Nginx } from '../support/nginx.js';
import type { Service } from '../support/service.js';

const ADMIN = { email: 'presence-admin@test.example', password: 'presence-admin-password' };
const PASSES = '/api/billing/coworkertimepasses';
const CHECKINS = '/api/spaces/checkins';

describe('presence across two instances behind nginx', () => {
  let cluster: TwoInstances;
  let a: Service;
  let b: Service;
  let nginx: Nginx;
  let business: number;
  let dayPass: number;

  before(async () => {
    cluster = await twoInstancesBehindNginx(ADMIN, '10.28.0.1');
    ({ a, b, nginx } = cluster);
    const gbp = (await call(a.url, 'GET', '/api/sys/currencies?Currency_Code=GBP')).body.Records[0].Id;
    const gb = (await call(a.url, 'GET', '/api/sys/countries?Country_TwoDigitsCode=GB')).body.Records[0].Id;
    business = await createOk('/api/sys/businesses', { Name: 'Door Works', CurrencyId: gbp, CountryId: gb });
    dayPass = await createOk('/api/billing/timepasses', { BusinessId: business, Name: 'Day pass', Price: 20, CurrencyId: gbp });
  });

  after(() => cluster?.stop());

  const call = (base: string, method: string, path: string, json?: unknown): Promise<Res> => cluster.call(base, method, path, json);
  const createOk = (path: string, body: unknown) => cluster.createOk(path, body);
  const customer = (name: string) =>
    createOk('/api/spaces/coworkers', { BusinessId: business, FullName: name, Email: `${name.replace(/\W/g, '.')}@example.com` });
  const passesOf = async (who: number) =>
    (await call(b.url, 'GET', `${PASSES}?CoworkerTimePass_Coworker=${who}&size=1000`)).body.Records as any[];

  it('20 parallel check-ins of one customer through nginx, over both instances: one 200, one check-in, one pass used', async () => {
    for (let round = 0; round < 3; round++) {
      const who = await customer(`Visitor ${round}`);
      await createOk(PASSES, { CoworkerId: who, BusinessId: business, TimePassId: dayPass, CreateMultiple: 5 });
      const answers = await Promise.all(
        Array.from({ length: 20 }, () =>
          call(nginx.url, 'POST', CHECKINS, { BusinessId: business, CoworkerId: who, FromTime: `2027-06-0${round + 1}T09:00:00Z` }),
        ),
      );
      assert.deepEqual(serverErrors(answers), []);
      assert.deepEqual(
        new Set(answers.map((answer) => answer.upstream)),
        new Set([`127.0.0.1:${a.port}`, `127.0.0.1:${b.port}`]),
        'both instances took check-ins',
      );
      assert.equal(answers.filter((answer) => answer.status === 200).length, 1, answers.map((answer) => answer.text).join('\n'));
      for (const refused of answers.filter((answer) => answer.status !== 200))
        assert.equal(refused.body.Errors[0].PropertyName, 'FromTime', refused.text);
      assert.equal((await passesOf(who)).filter((pass) => pass.Used).length, 1);
      const open = (await call(a.url, 'GET', `${CHECKINS}?Checkin_Coworker=${who}&Checkin_ToTime=null`)).body.Records as any[];
      assert.equal(open.length, 1);
    }
  });

  it('USE_TIME_PASS of one pass from both instances at once: exactly one succeeds', async () => {
    const who = await customer('Command holder');
    const pass = await createOk(PASSES, { CoworkerId: who, BusinessId: business, TimePassId: dayPass });
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        call(i % 2 ? a.url : b.url, 'POST', `${PASSES}/runcommand`, { Key: 'USE_TIME_PASS', Ids: [pass] }),
      ),
    );
    assert.deepEqual(serverErrors(answers), []);
    assert.equal(answers.filter((answer) => answer.body.WasSuccessful === true).length, 1, answers.map((answer) => answer.text).join('\n'));
  });
});

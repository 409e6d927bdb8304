import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { coworkers } from '../src/customers/coworkers/coworkers.definition.js';
import { RecordCommands } from '../src/records/commands/record-commands.js';
import { refusal } from '../src/records/errors.js';
import { createUser } from './support/auth.js';
import { createBusinesses, createCoworker } from './support/fixtures.js';
import { tableRows } from './support/record-checks.js';
import { appPerSuite, basicAuth } from './support/test-app.js';

// The commands protocol (docs/billing.md), shown with a command a test registers on customers the way
// a record module does (docs/billing.md, "How a record type declares a command").
describe('Commands', () => {
  const t = appPerSuite();
  const seen: Array<Record<string, unknown>> = [];
  let business: number;
  let other: number;

  before(async () => {
    t.app.get(RecordCommands).register(coworkers, {
      key: 'TEST_RENAME',
      name: 'Rename (test)',
      permission: { entity: 'Coworker', action: 'Edit' },
      order: 99,
      parameters: [
        { Name: 'Suffix', Type: 'String', required: true },
        { Name: 'Loud', Type: 'Boolean' },
        { Name: 'On', Type: 'Date' },
        { Name: 'Times', Type: 'Integer' },
      ],
      refuses: (record) => (String(record.FullName).startsWith('Locked') ? `${record.FullName} is locked.` : null),
      run: async ({ ids, parameters, tx }) => {
        seen.push(parameters);
        for (const id of ids) {
          if (parameters.Suffix === 'fail-late' && id === ids[ids.length - 1]) throw refusal('The last one cannot be renamed.');
          await t.db.query(
            `UPDATE ${t.db.id('coworker')} SET ${t.db.id('FullName')} = ${t.db.isMySql ? 'CONCAT(FullName, ?)' : 'FullName || ?'} WHERE ${t.db.id('Id')} = ?`,
            [` ${parameters.Suffix}`, id],
            tx,
          );
        }
        return { Renamed: ids.length };
      },
    });
    [business, other] = await createBusinesses(t, 'Canal Works', 'Harbour Loft');
  });

  it('lists the commands, and with id only those the record allows now', async () => {
    const ada = await createCoworker(t, business);
    const locked = await createCoworker(t, business, { FullName: 'Locked Out' });
    const all = await t.get('/api/spaces/coworkers/commands');
    assert.equal(all.status, 200);
    const rename = all.body.find((c: any) => c.Key === 'TEST_RENAME');
    assert.deepEqual(Object.keys(rename).sort(), [
      'AppliesOnlyToMultipleEntities',
      'AppliesOnlyToOneEntity',
      'AppliesOnlyToTwoEntities',
      'DisplayInDropdown',
      'Key',
      'Name',
      'NeedsEntitiesToRun',
      'Order',
      'RequiresParameters',
    ]);
    assert.deepEqual(rename.RequiresParameters[0], { Name: 'Suffix', Type: 'String' });
    assert.ok((await t.get(`/api/spaces/coworkers/commands?id=${ada}`)).body.some((c: any) => c.Key === 'TEST_RENAME'));
    assert.ok(!(await t.get(`/api/spaces/coworkers/commands?id=${locked}`)).body.some((c: any) => c.Key === 'TEST_RENAME'));
    assert.equal((await t.get('/api/spaces/coworkers/commands?id=999999')).status, 404);
    assert.equal((await t.get('/api/spaces/coworkers/commands', { auth: null })).status, 401);
  });

  it('runs over every id in one transaction; string values are converted, names matched case-insensitively', async () => {
    const a = await createCoworker(t, business, { FullName: 'Ann' });
    const b = await createCoworker(t, business, { FullName: 'Bob' });
    const res = await t.post('/api/spaces/coworkers/runcommand', {
      Key: 'test_rename',
      Ids: [a, b],
      Parameters: [
        { name: 'suffix', Value: 'Jr' },
        { Name: 'LOUD', Type: 'Boolean', Value: 'TRUE' },
        { Name: 'On', Value: '2031-03-31' },
        { Name: 'Times', Value: '994' },
      ],
    });
    assert.equal(res.status, 200);
    assert.equal(res.body.WasSuccessful, true, JSON.stringify(res.body));
    assert.equal(res.body.Message, 'The command was run correctly.');
    assert.deepEqual(res.body.Value, { Renamed: 2 });
    assert.deepEqual(seen.at(-1), { Suffix: 'Jr', Loud: true, On: '2031-03-31', Times: 994 });
    assert.equal((await t.get(`/api/spaces/coworkers/${a}`)).body.FullName, 'Ann Jr');
    assert.equal((await t.get(`/api/spaces/coworkers/${b}`)).body.FullName, 'Bob Jr');
  });

  it('refusals answer 200 with WasSuccessful false and Status 400, and change nothing for any id', async () => {
    const a = await createCoworker(t, business, { FullName: 'Cat' });
    const locked = await createCoworker(t, business, { FullName: 'Locked Door' });
    const foreign = await createCoworker(t, other, { FullName: 'Dan' });
    const before = await tableRows(t, 'coworker');
    const cases: Array<[unknown, RegExp]> = [
      [{ Key: 'NO_SUCH', Ids: [a] }, /Unknown command/],
      [{ Ids: [a] }, /Key/],
      [{ Key: 'TEST_RENAME', Ids: [a, 999999], Parameters: [{ Name: 'Suffix', Value: 'x' }] }, /999999/],
      [{ Key: 'TEST_RENAME', Ids: [a, locked], Parameters: [{ Name: 'Suffix', Value: 'x' }] }, /locked/],
      [{ Key: 'TEST_RENAME', Ids: [a] }, /Suffix/],
      [
        {
          Key: 'TEST_RENAME',
          Ids: [a],
          Parameters: [
            { Name: 'Suffix', Value: 'x' },
            { Name: 'Loud', Value: 'maybe' },
          ],
        },
        /Loud/,
      ],
      [
        {
          Key: 'TEST_RENAME',
          Ids: [a],
          Parameters: [
            { Name: 'Suffix', Value: 'x' },
            { Name: 'On', Value: '2031-02-30' },
          ],
        },
        /On/,
      ],
      [{ Key: 'TEST_RENAME', Ids: ['abc'], Parameters: [{ Name: 'Suffix', Value: 'x' }] }, /Ids/],
      [{ Key: 'TEST_RENAME', Ids: [a, foreign], Parameters: [{ Name: 'Suffix', Value: 'fail-late' }] }, /last one/],
    ];
    for (const [body, message] of cases) {
      const res = await t.post('/api/spaces/coworkers/runcommand', body);
      assert.equal(res.status, 200, JSON.stringify(body));
      assert.equal(res.body.WasSuccessful, false, JSON.stringify(res.body));
      assert.equal(res.body.Status, 400);
      assert.match(res.body.Message, message);
    }
    assert.deepEqual(await tableRows(t, 'coworker'), before);
  });

  it("needs credentials, and the command's own permission; a restricted administrator reaches only its businesses", async () => {
    const a = await createCoworker(t, business, { FullName: 'Eve' });
    const foreign = await createCoworker(t, other, { FullName: 'Fay' });
    const body = { Key: 'TEST_RENAME', Ids: [a], Parameters: [{ Name: 'Suffix', Value: 'x' }] };
    assert.equal((await t.post('/api/spaces/coworkers/runcommand', body, { auth: null })).status, 401);
    await createUser(t, { Email: 'lister@example.com', Password: 'a-long-password-1', Roles: ['Coworker-List'], Businesses: [business] });
    const lister = basicAuth('lister@example.com', 'a-long-password-1');
    assert.equal((await t.get('/api/spaces/coworkers/commands', { auth: lister })).status, 200);
    assert.equal((await t.post('/api/spaces/coworkers/runcommand', body, { auth: lister })).status, 401);
    await createUser(t, {
      Email: 'editor@example.com',
      Password: 'a-long-password-2',
      Roles: ['Coworker-Edit', 'Coworker-Read'],
      Businesses: [business],
    });
    const editor = basicAuth('editor@example.com', 'a-long-password-2');
    const before = await tableRows(t, 'coworker');
    const out = await t.post('/api/spaces/coworkers/runcommand', { ...body, Ids: [a, foreign] }, { auth: editor });
    assert.equal(out.status, 200);
    assert.equal(out.body.WasSuccessful, false);
    assert.deepEqual(await tableRows(t, 'coworker'), before);
    const mine = await t.post('/api/spaces/coworkers/runcommand', body, { auth: editor });
    assert.equal(mine.body.WasSuccessful, true, JSON.stringify(mine.body));
  });

  it('honours Idempotency-Key: a retry is answered from the first run and runs nothing', async () => {
    const a = await createCoworker(t, business, { FullName: 'Gus' });
    const body = { Key: 'TEST_RENAME', Ids: [a], Parameters: [{ Name: 'Suffix', Value: 'Sr' }] };
    const headers = { 'Idempotency-Key': `rename-${a}` };
    const first = await t.post('/api/spaces/coworkers/runcommand', body, { headers });
    const again = await t.post('/api/spaces/coworkers/runcommand', body, { headers });
    assert.equal(again.text, first.text);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.equal((await t.get(`/api/spaces/coworkers/${a}`)).body.FullName, 'Gus Sr');
    const changed = await t.post(
      '/api/spaces/coworkers/runcommand',
      { ...body, Parameters: [{ Name: 'Suffix', Value: 'III' }] },
      { headers },
    );
    assert.equal(changed.status, 422);
  });
});

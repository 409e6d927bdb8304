import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { bearer, claims, passwordToken } from './support/auth.js';
import { createAttendee, createEvent, hoursFromNow } from './support/content-fixtures.js';
import { createBusinesses, createCoworker } from './support/fixtures.js';
import { appPerSuite, basicAuth, TEST_JWT_SECRET } from './support/test-app.js';

const PASSWORD = 'customer password 1';

/** POST /api/public/events/{id}/joinWaitingList over HTTP with a real customer token (docs/api.md §3.2). */
describe('joining a waiting list as a customer', () => {
  const t = appPerSuite();
  let business: number;
  let token: string;
  let coworker: number;
  let seq = 0;

  const customer = async (name: string) => {
    const email = `${name}.${++seq}@example.com`;
    const id = await createCoworker(t, business, { FullName: `Customer ${name}`, Email: email, CreateUser: true, Password: PASSWORD });
    return { id, email, token: (await passwordToken(t, email, PASSWORD)).access_token };
  };
  /** A published event with a waiting list and every place taken. */
  const soldOut = async (overrides: Record<string, unknown> = {}) => {
    const event = await createEvent(t, business, { Allocation: 1, EnableWaitList: true, ...overrides });
    await createAttendee(t, event);
    return event;
  };
  const join = (event: number | string, auth: string | null, body: unknown = {}) =>
    t.request('POST', `/api/public/events/${event}/joinWaitingList`, { body, auth });
  const waiting = async (event: number) =>
    (await t.get(`/api/content/eventwaitingattendees?EventWaitingAttendee_CalendarEvent=${event}&orderBy=CreatedOn`)).body.Records;

  before(async () => {
    [business] = await createBusinesses(t, 'Canal Works');
    const me = await customer('me');
    token = me.token;
    coworker = me.id;
  });

  it("joins with the customer's own name and email: 200 with an empty body", async () => {
    const event = await soldOut();
    const res = await join(event, bearer(token));
    assert.equal(res.status, 200);
    assert.equal(res.text, '');
    const [entry] = await waiting(event);
    assert.equal(entry.CoworkerId, coworker);
    assert.equal(entry.FullName, 'Customer me');
    assert.match(entry.Email, /^me\.\d+@example\.com$/);
    assert.equal(entry.BusinessId, business);
  });

  it('the body may name someone else to notify', async () => {
    const event = await soldOut();
    assert.equal((await join(event, bearer(token), { FullName: 'Assistant', Email: 'assistant@example.com' })).status, 200);
    const [entry] = await waiting(event);
    assert.deepEqual([entry.FullName, entry.Email], ['Assistant', 'assistant@example.com']);
  });

  it('400 with a Message when the list is disabled, the event is not sold out, or the customer is already on it; nothing written', async () => {
    const disabled = await soldOut({ EnableWaitList: false });
    const open = await createEvent(t, business, { Allocation: 5, EnableWaitList: true });
    const unlimited = await createEvent(t, business, { EnableWaitList: true });
    const listed = await soldOut();
    assert.equal((await join(listed, bearer(token))).status, 200);
    const before = await t.rows('eventwaitingattendee');
    for (const event of [disabled, open, unlimited, listed]) {
      const res = await join(event, bearer(token));
      assert.equal(res.status, 400, String(event));
      assert.equal(res.body.WasSuccessful, false);
      assert.ok(res.body.Message);
    }
    assert.deepEqual(await t.rows('eventwaitingattendee'), before);
  });

  it('404 "Not found" for an unknown or unpublished event', async () => {
    const unpublished = await soldOut({ PublishDate: hoursFromNow(48) });
    for (const event of [424242, unpublished]) {
      const res = await join(event, bearer(token));
      assert.deepEqual([res.status, res.body], [404, 'Not found']);
    }
  });

  it('401 without a token, with an expired or forged one, and for an administrator (not a customer)', async () => {
    const event = await soldOut();
    const payload = claims(token);
    const encode = (part: object) => Buffer.from(JSON.stringify(part)).toString('base64url');
    const body = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode({ ...payload, exp: Math.floor(Date.now() / 1000) - 10 })}`;
    const expired = `${body}.${createHmac('sha256', TEST_JWT_SECRET).update(body).digest('base64url')}`;
    for (const auth of [null, bearer(expired), bearer(`${token}x`), t.adminAuth]) {
      const res = await join(event, auth);
      assert.equal(res.status, 401);
      assert.deepEqual(res.body, { Message: 'Authorization has been denied for this request.' });
    }
    const admin = (await passwordToken(t, 'admin@test.example', 'admin-password-for-tests')).access_token;
    assert.equal((await join(event, bearer(admin))).status, 401);
    assert.deepEqual(await waiting(event), []);
  });

  it('Basic credentials of a customer work as well', async () => {
    const other = await customer('basic');
    const event = await soldOut();
    assert.equal((await join(event, basicAuth(other.email, PASSWORD))).status, 200);
  });

  it('thirty parallel joins by one customer leave exactly one entry', async () => {
    const racer = await customer('racer');
    const event = await soldOut();
    const results = await Promise.all(Array.from({ length: 30 }, () => join(event, bearer(racer.token))));
    assert.equal(results.filter((r) => r.status === 200).length, 1);
    assert.ok(
      results.every((r) => r.status === 200 || r.status === 400),
      results.map((r) => r.status).join(),
    );
    assert.equal((await waiting(event)).length, 1);
  });

  it('the waiting list reads in joining order', async () => {
    const event = await soldOut();
    const line = [await customer('first'), await customer('second'), await customer('third')];
    // Within one second CreatedOn ties on MySQL; the list's tie-break on Id keeps the joining order.
    for (const person of line) assert.equal((await join(event, bearer(person.token))).status, 200);
    assert.deepEqual(
      (await waiting(event)).map((e: any) => e.CoworkerId),
      line.map((p) => p.id),
    );
  });
});

import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { toErrorResponse } from '../src/http/http-exception.filter.js';
import type { Principal } from '../src/platform/principal.js';
import { PublicEventsController } from '../src/public/events/public-events.controller.js';
import { PublicEventsService, type Customer } from '../src/public/events/public-events.service.js';
import { createAttendee, createEvent, hoursFromNow } from './support/content-fixtures.js';
import { createBusinesses, createCoworker } from './support/fixtures.js';
import { appPerSuite } from './support/test-app.js';

const anonymous = { auth: null };

/** The status and wire body a call would answer with, as the exception filter writes it. */
async function outcome(work: () => Promise<unknown>): Promise<{ status: number; body: any }> {
  try {
    return { status: 200, body: await work() };
  } catch (error) {
    const { status, body } = toErrorResponse(error);
    return { status, body };
  }
}

describe('public events and the waiting list', () => {
  const t = appPerSuite();
  let business: number;
  let otherBusiness: number;

  before(async () => {
    [business, otherBusiness] = await createBusinesses(t, 'Public Hub', 'Elsewhere');
  });

  describe('GET /api/public/events', () => {
    const ids: Record<string, number> = {};
    before(async () => {
      const at = (start: number, end: number, extra: Record<string, unknown> = {}) => ({
        StartDate: hoursFromNow(start),
        EndDate: hoursFromNow(end),
        ...extra,
      });
      ids.later = await createEvent(t, business, { Name: 'Robotics meetup', ...at(48, 50) });
      ids.sooner = await createEvent(t, business, { Name: 'Python night', ...at(24, 26, { PublishDate: hoursFromNow(-72) }) });
      ids.ongoing = await createEvent(t, business, { Name: 'All-day hackathon', ...at(-1, 8) });
      ids.unpublished = await createEvent(t, business, { Name: 'Secret launch', ...at(10, 12, { PublishDate: hoursFromNow(5) }) });
      ids.unpublishedPast = await createEvent(t, business, { Name: 'Secret retro', ...at(-12, -10, { PublishDate: hoursFromNow(5) }) });
      ids.past = await createEvent(t, business, { Name: 'Old robotics meetup', ...at(-50, -48) });
      ids.recent = await createEvent(t, business, { Name: 'Last week demo', ...at(-30, -28) });
      ids.elsewhere = await createEvent(t, otherBusiness, { Name: 'Robotics abroad', ...at(30, 32) });
    });

    it('lists published coming events of a business by StartDate, without authentication', async () => {
      const res = await t.get(`/api/public/events?businessId=${business}`, anonymous);
      assert.equal(res.status, 200);
      assert.deepEqual(Object.keys(res.body), ['PastEvents', 'CalendarEvents']);
      assert.equal(res.body.PastEvents, false);
      const { Records, ...envelope } = res.body.CalendarEvents;
      assert.deepEqual(
        Records.map((r: any) => r.Id),
        [ids.ongoing, ids.sooner, ids.later],
      );
      assert.deepEqual(envelope, {
        CurrentPageSize: 25,
        CurrentPage: 1,
        CurrentOrderField: 'StartDate',
        CurrentSortDirection: 1,
        FirstItem: 1,
        HasNextPage: false,
        HasPreviousPage: false,
        LastItem: 3,
        PageNumber: 1,
        PageSize: 25,
        TotalItems: 3,
        TotalPages: 1,
      });
    });

    it('pastEvents=true lists published events that have ended, latest first', async () => {
      const res = await t.get(`/api/public/events?pastEvents=true&businessId=${business}`, anonymous);
      assert.equal(res.body.PastEvents, true);
      assert.deepEqual(
        res.body.CalendarEvents.Records.map((r: any) => r.Id),
        [ids.recent, ids.past],
      );
      assert.equal(res.body.CalendarEvents.CurrentSortDirection, -1);
      const explicit = await t.get(`/api/public/events?PASTEVENTS=False&BusinessId=${business}`, anonymous);
      assert.equal(explicit.body.PastEvents, false);
      assert.equal(explicit.body.CalendarEvents.TotalItems, 3);
    });

    it('pages with page and top', async () => {
      const res = await t.get(`/api/public/events?businessId=${business}&top=2&page=2`, anonymous);
      const { Records, ...envelope } = res.body.CalendarEvents;
      assert.deepEqual(
        Records.map((r: any) => r.Id),
        [ids.later],
      );
      assert.deepEqual(envelope, {
        CurrentPageSize: 2,
        CurrentPage: 2,
        CurrentOrderField: 'StartDate',
        CurrentSortDirection: 1,
        FirstItem: 3,
        HasNextPage: false,
        HasPreviousPage: true,
        LastItem: 3,
        PageNumber: 2,
        PageSize: 2,
        TotalItems: 3,
        TotalPages: 2,
      });
      const beyond = await t.get(`/api/public/events?businessId=${business}&top=2&page=5`, anonymous);
      assert.deepEqual(
        [beyond.body.CalendarEvents.Records.length, beyond.body.CalendarEvents.TotalItems, beyond.body.CalendarEvents.FirstItem],
        [0, 3, 0],
      );
    });

    it('search matches the name case-insensitively; without businessId every business is listed', async () => {
      const res = await t.get('/api/public/events?search=ROBOTICS', anonymous);
      assert.deepEqual(
        res.body.CalendarEvents.Records.map((r: any) => r.Id),
        [ids.elsewhere, ids.later],
      );
      const past = await t.get('/api/public/events?search=robotics&pastEvents=true', anonymous);
      assert.deepEqual(
        past.body.CalendarEvents.Records.map((r: any) => r.Id),
        [ids.past],
      );
      const other = await t.get(`/api/public/events?businessId=${otherBusiness}`, anonymous);
      assert.deepEqual(
        other.body.CalendarEvents.Records.map((r: any) => r.Id),
        [ids.elsewhere],
      );
      const none = await t.get('/api/public/events?businessId=424242', anonymous);
      assert.equal(none.body.CalendarEvents.TotalItems, 0);
    });

    it('never shows unpublished events', async () => {
      for (const query of ['', '?pastEvents=true', '?search=secret', '?search=secret&pastEvents=true', '?top=1000']) {
        const res = await t.get(`/api/public/events${query}`, anonymous);
        const listed = res.body.CalendarEvents.Records.map((r: any) => r.Id);
        assert.ok(!listed.includes(ids.unpublished) && !listed.includes(ids.unpublishedPast), query);
      }
    });

    it('records carry the public fields and SoldOut, not the audit fields', async () => {
      const res = await t.get(`/api/public/events?search=python&businessId=${business}`, anonymous);
      const [record] = res.body.CalendarEvents.Records;
      assert.deepEqual(Object.keys(record).sort(), [
        'Allocation',
        'BusinessId',
        'EnableWaitList',
        'EndDate',
        'Id',
        'Location',
        'LongDescription',
        'Name',
        'OnlyForContacts',
        'OnlyForMembers',
        'PublishDate',
        'ShortDescription',
        'SoldOut',
        'StartDate',
        'UniqueId',
      ]);
      assert.equal(record.Name, 'Python night');
      assert.match(record.StartDate, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      assert.equal(record.SoldOut, false);
    });

    it('bad query values: 400 envelope naming the parameter; injection strings are plain values', async () => {
      for (const [query, name] of [
        ['top=abc', 'top'],
        ['page=x', 'page'],
        ['businessId=x', 'businessId'],
        ['businessId=-1', 'businessId'],
        ['pastEvents=maybe', 'pastEvents'],
      ]) {
        const res = await t.get(`/api/public/events?${query}`, anonymous);
        assert.equal(res.status, 400, query);
        assert.equal(res.body.WasSuccessful, false);
        assert.equal(res.body.Errors[0].PropertyName, name);
      }
      const before = await t.rows('calendarevent');
      for (const evil of ["x' OR '1'='1", "'; DROP TABLE calendarevent; --", '%', '_', '!']) {
        const res = await t.get(`/api/public/events?search=${encodeURIComponent(evil)}`, anonymous);
        assert.equal(res.status, 200, evil);
        assert.equal(res.body.CalendarEvents.TotalItems, 0, evil);
      }
      assert.deepEqual(await t.rows('calendarevent'), before);
    });
  });

  describe('GET /api/public/events/{id}', () => {
    it('answers the event with SoldOut and its AttendeeCount, without authentication', async () => {
      const id = await createEvent(t, business, {
        Name: 'Board games',
        Allocation: 2,
        Location: 'Loft',
        ShortDescription: 'Bring a game',
        PublishDate: hoursFromNow(-1),
      });
      await createAttendee(t, id);
      let res = await t.get(`/api/public/events/${id}`, anonymous);
      assert.equal(res.status, 200);
      assert.deepEqual(Object.keys(res.body), ['Event', 'AttendeeCount']);
      assert.equal(res.body.AttendeeCount, 1);
      assert.equal(res.body.Event.Id, id);
      assert.equal(res.body.Event.Name, 'Board games');
      assert.equal(res.body.Event.Location, 'Loft');
      assert.equal(res.body.Event.Allocation, 2);
      assert.equal(res.body.Event.SoldOut, false);
      assert.equal(res.body.Event.UpdatedBy, undefined);
      await createAttendee(t, id);
      res = await t.get(`/api/public/events/${id}/`, anonymous);
      assert.deepEqual([res.body.AttendeeCount, res.body.Event.SoldOut], [2, true]);
    });

    it('404 "Not found" for unknown, unpublished and malformed ids; published later, it shows', async () => {
      const hidden = await createEvent(t, business, { PublishDate: hoursFromNow(2) });
      for (const path of ['424242', String(hidden), 'abc', '0', '-1', '99999999999']) {
        const res = await t.get(`/api/public/events/${path}`, anonymous);
        assert.equal(res.status, 404, path);
        assert.equal(res.body, 'Not found');
      }
      const event = (await t.get(`/api/content/calendarevents/${hidden}`)).body;
      await t.put('/api/content/calendarevents', { ...event, PublishDate: hoursFromNow(-1) });
      assert.equal((await t.get(`/api/public/events/${hidden}`, anonymous)).status, 200);
    });
  });

  describe('joining a waiting list', () => {
    let events: PublicEventsService;
    /** A sold-out event with its waiting list enabled (unless told otherwise). */
    const soldOutEvent = async (overrides: Record<string, unknown> = {}) => {
      const id = await createEvent(t, business, { Name: 'Sold-out talk', Allocation: 1, EnableWaitList: true, ...overrides });
      await createAttendee(t, id);
      return id;
    };
    const customer = async (fullName = 'Ada Customer'): Promise<Customer> => {
      const email = `${fullName.toLowerCase().replace(/\W+/g, '.')}.${Math.random().toString(36).slice(2, 8)}@example.com`;
      const coworkerId = await createCoworker(t, business, { FullName: fullName, Email: email });
      return { coworkerId, fullName, email };
    };
    const waiting = async (eventId: number) =>
      (await t.get(`/api/content/eventwaitingattendees?EventWaitingAttendee_CalendarEvent=${eventId}&orderBy=CreatedOn`)).body.Records;

    before(() => {
      events = t.app.get(PublicEventsService);
    });

    describe('over HTTP, without a customer', () => {
      it('401 with no Authorization header, before the event or the body is looked at; nothing written', async () => {
        const eventId = await soldOutEvent();
        const before = await t.rows('eventwaitingattendee');
        for (const path of [
          `/api/public/events/${eventId}/joinWaitingList`,
          '/api/public/events/424242/joinWaitingList',
          '/api/public/events/abc/joinWaitingList',
        ]) {
          const res = await t.post(path, {}, anonymous);
          assert.equal(res.status, 401, path);
          assert.deepEqual(res.body, { Message: 'Authorization has been denied for this request.' });
          assert.ok(res.headers.get('www-authenticate'));
        }
        const noBody = await t.request('POST', `/api/public/events/${eventId}/joinWaitingList`, anonymous);
        assert.equal(noBody.status, 401);
        assert.deepEqual(await t.rows('eventwaitingattendee'), before);
      });

      it('401 for an administrator, who is not a customer', async () => {
        const eventId = await soldOutEvent();
        const res = await t.post(`/api/public/events/${eventId}/joinWaitingList`, { FullName: 'Admin' });
        assert.equal(res.status, 401);
        assert.deepEqual(await waiting(eventId), []);
      });
    });

    describe('the route handler, given a customer principal', () => {
      let controller: PublicEventsController;
      const principal = (coworkerId: number | null): Principal => ({
        userId: 99,
        email: 'login@example.com',
        isAdmin: false,
        roles: new Set(),
        businessIds: null,
        coworkerId,
      });
      const request = (body: unknown, contentType: string | undefined = 'application/json') =>
        ({ body, headers: contentType ? { 'content-type': contentType } : {} }) as any;
      before(() => {
        controller = t.app.get(PublicEventsController);
      });

      it("joins with the customer's own name and email; a missing body counts as {}", async () => {
        const eventId = await soldOutEvent();
        const me = await customer('Hedy Lamarr');
        const res = await outcome(() =>
          controller.joinWaitingList(String(eventId), request(undefined, undefined), principal(me.coworkerId)),
        );
        assert.deepEqual(res, { status: 200, body: undefined });
        const [entry] = await waiting(eventId);
        assert.deepEqual(
          [entry.FullName, entry.Email, entry.CoworkerId, entry.BusinessId],
          ['Hedy Lamarr', me.email, me.coworkerId, business],
        );
      });

      it('401 for a principal without a coworker, or whose coworker is gone; 404 for a malformed id; 415 for a body that is not JSON', async () => {
        const eventId = await soldOutEvent();
        assert.equal((await outcome(() => controller.joinWaitingList(String(eventId), request({}), principal(null)))).status, 401);
        assert.equal((await outcome(() => controller.joinWaitingList(String(eventId), request({}), principal(424242)))).status, 401);
        assert.equal((await outcome(() => controller.joinWaitingList(String(eventId), request({}), undefined))).status, 401);
        const me = await customer();
        assert.equal((await outcome(() => controller.joinWaitingList('abc', request({}), principal(me.coworkerId)))).status, 404);
        assert.equal(
          (
            await outcome(() =>
              controller.joinWaitingList(
                String(eventId),
                request('FullName=x', 'application/x-www-form-urlencoded'),
                principal(me.coworkerId),
              ),
            )
          ).status,
          415,
        );
        assert.deepEqual(await waiting(eventId), []);
      });
    });

    describe('the domain rules (PublicEventsService.joinWaitingList)', () => {
      it('puts the customer on the list with its own FullName and Email by default; UpdatedBy is the customer', async () => {
        const eventId = await soldOutEvent();
        const me = await customer('Katherine Johnson');
        assert.deepEqual(await outcome(() => events.joinWaitingList(eventId, me, {})), { status: 200, body: undefined });
        const [entry] = await waiting(eventId);
        assert.deepEqual(
          [
            entry.CalendarEventId,
            entry.BusinessId,
            entry.CoworkerId,
            entry.FullName,
            entry.Email,
            entry.CoworkerFullName,
            entry.CalendarEventName,
            entry.UpdatedBy,
          ],
          [eventId, business, me.coworkerId, 'Katherine Johnson', me.email, 'Katherine Johnson', 'Sold-out talk', me.email],
        );
      });

      it("the body's FullName and Email override the defaults; null or blank ones do not", async () => {
        const eventId = await soldOutEvent();
        const first = await customer('Dorothy Vaughan');
        await events.joinWaitingList(eventId, first, { FullName: 'Dot Vaughan', Email: 'dot@example.com', Unknown: 1 });
        const second = await customer('Mary Jackson');
        await events.joinWaitingList(eventId, second, { FullName: null, Email: '  ' });
        assert.deepEqual(
          (await waiting(eventId)).map((e: any) => [e.FullName, e.Email]),
          [
            ['Dot Vaughan', 'dot@example.com'],
            ['Mary Jackson', second.email],
          ],
        );
      });

      it('400 when the waiting list is disabled, when the event is not sold out, when already on the list', async () => {
        const me = await customer();
        const disabled = await soldOutEvent({ EnableWaitList: false });
        const notSoldOut = await createEvent(t, business, { Allocation: 5, EnableWaitList: true });
        const unlimited = await createEvent(t, business, { EnableWaitList: true });
        const listed = await soldOutEvent();
        await events.joinWaitingList(listed, me, {});
        const before = await t.rows('eventwaitingattendee');
        for (const [eventId, message] of [
          [disabled, /no waiting list/],
          [notSoldOut, /not sold out/],
          [unlimited, /not sold out/],
          [listed, /already on the waiting list/],
        ] as const) {
          const res = await outcome(() => events.joinWaitingList(eventId, me, {}));
          assert.equal(res.status, 400);
          assert.equal(res.body.WasSuccessful, false);
          assert.equal(res.body.Status, 400);
          assert.match(res.body.Message, message);
        }
        assert.deepEqual(await t.rows('eventwaitingattendee'), before);
      });

      it('404 "Not found" for an unknown or unpublished event; nothing written', async () => {
        const me = await customer();
        const unpublished = await soldOutEvent({ PublishDate: hoursFromNow(24) });
        const before = await t.rows('eventwaitingattendee');
        for (const eventId of [424242, unpublished])
          assert.deepEqual(await outcome(() => events.joinWaitingList(eventId, me, {})), { status: 404, body: 'Not found' });
        assert.deepEqual(await t.rows('eventwaitingattendee'), before);
      });

      it('a body that breaks the field rules: 400 naming the field; nothing written', async () => {
        const eventId = await soldOutEvent();
        const me = await customer();
        const long = await outcome(() => events.joinWaitingList(eventId, me, { FullName: 'x'.repeat(256), Email: 42 }));
        assert.equal(long.status, 400);
        assert.deepEqual(long.body.Errors.map((e: any) => e.PropertyName).sort(), ['Email', 'FullName']);
        assert.equal((await outcome(() => events.joinWaitingList(eventId, me, [1, 2]))).status, 400);
        assert.deepEqual(await waiting(eventId), []);
      });

      it('thirty parallel joins by one customer leave exactly one entry', async () => {
        const eventId = await soldOutEvent();
        const me = await customer();
        const results = await Promise.all(Array.from({ length: 30 }, () => outcome(() => events.joinWaitingList(eventId, me, {}))));
        assert.deepEqual(results.map((r) => r.status).sort(), [200, ...Array(29).fill(400)]);
        for (const refusal of results.filter((r) => r.status === 400)) assert.match(refusal.body.Message, /already on the waiting list/);
        const stored = (await t.rows('eventwaitingattendee')).filter((row) => Number(row.CalendarEventId) === eventId);
        assert.equal(stored.length, 1);
        assert.equal(Number(stored[0].CoworkerId), me.coworkerId);
      });

      it('the list reads in joining order, so the first in line can be offered a freed place', async () => {
        const eventId = await soldOutEvent();
        const line = [await customer('First Inline'), await customer('Second Inline'), await customer('Third Inline')];
        for (const person of line) await events.joinWaitingList(eventId, person, {});
        const list = await waiting(eventId);
        assert.deepEqual(
          list.map((e: any) => e.CoworkerId),
          line.map((c) => c.coworkerId),
        );
        const desc = await t.get(
          `/api/content/eventwaitingattendees?EventWaitingAttendee_CalendarEvent=${eventId}&orderBy=CreatedOn&dir=desc`,
        );
        assert.deepEqual(
          desc.body.Records.map((e: any) => e.FullName),
          ['Third Inline', 'Second Inline', 'First Inline'],
        );
      });
    });
  });
});

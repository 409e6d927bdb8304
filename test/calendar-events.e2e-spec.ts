import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { createAttendee, createEvent, hoursFromNow } from './support/content-fixtures.js';
import { createBusiness, createBusinesses, createCoworker } from './support/fixtures.js';
import { assertFields, assertNotFound, createAndReadBack, errorNames, refused, unknownIdIsNotFound } from './support/record-checks.js';
import { appPerSuite } from './support/test-app.js';

describe('calendar events, attendees and waiting attendees', () => {
  const t = appPerSuite();
  let business: number;
  let coworker: number;

  before(async () => {
    [business] = await createBusinesses(t, 'Canal Works');
    coworker = await createCoworker(t, business, { FullName: 'Emmy Noether', Email: 'emmy@example.com' });
  });

  const event = async (id: number) => (await t.get(`/api/content/calendarevents/${id}`)).body;

  describe('calendar events', () => {
    it('creates with every field and reads it back, with AttendeeCount 0 and SoldOut false', async () => {
      const input = {
        BusinessId: business,
        Name: 'Founders breakfast',
        StartDate: '2031-05-01T08:00:00Z',
        EndDate: '2031-05-01T10:00:00Z',
        ShortDescription: 'Coffee and pastries',
        LongDescription: 'L'.repeat(5000),
        Location: 'Ground floor kitchen',
        Allocation: 12,
        EnableWaitList: true,
        PublishDate: '2031-04-01T00:00:00Z',
        OnlyForMembers: true,
        OnlyForContacts: false,
        SystemId: 'ev-1',
      };
      const read = await createAndReadBack(t, '/api/content/calendarevents', 'CalendarEvent', input);
      assertFields(read, { AttendeeCount: 0, SoldOut: false, ToStringText: 'Founders breakfast' });
    });

    it('booleans default to false, Allocation and PublishDate to null (unlimited, published at once)', async () => {
      const read = await event(await createEvent(t, business));
      assert.deepEqual(
        [read.EnableWaitList, read.OnlyForMembers, read.OnlyForContacts, read.Allocation, read.PublishDate, read.SoldOut],
        [false, false, false, null, null, false],
      );
    });

    it('missing required fields: 400 naming each, nothing written', async () => {
      const res = await refused(t, ['calendarevent'], 400, () => t.post('/api/content/calendarevents', { Location: 'Roof' }));
      assert.deepEqual(errorNames(res.body), ['BusinessId', 'EndDate', 'Name', 'StartDate']);
      assert.equal(res.body.WasSuccessful, false);
      assert.equal(res.body.Value, null);
    });

    it('EndDate before StartDate: 400 naming EndDate; same start and end is fine', async () => {
      const res = await refused(t, ['calendarevent'], 400, () =>
        t.post('/api/content/calendarevents', {
          BusinessId: business,
          Name: 'Backwards',
          StartDate: '2031-05-01T10:00:00Z',
          EndDate: '2031-05-01T09:59:59Z',
        }),
      );
      assert.equal(res.body.Errors[0].PropertyName, 'EndDate');
      assert.match(res.body.Message, /^EndDate: /);
      await createEvent(t, business, { StartDate: '2031-05-01T10:00:00Z', EndDate: '2031-05-01T10:00:00Z' });
      const id = await createEvent(t, business);
      await refused(t, ['calendarevent'], 400, () =>
        t.put(`/api/content/calendarevents/${id}`, { BusinessId: business, Name: 'x', StartDate: '2031-05-02', EndDate: '2031-05-01' }),
      );
    });

    it('bad values: Allocation below 1 or fractional, bad dates, unknown business, long text', async () => {
      const base = { BusinessId: business, Name: 'Bad', StartDate: hoursFromNow(1), EndDate: hoursFromNow(2) };
      for (const [field, value] of [
        ['Allocation', 0],
        ['Allocation', -3],
        ['Allocation', 2.5],
        ['Allocation', '3'],
        ['StartDate', '2031-02-30'],
        ['PublishDate', 'tomorrow'],
        ['EnableWaitList', 'yes'],
        ['Location', 'x'.repeat(256)],
        ['ShortDescription', 'x'.repeat(65_536)],
      ] as const) {
        const res = await refused(t, ['calendarevent'], 400, () => t.post('/api/content/calendarevents', { ...base, [field]: value }));
        assert.deepEqual(errorNames(res.body), [field], `${field}=${String(value)}`);
      }
      const unknown = await refused(t, ['calendarevent'], 400, () =>
        t.post('/api/content/calendarevents', { ...base, BusinessId: 424242 }),
      );
      assert.equal(unknown.body.Message, 'BusinessId: Business 424242 does not exist');
    });

    it('update keeps absent optional fields and clears explicit null; delete; 404s', async () => {
      const id = await createEvent(t, business, {
        Location: 'Keep',
        Allocation: 5,
        PublishDate: '2020-01-01T00:00:00Z',
        EnableWaitList: true,
      });
      const res = await t.put('/api/content/calendarevents', {
        Id: id,
        BusinessId: business,
        Name: 'Moved',
        StartDate: '2031-06-01T18:00',
        EndDate: '2031-06-01T20:00',
        Allocation: null,
      });
      assert.equal(res.status, 200);
      assert.equal(res.body.Message, 'CalendarEvent was successfully updated.');
      const read = await event(id);
      assert.deepEqual(
        [read.Name, read.StartDate, read.EndDate, read.Location, read.PublishDate, read.EnableWaitList, read.Allocation, read.IsNew],
        ['Moved', '2031-06-01T18:00:00Z', '2031-06-01T20:00:00Z', 'Keep', '2020-01-01T00:00:00Z', true, null, false],
      );
      assert.equal((await t.delete(`/api/content/calendarevents/${id}`)).body.Message, 'CalendarEvent was successfully deleted.');
      await unknownIdIsNotFound(
        t,
        '/api/content/calendarevents',
        ['calendarevent'],
        { BusinessId: business, Name: 'x', StartDate: '2031-06-01', EndDate: '2031-06-01' },
        { id },
      );
    });

    it('lists filter and sort by the read-only AttendeeCount too', async () => {
      const busy = await createEvent(t, business, { Name: 'Count me busy' });
      const quiet = await createEvent(t, business, { Name: 'Count me quiet' });
      await createAttendee(t, busy);
      await createAttendee(t, busy);
      const res = await t.get('/api/content/calendarevents?CalendarEvent_Name=count me&orderBy=AttendeeCount&dir=desc');
      assert.deepEqual(
        res.body.Records.map((r: any) => [r.Id, r.AttendeeCount]),
        [
          [busy, 2],
          [quiet, 0],
        ],
      );
      const two = await t.get('/api/content/calendarevents?CalendarEvent_AttendeeCount=2&CalendarEvent_Name=count me');
      assert.deepEqual(
        two.body.Records.map((r: any) => r.Id),
        [busy],
      );
    });
  });

  describe('event attendees', () => {
    it('creates with every field and reads it back; the event counts it', async () => {
      const eventId = await createEvent(t, business, { Allocation: 10 });
      const input = {
        CalendarEventId: eventId,
        FullName: 'Emmy Noether',
        Email: 'emmy@example.com',
        CoworkerId: coworker,
        CheckedIn: true,
        SystemId: 'att-1',
      };
      const read = await createAndReadBack(t, '/api/content/eventattendees', 'EventAttendee', input);
      assert.equal(read.ToStringText, 'Emmy Noether');
      assert.equal((await event(eventId)).AttendeeCount, 1);
    });

    it('missing required fields and unknown ids: 400 naming each, nothing written', async () => {
      const missing = await refused(t, ['eventattendee'], 400, () => t.post('/api/content/eventattendees', { CheckedIn: true }));
      assert.deepEqual(errorNames(missing.body), ['CalendarEventId', 'Email', 'FullName']);
      const unknownEvent = await refused(t, ['eventattendee'], 400, () =>
        t.post('/api/content/eventattendees', { CalendarEventId: 424242, FullName: 'x', Email: 'x@example.com' }),
      );
      assert.equal(unknownEvent.body.Message, 'CalendarEventId: CalendarEvent 424242 does not exist');
      const eventId = await createEvent(t, business);
      const unknownCoworker = await refused(t, ['eventattendee'], 400, () =>
        t.post('/api/content/eventattendees', { CalendarEventId: eventId, FullName: 'x', Email: 'x@example.com', CoworkerId: 424242 }),
      );
      assert.equal(unknownCoworker.body.Message, 'CoworkerId: Coworker 424242 does not exist');
    });

    it('sold out at Allocation: one more is refused with 400 and a Message; deleting one frees a place', async () => {
      const eventId = await createEvent(t, business, { Allocation: 2 });
      const first = await createAttendee(t, eventId);
      await createAttendee(t, eventId);
      let read = await event(eventId);
      assert.deepEqual([read.AttendeeCount, read.SoldOut], [2, true]);
      const res = await refused(t, ['eventattendee', 'calendarevent'], 400, () =>
        t.post('/api/content/eventattendees', { CalendarEventId: eventId, FullName: 'Late', Email: 'late@example.com' }),
      );
      assert.equal(res.body.WasSuccessful, false);
      assert.equal(res.body.Status, 400);
      assert.match(res.body.Message, /sold out/);
      const soldOut = await t.get(`/api/content/calendarevents?CalendarEvent_Id=${eventId}`);
      assert.equal(soldOut.body.Records[0].SoldOut, true);
      await t.delete(`/api/content/eventattendees/${first}`);
      read = await event(eventId);
      assert.deepEqual([read.AttendeeCount, read.SoldOut], [1, false]);
      await createAttendee(t, eventId);
    });

    it('updating an attendee keeps its place; moving it to a full event is refused; an unlimited event takes any number', async () => {
      const full = await createEvent(t, business, { Allocation: 1 });
      const open = await createEvent(t, business);
      const seated = await createAttendee(t, full, { FullName: 'Seated' });
      const update = await t.put('/api/content/eventattendees', {
        Id: seated,
        CalendarEventId: full,
        FullName: 'Seated',
        Email: 'seated@example.com',
        CheckedIn: true,
      });
      assert.equal(update.status, 200, JSON.stringify(update.body));
      const mover = await createAttendee(t, open);
      const move = await refused(t, ['eventattendee'], 400, () =>
        t.put(`/api/content/eventattendees/${mover}`, { CalendarEventId: full, FullName: 'Mover', Email: 'm@example.com' }),
      );
      assert.match(move.body.Message, /sold out/);
      for (let i = 0; i < 5; i++) await createAttendee(t, open);
      assert.deepEqual([(await event(open)).AttendeeCount, (await event(open)).SoldOut], [6, false]);
    });

    it('lowering Allocation below the attendees is allowed and leaves the event sold out', async () => {
      const eventId = await createEvent(t, business, { Allocation: 5 });
      await createAttendee(t, eventId);
      await createAttendee(t, eventId);
      const read = await event(eventId);
      const res = await t.put('/api/content/calendarevents', { ...read, Allocation: 1 });
      assert.equal(res.status, 200);
      assert.equal((await event(eventId)).SoldOut, true);
      await refused(t, ['eventattendee'], 400, () =>
        t.post('/api/content/eventattendees', { CalendarEventId: eventId, FullName: 'x', Email: 'x@example.com' }),
      );
    });

    it('parallel sign-ups never overfill: 12 at once for an Allocation of 3 leave exactly 3', async () => {
      const eventId = await createEvent(t, business, { Allocation: 3 });
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          t.post('/api/content/eventattendees', { CalendarEventId: eventId, FullName: `Racer ${i}`, Email: `racer${i}@example.com` }),
        ),
      );
      const statuses = results.map((r) => r.status).sort();
      assert.deepEqual(
        statuses,
        [...Array(3).fill(200), ...Array(9).fill(400)],
        JSON.stringify(results.filter((r) => r.status !== 200 && r.status !== 400).map((r) => r.body)),
      );
      for (const refusal of results.filter((r) => r.status === 400)) assert.match(refusal.body.Message, /sold out/);
      const stored = (await t.rows('eventattendee')).filter((row) => Number(row.CalendarEventId) === eventId);
      assert.equal(stored.length, 3);
      assert.deepEqual([(await event(eventId)).AttendeeCount, (await event(eventId)).SoldOut], [3, true]);
    });

    it('parallel sign-ups to several new events at once each stop at their own Allocation, without errors', async () => {
      const events = [
        await createEvent(t, business, { Allocation: 2 }),
        await createEvent(t, business, { Allocation: 3 }),
        await createEvent(t, business, { Allocation: 1 }),
      ];
      const results = await Promise.all(
        events.flatMap((eventId) =>
          Array.from({ length: 6 }, (_, i) =>
            t.post('/api/content/eventattendees', { CalendarEventId: eventId, FullName: `Guest ${i}`, Email: `guest${i}@example.com` }),
          ),
        ),
      );
      assert.deepEqual(
        results.filter((r) => r.status !== 200 && r.status !== 400).map((r) => r.body),
        [],
      );
      assert.equal(results.filter((r) => r.status === 200).length, 6);
      for (const [eventId, allocation] of [
        [events[0], 2],
        [events[1], 3],
        [events[2], 1],
      ])
        assert.equal((await event(eventId)).AttendeeCount, allocation);
    });

    it('an event with attendees cannot be deleted: 400, nothing removed', async () => {
      const eventId = await createEvent(t, business);
      await createAttendee(t, eventId);
      const res = await refused(t, ['calendarevent', 'eventattendee'], 400, () => t.delete(`/api/content/calendarevents/${eventId}`));
      assert.match(res.body.Message, /cannot be deleted/);
    });

    it('deletes; unknown ids are 404', async () => {
      const id = await createAttendee(t, await createEvent(t, business));
      assert.equal((await t.delete(`/api/content/eventattendees/${id}`)).body.Message, 'EventAttendee was successfully deleted.');
      await unknownIdIsNotFound(
        t,
        '/api/content/eventattendees',
        ['eventattendee'],
        { CalendarEventId: 1, FullName: 'x', Email: 'x' },
        { id },
      );
    });
  });

  describe('event waiting attendees (administrators)', () => {
    const entry = (eventId: number, overrides: Record<string, unknown> = {}) => ({
      BusinessId: business,
      CalendarEventId: eventId,
      FullName: 'Lise Meitner',
      Email: 'lise@example.com',
      ...overrides,
    });

    it('creates with every field and reads it back with CalendarEventName and CoworkerFullName', async () => {
      const eventId = await createEvent(t, business, { Name: 'Fission talk' });
      const input = entry(eventId, { CoworkerId: coworker, SystemId: 'wait-1' });
      const read = await createAndReadBack(t, '/api/content/eventwaitingattendees', 'EventWaitingAttendee', input);
      assertFields(read, { CalendarEventName: 'Fission talk', CoworkerFullName: 'Emmy Noether', ToStringText: 'Lise Meitner' });
    });

    it('is not bound by the join preconditions: a list that is disabled, an event that is not sold out', async () => {
      const eventId = await createEvent(t, business, { EnableWaitList: false });
      const res = await t.post('/api/content/eventwaitingattendees', entry(eventId, { CoworkerId: coworker }));
      assert.equal(res.status, 200);
    });

    it("missing required fields, unknown ids and a business other than the event's: 400 naming each", async () => {
      const missing = await refused(t, ['eventwaitingattendee'], 400, () => t.post('/api/content/eventwaitingattendees', {}));
      assert.deepEqual(errorNames(missing.body), ['BusinessId', 'CalendarEventId', 'Email', 'FullName']);
      const unknown = await refused(t, ['eventwaitingattendee'], 400, () => t.post('/api/content/eventwaitingattendees', entry(424242)));
      assert.equal(unknown.body.Message, 'CalendarEventId: CalendarEvent 424242 does not exist');
      const eventId = await createEvent(t, business);
      const other = await createBusiness(t, { Name: 'Other place' });
      const mismatch = await refused(t, ['eventwaitingattendee'], 400, () =>
        t.post('/api/content/eventwaitingattendees', entry(eventId, { BusinessId: other })),
      );
      assert.equal(mismatch.body.Errors[0].PropertyName, 'BusinessId');
    });

    it('one entry per customer and event: a duplicate is 400 naming CoworkerId, never 500, also on update', async () => {
      const eventId = await createEvent(t, business);
      const otherEvent = await createEvent(t, business);
      await t.post('/api/content/eventwaitingattendees', entry(eventId, { CoworkerId: coworker }));
      const dup = await refused(t, ['eventwaitingattendee'], 400, () =>
        t.post('/api/content/eventwaitingattendees', entry(eventId, { CoworkerId: coworker, FullName: 'Someone else' })),
      );
      assert.equal(dup.body.WasSuccessful, false);
      assert.equal(dup.body.Errors[0].PropertyName, 'CoworkerId');
      assert.match(dup.body.Message, /already on the waiting list/);
      const elsewhere = (await t.post('/api/content/eventwaitingattendees', entry(otherEvent, { CoworkerId: coworker }))).body.Value.Id;
      await refused(t, ['eventwaitingattendee'], 400, () =>
        t.put(`/api/content/eventwaitingattendees/${elsewhere}`, entry(eventId, { CoworkerId: coworker })),
      );
      // People who are not customers (no CoworkerId) are not bound by the rule.
      for (let i = 0; i < 2; i++) assert.equal((await t.post('/api/content/eventwaitingattendees', entry(eventId))).status, 200);
    });

    it('parallel duplicates leave exactly one entry', async () => {
      const eventId = await createEvent(t, business);
      const results = await Promise.all(
        Array.from({ length: 10 }, () => t.post('/api/content/eventwaitingattendees', entry(eventId, { CoworkerId: coworker }))),
      );
      assert.deepEqual(results.map((r) => r.status).sort(), [200, ...Array(9).fill(400)]);
      const stored = (await t.rows('eventwaitingattendee')).filter((row) => Number(row.CalendarEventId) === eventId);
      assert.equal(stored.length, 1);
    });

    it('update keeps absent optional fields and clears explicit null; delete; 404s', async () => {
      const eventId = await createEvent(t, business);
      const id = (await t.post('/api/content/eventwaitingattendees', entry(eventId, { CoworkerId: coworker, SystemId: 'keep' }))).body.Value
        .Id;
      await t.put('/api/content/eventwaitingattendees', { Id: id, ...entry(eventId, { Email: 'new@example.com' }) });
      let read = (await t.get(`/api/content/eventwaitingattendees/${id}`)).body;
      assert.deepEqual([read.Email, read.CoworkerId, read.SystemId], ['new@example.com', coworker, 'keep']);
      await t.put('/api/content/eventwaitingattendees', { Id: id, ...entry(eventId, { CoworkerId: null }) });
      read = (await t.get(`/api/content/eventwaitingattendees/${id}`)).body;
      assert.deepEqual([read.CoworkerId, read.CoworkerFullName], [null, null]);
      assert.equal(
        (await t.delete(`/api/content/eventwaitingattendees/${id}`)).body.Message,
        'EventWaitingAttendee was successfully deleted.',
      );
      for (const gone of [
        await t.get(`/api/content/eventwaitingattendees/${id}`),
        await t.delete(`/api/content/eventwaitingattendees/${id}`),
      ])
        assertNotFound(gone);
    });

    it("an event's list reads in joining order with orderBy=CreatedOn", async () => {
      const eventId = await createEvent(t, business);
      const ids: number[] = [];
      for (const name of ['First', 'Second', 'Third']) {
        ids.push(
          (
            await t.post(
              '/api/content/eventwaitingattendees',
              entry(eventId, { FullName: name, CoworkerId: await createCoworker(t, business, { FullName: name }) }),
            )
          ).body.Value.Id,
        );
      }
      const res = await t.get(`/api/content/eventwaitingattendees?EventWaitingAttendee_CalendarEvent=${eventId}&orderBy=CreatedOn`);
      assert.equal(res.body.CurrentOrderField, 'CreatedOn');
      assert.deepEqual(
        res.body.Records.map((r: any) => r.FullName),
        ['First', 'Second', 'Third'],
      );
      assert.deepEqual(
        res.body.Records.map((r: any) => r.Id),
        ids,
      );
    });
  });
});

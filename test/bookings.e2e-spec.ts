import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { createUser } from './support/auth.js';
import { createProduct } from './support/billing-fixtures.js';
import { create, createBusinesses, createCoworker, createTariff, currencyId } from './support/fixtures.js';
import { assertFields, createAndReadBack, errorNames, putBackChangesNothing, refused, tableRows } from './support/record-checks.js';
import { appPerSuite, basicAuth, type HttpResponse } from './support/test-app.js';

const TYPES = '/api/spaces/resourcetypes';
const RESOURCES = '/api/spaces/resources';
const BOOKINGS = '/api/spaces/bookings';
const PRODUCTS = '/api/spaces/bookingproducts';
const CREDITS = '/api/billing/coworkerbookingcredits';
const USES = '/api/billing/coworkerbookingcreditusehistories';
/** Every table a booking write may change: a refused one leaves each as it was. */
const TABLES = [
  'booking',
  'resource',
  'coworkerbookingcredit',
  'coworkerbookingcredituse',
  'bookingproduct',
  'coworkerproduct',
  'product',
  'change_log',
];

const noServerErrors = (answers: HttpResponse[]) =>
  assert.deepEqual(
    answers.filter((a) => a.status >= 500).map((a) => `${a.status} ${a.text}`),
    [],
  );

describe('bookings paid with booking credits', () => {
  const t = appPerSuite();
  let business: number;
  let otherBusiness: number;
  let roomType: number;
  let deskType: number;
  let customer: number;
  /** A day of its own per test, so the tests' bookings never meet. */
  let day = 0;
  const nextDay = () => {
    day++;
    const date = new Date(Date.UTC(2027, 0, 1 + day));
    return (hour: number, minute = 0) => new Date(date.getTime() + hour * 3_600_000 + minute * 60_000).toISOString().slice(0, 19) + 'Z';
  };

  before(async () => {
    [business, otherBusiness] = await createBusinesses(t, 'Canal Works', 'Harbour Hub');
    roomType = await create(t, TYPES, { BusinessId: business, Name: 'Meeting room' });
    deskType = await create(t, TYPES, { BusinessId: business, Name: 'Desk' });
    customer = await createCoworker(t, business, { FullName: 'Ada Lovelace' });
  });

  const resource = (overrides: Record<string, unknown> = {}) =>
    create(t, RESOURCES, { BusinessId: business, Name: 'Boardroom', ResourceTypeId: roomType, HourlyPrice: 10, ...overrides });
  const book = (body: Record<string, unknown>, options?: { auth?: string }) => t.post(BOOKINGS, { CoworkerId: customer, ...body }, options);
  const read = async (path: string, id: number) => (await t.get(`${path}/${id}`)).body;
  const usesOf = async (bookingId: number) =>
    (await t.get(`${USES}?CoworkerBookingCreditUseHistory_Booking=${bookingId}&size=1000`)).body.Records as any[];

  describe('resource types and resources', () => {
    it('a resource type reads back; a resource with every field, its defaults and ResourceTypeName', async () => {
      await createAndReadBack(t, TYPES, 'ResourceType', { BusinessId: business, Name: 'Phone booth' });
      const full = {
        BusinessId: business,
        Name: 'Loft',
        ResourceTypeId: roomType,
        Description: 'Top floor',
        Allocation: 3,
        Visible: false,
        Archived: false,
        OnlyForMembers: true,
        HourlyPrice: 12.5,
        CurrencyId: await currencyId(t, 'EUR'),
        MinBookingMinutes: 30,
        MaxBookingMinutes: 240,
        SystemId: 'loft-1',
      };
      const loft = await createAndReadBack(t, RESOURCES, 'Resource', full);
      assertFields(loft, { ResourceTypeName: 'Meeting room', ToStringText: 'Loft' });
      assert.equal(loft.BookingSequence, undefined, 'the lock column is never sent');
      const bare = await read(RESOURCES, await create(t, RESOURCES, { BusinessId: business, Name: 'Bare', ResourceTypeId: deskType }));
      assertFields(bare, {
        Allocation: 1,
        Visible: true,
        Archived: false,
        OnlyForMembers: false,
        HourlyPrice: 0,
        CurrencyId: await currencyId(t, 'GBP'),
        MinBookingMinutes: null,
        MaxBookingMinutes: null,
      });
      await putBackChangesNothing(t, RESOURCES, loft.Id);
    });

    it('400s naming the field: a type of another business, limits the wrong way round, allocation below 1; nothing written', async () => {
      const foreignType = await create(t, TYPES, { BusinessId: otherBusiness, Name: 'Harbour room' });
      const tables = ['resource', 'resourcetype'];
      assert.deepEqual(
        errorNames(
          (await refused(t, tables, 400, () => t.post(RESOURCES, { BusinessId: business, Name: 'X', ResourceTypeId: foreignType }))).body,
        ),
        ['ResourceTypeId'],
      );
      assert.deepEqual(
        errorNames(
          (
            await refused(t, tables, 400, () =>
              t.post(RESOURCES, {
                BusinessId: business,
                Name: 'X',
                ResourceTypeId: roomType,
                MinBookingMinutes: 60,
                MaxBookingMinutes: 30,
              }),
            )
          ).body,
        ),
        ['MaxBookingMinutes'],
      );
      assert.deepEqual(
        errorNames(
          (
            await refused(t, tables, 400, () =>
              t.post(RESOURCES, { BusinessId: business, Name: 'X', ResourceTypeId: roomType, Allocation: 0, HourlyPrice: -1 }),
            )
          ).body,
        ),
        ['Allocation', 'HourlyPrice'],
      );
      assert.deepEqual(errorNames((await refused(t, tables, 400, () => t.post(RESOURCES, { Name: 'X' }))).body), [
        'BusinessId',
        'ResourceTypeId',
      ]);
    });
  });

  describe('no double booking', () => {
    it('an overlap is refused naming FromTime, saying the resource is booked; touching intervals are allowed', async () => {
      const room = await resource({ Name: 'Room A' });
      const at = nextDay();
      const first = await book({ ResourceId: room, FromTime: at(10), ToTime: at(11) });
      assert.equal(first.status, 200, JSON.stringify(first.body));
      for (const [from, to] of [
        [at(10), at(11)],
        [at(9, 30), at(10, 1)],
        [at(10, 59), at(12)],
        [at(9), at(13)],
        [at(10, 15), at(10, 45)],
      ]) {
        const res = await refused(t, TABLES, 400, () => book({ ResourceId: room, FromTime: from, ToTime: to }));
        assert.deepEqual(errorNames(res.body), ['FromTime'], `${from}-${to}`);
        assert.match(res.body.Message, /^FromTime: Resource "Room A" is already booked/);
      }
      assert.equal((await book({ ResourceId: room, FromTime: at(9), ToTime: at(10) })).status, 200, 'ends where the first starts');
      assert.equal((await book({ ResourceId: room, FromTime: at(11), ToTime: at(12) })).status, 200, 'starts where the first ends');
      assert.equal(
        (await book({ ResourceId: await resource({ Name: 'Room B' }), FromTime: at(10), ToTime: at(11) })).status,
        200,
        'another resource',
      );
    });

    it('tentative bookings block too', async () => {
      const room = await resource({ Name: 'Room T' });
      const at = nextDay();
      assert.equal((await book({ ResourceId: room, FromTime: at(10), ToTime: at(11), Tentative: true })).status, 200);
      assert.deepEqual(
        errorNames((await refused(t, TABLES, 400, () => book({ ResourceId: room, FromTime: at(10), ToTime: at(11) }))).body),
        ['FromTime'],
      );
    });

    it('allocation 3: three bookings may cover one instant, not four; a fourth fits where only two overlap', async () => {
      const room = await resource({ Name: 'Hot desks', Allocation: 3 });
      const at = nextDay();
      for (const [from, to] of [
        [at(9), at(11)],
        [at(10), at(12)],
        [at(10), at(11)],
      ])
        assert.equal((await book({ ResourceId: room, FromTime: from, ToTime: to })).status, 200);
      assert.deepEqual(
        errorNames((await refused(t, TABLES, 400, () => book({ ResourceId: room, FromTime: at(10, 30), ToTime: at(10, 45) }))).body),
        ['FromTime'],
      );
      assert.equal((await book({ ResourceId: room, FromTime: at(11), ToTime: at(13) })).status, 200, 'from 11 only [10,12) is there');
    });

    for (const allocation of [1, 3]) {
      it(`20 parallel creates of one slot make exactly ${allocation} (allocation ${allocation}); the others are 400 naming FromTime`, async () => {
        const room = await resource({ Name: `Contested ${allocation}`, Allocation: allocation });
        const at = nextDay();
        const answers = await Promise.all(Array.from({ length: 20 }, () => book({ ResourceId: room, FromTime: at(14), ToTime: at(15) })));
        noServerErrors(answers);
        assert.equal(answers.filter((a) => a.status === 200).length, allocation);
        for (const answer of answers.filter((a) => a.status !== 200)) assert.deepEqual(errorNames(answer.body), ['FromTime']);
        const rows = (await tableRows(t, 'booking')).filter((row) => Number(row.ResourceId) === room);
        assert.equal(rows.length, allocation);
      });
    }

    it('20 parallel moves into one slot: at most the allocation end up there', async () => {
      const room = await resource({ Name: 'Move target' });
      const at = nextDay();
      const ids: number[] = [];
      for (let i = 0; i < 20; i++)
        ids.push(
          await create(t, BOOKINGS, { CoworkerId: customer, ResourceId: room, FromTime: at(0, i * 10), ToTime: at(0, i * 10 + 10) }),
        );
      const answers = await Promise.all(ids.map((id) => t.put(`${BOOKINGS}/${id}`, { FromTime: at(20), ToTime: at(21) })));
      noServerErrors(answers);
      assert.equal(answers.filter((a) => a.status === 200).length, 1);
      const there = (await t.get(`${BOOKINGS}?Booking_Resource=${room}&from_Booking_FromTime=${at(20)}&to_Booking_FromTime=${at(20)}`))
        .body;
      assert.equal(there.TotalItems, 1);
    });
  });

  describe('refusals: 400 naming the field, nothing written', () => {
    it('archived resource (ResourceId), customer of another business (CoworkerId), length limits (ToTime), times not whole minutes, end before start', async () => {
      const at = nextDay();
      const archived = await resource({ Name: 'Old room', Archived: true });
      const limited = await resource({ Name: 'Limited', MinBookingMinutes: 30, MaxBookingMinutes: 120 });
      const stranger = await createCoworker(t, otherBusiness, { FullName: 'Harbour customer' });
      const cases: Array<[Record<string, unknown>, string, RegExp?]> = [
        [{ ResourceId: archived, FromTime: at(9), ToTime: at(10) }, 'ResourceId', /archived/],
        [{ ResourceId: limited, CoworkerId: stranger, FromTime: at(9), ToTime: at(10) }, 'CoworkerId', /not a customer of Business/],
        [{ ResourceId: limited, FromTime: at(9), ToTime: at(9, 29) }, 'ToTime', /at least 30 minutes/],
        [{ ResourceId: limited, FromTime: at(9), ToTime: at(11, 1) }, 'ToTime', /at most 120 minutes/],
        [{ ResourceId: limited, FromTime: '2027-03-01T09:00:30Z', ToTime: at(11) }, 'FromTime', /whole minute/],
        [{ ResourceId: limited, FromTime: at(9), ToTime: '2027-03-01T10:00:00.250Z' }, 'ToTime', /whole minute/],
        [{ ResourceId: limited, FromTime: at(10), ToTime: at(10) }, 'ToTime', /after FromTime/],
        [{ ResourceId: 987654, FromTime: at(9), ToTime: at(10) }, 'ResourceId', /does not exist/],
        [{ FromTime: at(9) }, 'ResourceId'],
      ];
      for (const [body, field, message] of cases) {
        const res = await refused(t, TABLES, 400, () => book(body));
        assert.equal(res.body.WasSuccessful, false);
        assert.ok(errorNames(res.body).includes(field), `${JSON.stringify(body)}: ${JSON.stringify(res.body)}`);
        if (message) assert.match(res.body.Message, message);
      }
      assert.equal((await book({ ResourceId: limited, FromTime: at(9), ToTime: at(11) })).status, 200, 'within the limits');
    });

    it('OnlyForMembers: refused without a contract active at FromTime (CoworkerId), made with one', async () => {
      const at = nextDay();
      const members = await resource({ Name: 'Members lounge', OnlyForMembers: true });
      const contact = await createCoworker(t, business, { FullName: 'Cora Contact' });
      const res = await refused(t, TABLES, 400, () => book({ CoworkerId: contact, ResourceId: members, FromTime: at(9), ToTime: at(10) }));
      assert.deepEqual(errorNames(res.body), ['CoworkerId']);
      assert.match(res.body.Message, /only for members/);
      const member = await createCoworker(t, business, { FullName: 'Mary Member', TariffId: await createTariff(t, business) });
      assert.equal((await book({ CoworkerId: member, ResourceId: members, FromTime: at(9), ToTime: at(10) })).status, 200);
    });
  });

  describe('price and credits', () => {
    it('Price = HourlyPrice × minutes ÷ 60 to the cent; without credits all of it is charged', async () => {
      const at = nextDay();
      const room = await resource({ Name: 'Priced', HourlyPrice: 12.3456 });
      const booking = await read(
        BOOKINGS,
        await create(t, BOOKINGS, {
          CoworkerId: await createCoworker(t, business),
          ResourceId: room,
          FromTime: at(9),
          ToTime: at(9, 7),
          Notes: 'x',
        }),
      );
      assertFields(booking, {
        Price: 1.44,
        CreditUsed: 0,
        ChargeAmount: 1.44,
        Invoiced: false,
        CoworkerInvoiceId: null,
        ResourceName: 'Priced',
        BusinessId: business,
        Tentative: false,
      });
      await putBackChangesNothing(t, BOOKINGS, booking.Id);
      assertFields(await read(BOOKINGS, booking.Id), { Price: 1.44, ChargeAmount: 1.44 });
    });

    it('credits are spent earliest expiry first, no expiry last, only applicable ones; the use history adds up', async () => {
      const at = nextDay();
      const who = await createCoworker(t, business, { FullName: 'Credit holder' });
      const mine = (body: Record<string, unknown>) => create(t, CREDITS, { CoworkerId: who, CaneBeUsedForBookings: true, ...body });
      const never = await mine({ TotalCredit: 100, Description: 'no expiry' });
      const late = await mine({ TotalCredit: 3, ExpireDate: '2030-01-01T00:00:00Z' });
      const early = await mine({ TotalCredit: 4, ExpireDate: '2029-01-01T00:00:00Z' });
      const desksOnly = await mine({ TotalCredit: 50, ElegibleResourceTypes: [deskType] });
      const notBookings = await mine({ TotalCredit: 50, CaneBeUsedForBookings: false });
      const expired = await mine({ TotalCredit: 50, ExpireDate: '2027-01-01T00:00:00Z' });
      const future = await mine({ TotalCredit: 50, ValidFrom: '2028-01-01T00:00:00Z' });
      const room = await resource({ Name: 'Credit room', HourlyPrice: 10 });
      const available = await t.post(`${BOOKINGS}/available`, { CoworkerId: who, ResourceId: room, FromTime: at(9), ToTime: at(10) });
      assert.deepEqual(available.body, { Available: true, Message: null, Price: 10, CreditUsed: 10, ChargeAmount: 0 });
      const id = await create(t, BOOKINGS, { CoworkerId: who, ResourceId: room, FromTime: at(9), ToTime: at(10) });
      assertFields(await read(BOOKINGS, id), { Price: 10, CreditUsed: 10, ChargeAmount: 0 });
      const remaining = async (creditId: number) => (await read(CREDITS, creditId)).RemainingCredit;
      assert.deepEqual([await remaining(early), await remaining(late), await remaining(never)], [0, 0, 97]);
      for (const untouched of [desksOnly, notBookings, expired, future]) assert.equal(await remaining(untouched), 50);
      const uses = await usesOf(id);
      assert.deepEqual(
        uses.map((u) => [u.CoworkerBookingCreditId, u.CreditUsed, u.Returned, u.CoworkerId]),
        [
          [early, 4, false, who],
          [late, 3, false, who],
          [never, 3, false, who],
        ],
      );
      // Partly paid: the rest is charged.
      const big = await resource({ Name: 'Big room', HourlyPrice: 1000 });
      const second = await read(BOOKINGS, await create(t, BOOKINGS, { CoworkerId: who, ResourceId: big, FromTime: at(9), ToTime: at(10) }));
      assertFields(second, { Price: 1000, CreditUsed: 97, ChargeAmount: 903 });
      // DoNotUseBookingCredit: all charged, nothing spent.
      const third = await read(
        BOOKINGS,
        await create(t, BOOKINGS, {
          CoworkerId: who,
          ResourceId: desksOnly ? await resource({ Name: 'Desk row', ResourceTypeId: deskType }) : 0,
          FromTime: at(9),
          ToTime: at(10),
          DoNotUseBookingCredit: true,
        }),
      );
      assertFields(third, { Price: 10, CreditUsed: 0, ChargeAmount: 10 });
      assert.equal(await remaining(desksOnly), 50);
    });

    it("10 parallel bookings on one customer's credits: never below zero, Σ use history = credit spent", async () => {
      const at = nextDay();
      const who = await createCoworker(t, business, { FullName: 'Parallel spender' });
      const credits = [
        await create(t, CREDITS, { CoworkerId: who, CaneBeUsedForBookings: true, TotalCredit: 25, ExpireDate: '2029-01-01T00:00:00Z' }),
        await create(t, CREDITS, { CoworkerId: who, CaneBeUsedForBookings: true, TotalCredit: 17.5 }),
      ];
      const rooms: number[] = [];
      for (let i = 0; i < 10; i++) rooms.push(await resource({ Name: `Parallel room ${i}`, HourlyPrice: 6 }));
      const answers = await Promise.all(rooms.map((room) => book({ CoworkerId: who, ResourceId: room, FromTime: at(9), ToTime: at(10) })));
      noServerErrors(answers);
      assert.deepEqual(
        answers.map((a) => a.status),
        rooms.map(() => 200),
      );
      const bookings = await Promise.all(answers.map((a) => read(BOOKINGS, a.body.Value.Id)));
      const creditUsed = bookings.reduce((sum, b) => sum + Math.round(b.CreditUsed * 10_000), 0);
      assert.equal(creditUsed, 42.5 * 10_000, 'all the credit is spent, no more');
      for (const b of bookings) assert.equal(Math.round((b.Price - b.CreditUsed) * 10_000), Math.round(b.ChargeAmount * 10_000));
      for (const id of credits) {
        const c = await read(CREDITS, id);
        assert.equal(c.RemainingCredit, 0);
        const uses = (await t.get(`${USES}?CoworkerBookingCreditUseHistory_CoworkerBookingCredit=${id}&size=1000`)).body.Records as any[];
        assert.equal(
          uses.filter((u) => !u.Returned).reduce((sum, u) => sum + Math.round(u.CreditUsed * 10_000), 0),
          Math.round((c.TotalCredit - c.RemainingCredit) * 10_000),
        );
      }
    });

    it('tentative: blocks, spends and charges nothing; a PUT making it firm prices and spends', async () => {
      const at = nextDay();
      const who = await createCoworker(t, business, { FullName: 'Tentative' });
      const held = await create(t, CREDITS, { CoworkerId: who, CaneBeUsedForBookings: true, TotalCredit: 4 });
      const room = await resource({ Name: 'Tentative room', HourlyPrice: 10 });
      const id = await create(t, BOOKINGS, { CoworkerId: who, ResourceId: room, FromTime: at(9), ToTime: at(10), Tentative: true });
      assertFields(await read(BOOKINGS, id), { Price: 10, CreditUsed: 0, ChargeAmount: 0, Tentative: true });
      assert.equal((await read(CREDITS, held)).RemainingCredit, 4);
      assert.equal((await t.put(`${BOOKINGS}/${id}`, { Tentative: false })).status, 200);
      assertFields(await read(BOOKINGS, id), { Price: 10, CreditUsed: 4, ChargeAmount: 6, Tentative: false });
      assert.equal((await read(CREDITS, held)).RemainingCredit, 0);
    });

    it('a move re-prices and spends again; a cancellation gives the credits back (Returned)', async () => {
      const at = nextDay();
      const who = await createCoworker(t, business, { FullName: 'Mover' });
      const held = await create(t, CREDITS, { CoworkerId: who, CaneBeUsedForBookings: true, TotalCredit: 15 });
      const room = await resource({ Name: 'Move room', HourlyPrice: 10 });
      const dearer = await resource({ Name: 'Dear room', HourlyPrice: 20 });
      const id = await create(t, BOOKINGS, { CoworkerId: who, ResourceId: room, FromTime: at(9), ToTime: at(10) });
      assertFields(await read(BOOKINGS, id), { CreditUsed: 10, ChargeAmount: 0 });
      assert.equal((await t.put(BOOKINGS, { Id: id, ToTime: at(9, 30) })).status, 200);
      assertFields(await read(BOOKINGS, id), { Price: 5, CreditUsed: 5, ChargeAmount: 0 });
      assert.equal((await read(CREDITS, held)).RemainingCredit, 10);
      assert.equal((await t.put(`${BOOKINGS}/${id}`, { ResourceId: dearer, FromTime: at(14), ToTime: at(15) })).status, 200);
      assertFields(await read(BOOKINGS, id), { Price: 20, CreditUsed: 15, ChargeAmount: 5, ResourceName: 'Dear room' });
      assert.equal((await read(CREDITS, held)).RemainingCredit, 0);
      // A refused move changes nothing: credits stay spent, the booking where it was.
      const blocker = await create(t, BOOKINGS, { CoworkerId: customer, ResourceId: room, FromTime: at(16), ToTime: at(17) });
      assert.ok(blocker);
      await refused(t, TABLES, 400, () => t.put(`${BOOKINGS}/${id}`, { ResourceId: room, FromTime: at(16), ToTime: at(17) }));
      let uses = await usesOf(id);
      assert.deepEqual(
        uses.map((u) => [u.CreditUsed, u.Returned]),
        [
          [10, true],
          [5, true],
          [15, false],
        ],
      );
      const deleted = await t.delete(`${BOOKINGS}/${id}`);
      assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
      assert.equal(deleted.body.Message, 'Booking was successfully deleted.');
      assert.equal((await read(CREDITS, held)).RemainingCredit, 15);
      uses = await usesOf(id);
      assert.ok(uses.every((u) => u.Returned === true));
      assert.equal((await t.get(`${BOOKINGS}/${id}`)).status, 404);
    });

    it('an invoiced booking cannot be moved or deleted; nothing changes', async () => {
      const at = nextDay();
      const room = await resource({ Name: 'Invoiced room' });
      const id = await create(t, BOOKINGS, { CoworkerId: customer, ResourceId: room, FromTime: at(9), ToTime: at(10) });
      // Marked as billed, as an invoice run marks it (docs/api.md §9.2 item 5).
      await t.db.query(`UPDATE ${t.db.id('booking')} SET ${t.db.id('Invoiced')} = 1 WHERE ${t.db.id('Id')} = ?`, [id]);
      const moved = await refused(t, TABLES, 400, () => t.put(`${BOOKINGS}/${id}`, { FromTime: at(11), ToTime: at(12) }));
      assert.match(moved.body.Message, /invoiced/);
      const deleted = await refused(t, TABLES, 400, () => t.delete(`${BOOKINGS}/${id}`));
      assert.match(deleted.body.Message, /invoiced/);
      assert.equal((await t.put(`${BOOKINGS}/${id}`, { Notes: 'Still fine' })).status, 200, 'a note is not a move');
    });
  });

  describe('available', () => {
    it('answers by the rules of a create and writes nothing', async () => {
      const at = nextDay();
      const who = await createCoworker(t, business, { FullName: 'Asker' });
      await create(t, CREDITS, { CoworkerId: who, CaneBeUsedForBookings: true, TotalCredit: 2.5 });
      const room = await resource({ Name: 'Asked room', HourlyPrice: 3 });
      const ask = (body: Record<string, unknown>) =>
        refused(t, TABLES, 200, () => t.post(`${BOOKINGS}/available`, { CoworkerId: who, ResourceId: room, ...body }));
      assert.deepEqual((await ask({ FromTime: at(9), ToTime: at(10) })).body, {
        Available: true,
        Message: null,
        Price: 3,
        CreditUsed: 2.5,
        ChargeAmount: 0.5,
      });
      await create(t, BOOKINGS, { CoworkerId: customer, ResourceId: room, FromTime: at(9), ToTime: at(10) });
      const booked = (await ask({ FromTime: at(9, 30), ToTime: at(10, 30) })).body;
      assert.equal(booked.Available, false);
      assert.match(booked.Message, /already booked/);
      assert.equal((await ask({ FromTime: at(10), ToTime: at(11), Tentative: true })).body.ChargeAmount, 0);
      const invalid = await refused(t, TABLES, 400, () => t.post(`${BOOKINGS}/available`, { CoworkerId: who, FromTime: at(9) }));
      assert.deepEqual(errorNames(invalid.body), ['ResourceId', 'ToTime']);
    });
  });

  describe('booking products', () => {
    it("a product sold with a booking is a sale of the booking's customer (stock taken); deleting it deletes the sale; deleting the booking takes them", async () => {
      const at = nextDay();
      const room = await resource({ Name: 'Catered room' });
      const booking = await create(t, BOOKINGS, { CoworkerId: customer, ResourceId: room, FromTime: at(9), ToTime: at(10) });
      const lunch = await createProduct(t, business, { Name: 'Lunch', Price: 8, TrackStock: true, CurrentStock: 5 });
      const item = await createAndReadBack(t, PRODUCTS, 'BookingProduct', { BookingId: booking, ProductId: lunch, Quantity: 2 });
      const sale = await read('/api/billing/coworkerproducts', item.CoworkerProductId);
      assertFields(sale, { CoworkerId: customer, ProductId: lunch, Quantity: 2, Price: 8 });
      assert.equal((await read('/api/billing/products', lunch)).CurrentStock, 3);
      assert.deepEqual(errorNames((await refused(t, TABLES, 400, () => t.put(`${PRODUCTS}/${item.Id}`, { ...item, Quantity: 3 }))).body), [
        'Quantity',
      ]);
      const foreign = await createProduct(t, otherBusiness, { Name: 'Harbour lunch' });
      assert.deepEqual(
        errorNames((await refused(t, TABLES, 400, () => t.post(PRODUCTS, { BookingId: booking, ProductId: foreign }))).body),
        ['ProductId'],
      );
      assert.equal((await t.delete(`${PRODUCTS}/${item.Id}`)).status, 200);
      assert.equal((await t.get(`/api/billing/coworkerproducts/${item.CoworkerProductId}`)).status, 404);
      const second = await create(t, PRODUCTS, { BookingId: booking, ProductId: lunch });
      const secondSale = (await read(PRODUCTS, second)).CoworkerProductId;
      await t.db.query(`UPDATE ${t.db.id('coworkerproduct')} SET ${t.db.id('Invoiced')} = 1 WHERE ${t.db.id('Id')} = ?`, [secondSale]);
      assert.match((await refused(t, TABLES, 400, () => t.delete(`${PRODUCTS}/${second}`))).body.Message, /invoiced/);
      assert.match((await refused(t, TABLES, 400, () => t.delete(`${BOOKINGS}/${booking}`))).body.Message, /invoiced/);
      await t.db.query(`UPDATE ${t.db.id('coworkerproduct')} SET ${t.db.id('Invoiced')} = 0 WHERE ${t.db.id('Id')} = ?`, [secondSale]);
      assert.equal((await t.delete(`${BOOKINGS}/${booking}`)).status, 200);
      assert.equal((await t.get(`${PRODUCTS}/${second}`)).status, 404);
      assert.equal((await t.get(`/api/billing/coworkerproducts/${secondSale}`)).status, 404);
    });
  });

  describe('cancellation command, tax rates, events', () => {
    it('CANCEL_BOOKING removes the bookings as DELETE does and gives their credits back; refused (WasSuccessful false) for an invoiced one or a bad reason, nothing done', async () => {
      const at = nextDay();
      const who = await createCoworker(t, business, { FullName: 'Canceller' });
      const held = await create(t, CREDITS, { CoworkerId: who, CaneBeUsedForBookings: true, TotalCredit: 30 });
      const room = await resource({ Name: 'Cancel room', HourlyPrice: 10 });
      const first = await create(t, BOOKINGS, { CoworkerId: who, ResourceId: room, FromTime: at(9), ToTime: at(10) });
      const second = await create(t, BOOKINGS, { CoworkerId: who, ResourceId: room, FromTime: at(10), ToTime: at(11) });
      assert.equal((await read(CREDITS, held)).RemainingCredit, 10);
      const commands = (await t.get(`${BOOKINGS}/commands?id=${first}`)).body as any[];
      assert.deepEqual(
        commands.map((c) => c.Key),
        ['CANCEL_BOOKING'],
      );
      assert.deepEqual(
        commands[0].RequiresParameters.map((p: any) => p.Name),
        ['Cancellation Reason', 'Cancel without applying cancellation fee rules'],
      );
      const run = (ids: number[], parameters: unknown[]) =>
        t.post(`${BOOKINGS}/runcommand`, { Key: 'CANCEL_BOOKING', Ids: ids, Parameters: parameters });
      const badReason = await refused(t, TABLES, 200, () => run([first, second], [{ Name: 'Cancellation Reason', Value: '42' }]));
      assert.equal(badReason.body.WasSuccessful, false);
      const invoiced = await create(t, BOOKINGS, { CoworkerId: who, ResourceId: room, FromTime: at(12), ToTime: at(13) });
      await t.db.query(`UPDATE ${t.db.id('booking')} SET ${t.db.id('Invoiced')} = 1 WHERE ${t.db.id('Id')} = ?`, [invoiced]);
      const refusedRun = await refused(t, TABLES, 200, () => run([first, invoiced], []));
      assert.equal(refusedRun.body.WasSuccessful, false);
      assert.match(refusedRun.body.Message, /invoiced/);
      const done = await run(
        [first, second],
        [
          { Name: 'cancellation reason', Value: 1 },
          { Name: 'Cancel without applying cancellation fee rules', Value: 'true' },
        ],
      );
      assert.equal(done.status, 200);
      assertFields(done.body, { WasSuccessful: true, Message: 'The command was run correctly.' });
      for (const id of [first, second]) assert.equal((await t.get(`${BOOKINGS}/${id}`)).status, 404);
      assert.equal((await read(CREDITS, held)).RemainingCredit, 20, 'the invoiced booking keeps the 10 it spent');
      const reasons = (await t.get('/api/utils/enums?name=eBookingCancellationReason')).body as any[];
      assert.deepEqual(reasons[1], { Id: 1, Name: 'NoLongerNeeded' });
      assert.equal(reasons.length, 10);
    });

    it("a resource's TaxRateId must name a tax rate of its business (400 naming it)", async () => {
      const rate = await create(t, '/api/sys/taxrates', { BusinessId: business, Name: 'Standard', Rate: 20 });
      const foreign = await create(t, '/api/sys/taxrates', { BusinessId: otherBusiness, Name: 'Harbour VAT', Rate: 10 });
      assert.equal((await read(RESOURCES, await resource({ Name: 'Taxed', TaxRateId: rate }))).TaxRateId, rate);
      for (const bad of [foreign, 987654]) {
        assert.deepEqual(
          errorNames(
            (
              await refused(t, ['resource'], 400, () =>
                t.post(RESOURCES, { BusinessId: business, Name: 'X', ResourceTypeId: roomType, TaxRateId: bad }),
              )
            ).body,
          ),
          ['TaxRateId'],
        );
      }
      assert.equal((await t.delete(`/api/sys/taxrates/${rate}`)).status, 400, 'a rate a resource names stays');
    });

    it("events 6 BookingCreate, 7 BookingUpdate, 8 BookingDelete are queued for the business's hooks", async () => {
      const at = nextDay();
      const hooks: Record<number, number> = {};
      for (const action of [6, 7, 8])
        hooks[action] = await create(t, '/api/sys/webhooks', {
          BusinessId: business,
          Name: `Booking ${action}`,
          Action: action,
          URL: 'https://192.0.2.1/hook',
          Active: true,
        });
      const room = await resource({ Name: 'Hooked room' });
      const id = await create(t, BOOKINGS, { CoworkerId: customer, ResourceId: room, FromTime: at(9), ToTime: at(10) });
      assert.equal((await t.put(`${BOOKINGS}/${id}`, { Notes: 'Moved nothing' })).status, 200);
      assert.equal((await t.delete(`${BOOKINGS}/${id}`)).status, 200);
      for (const action of [6, 7, 8]) {
        const deliveries = (await t.get(`/api/sys/webhooks/${hooks[action]}/deliveries`)).body.Records as any[];
        assert.deepEqual(
          deliveries.map((d) => [d.Action, d.RecordId]),
          [[action, id]],
          String(action),
        );
      }
      for (const action of [6, 7, 8]) assert.equal((await t.delete(`/api/sys/webhooks/${hooks[action]}`)).status, 200);
    });
  });

  describe('billing (docs/api.md §9.2 item 5)', () => {
    it("a run bills each firm booking's ChargeAmount once: one line with the resource's tax rate and BookingUniqueId; the booking reads Invoiced and CoworkerInvoiceId and cannot move", async () => {
      const at = nextDay();
      const who = await createCoworker(t, business, { FullName: 'Billed booker' });
      await create(t, CREDITS, { CoworkerId: who, CaneBeUsedForBookings: true, TotalCredit: 4, ElegibleResourceTypes: [roomType] });
      const rate = await create(t, '/api/sys/taxrates', { BusinessId: business, Name: 'VAT 20', Rate: 20 });
      const room = await resource({ Name: 'Billed room', HourlyPrice: 10, TaxRateId: rate });
      const desk = await resource({ Name: 'Billed desk', ResourceTypeId: deskType, HourlyPrice: 3 });
      const charged = await create(t, BOOKINGS, { CoworkerId: who, ResourceId: room, FromTime: at(9), ToTime: at(10, 30) });
      const shortOne = await create(t, BOOKINGS, { CoworkerId: who, ResourceId: room, FromTime: at(11), ToTime: at(11, 6) });
      const tentative = await create(t, BOOKINGS, { CoworkerId: who, ResourceId: desk, FromTime: at(9), ToTime: at(10), Tentative: true });
      const later = await create(t, BOOKINGS, { CoworkerId: who, ResourceId: desk, FromTime: at(24 * 40), ToTime: at(24 * 40 + 1) });
      assertFields(await read(BOOKINGS, charged), { Price: 15, CreditUsed: 4, ChargeAmount: 11 });
      assertFields(await read(BOOKINGS, shortOne), { Price: 1, CreditUsed: 0, ChargeAmount: 1 });
      const until = at(12).slice(0, 10);
      const run = (preview: boolean) =>
        t.post('/api/spaces/coworkers/runcommand', {
          Key: 'COWORKER_BILL_RUN',
          Ids: [who],
          Parameters: [
            { Name: 'Until', Value: until },
            { Name: 'Preview', Value: preview },
          ],
        });
      const preview = await refused(t, TABLES, 200, () => run(true));
      assert.equal(preview.body.WasSuccessful, true, JSON.stringify(preview.body));
      const made = await run(false);
      assert.equal(made.body.WasSuccessful, true, JSON.stringify(made.body));
      assert.equal(made.body.Value.length, 1);
      const invoice = made.body.Value[0].Id;
      const lines = (await t.get(`/api/billing/coworkerinvoicelines?CoworkerInvoiceLine_CoworkerInvoice=${invoice}`)).body.Records as any[];
      const bookingLines = lines.filter((line) => line.BookingUniqueId !== null);
      const uniqueIds = new Map([
        [charged, (await read(BOOKINGS, charged)).UniqueId],
        [shortOne, (await read(BOOKINGS, shortOne)).UniqueId],
      ]);
      assert.deepEqual(
        bookingLines.map((line) => [
          line.BookingUniqueId,
          line.Quantity,
          line.UnitPrice,
          line.TaxRateId,
          line.TaxRate,
          line.TaxAmount,
          line.TotalAmount,
          line.PeriodFrom,
          line.PeriodTo,
        ]),
        [
          [uniqueIds.get(charged), 1, 11, rate, 20, 2.2, 13.2, `${until}T00:00:00Z`, `${until}T00:00:00Z`],
          [uniqueIds.get(shortOne), 1, 1, rate, 20, 0.2, 1.2, `${until}T00:00:00Z`, `${until}T00:00:00Z`],
        ],
      );
      assert.deepEqual(
        JSON.parse(
          JSON.stringify(preview.body.Value[0].Lines.filter((line: any) => line.BookingUniqueId).map((line: any) => line.TotalAmount)),
        ),
        [13.2, 1.2],
      );
      for (const id of [charged, shortOne]) assertFields(await read(BOOKINGS, id), { Invoiced: true, CoworkerInvoiceId: invoice });
      for (const id of [tentative, later]) assertFields(await read(BOOKINGS, id), { Invoiced: false, CoworkerInvoiceId: null });
      const again = await run(false);
      assert.deepEqual(again.body.Value, [], 'nothing left to bill');
      assert.match(
        (await refused(t, TABLES, 400, () => t.put(`${BOOKINGS}/${charged}`, { FromTime: at(13), ToTime: at(14) }))).body.Message,
        /invoiced/,
      );
      assert.match((await refused(t, TABLES, 400, () => t.delete(`${BOOKINGS}/${charged}`))).body.Message, /invoiced/);
    });

    it('deleting the invoice that billed a booking gives its charge back: the next run bills it again on a new invoice', async () => {
      const at = nextDay();
      const who = await createCoworker(t, business, { FullName: 'Re-billed booker' });
      const room = await resource({ Name: 'Re-billed room', HourlyPrice: 8 });
      const booking = await create(t, BOOKINGS, { CoworkerId: who, ResourceId: room, FromTime: at(9), ToTime: at(10) });
      const until = at(12).slice(0, 10);
      const bill = () =>
        t.post('/api/spaces/coworkers/runcommand', { Key: 'COWORKER_BILL_RUN', Ids: [who], Parameters: [{ Name: 'Until', Value: until }] });
      const first = (await bill()).body.Value[0];
      assertFields(await read(BOOKINGS, booking), { Invoiced: true, CoworkerInvoiceId: first.Id });
      const deleted = await t.post('/api/billing/coworkerinvoices/runcommand', { Key: 'COWORKER_INVOICE_DELETE', Ids: [first.Id] });
      assert.equal(deleted.body.WasSuccessful, true, JSON.stringify(deleted.body));
      assertFields(await read(BOOKINGS, booking), { Invoiced: false, CoworkerInvoiceId: null, ChargeAmount: 8 });
      const second = (await bill()).body.Value[0];
      assert.ok(second && second.Id !== first.Id && second.InvoiceNumber !== first.InvoiceNumber, JSON.stringify(second));
      assert.equal(second.TotalAmount, first.TotalAmount);
      assertFields(await read(BOOKINGS, booking), { Invoiced: true, CoworkerInvoiceId: second.Id });
    });

    it('a run racing moves: each booking is billed once, as it stands when billed, and never moved after', async () => {
      const at = nextDay();
      const who = await createCoworker(t, business, { FullName: 'Racing booker' });
      const ids: number[] = [];
      for (let i = 0; i < 10; i++)
        ids.push(
          await create(t, BOOKINGS, {
            CoworkerId: who,
            ResourceId: await resource({ Name: `Race room ${i}`, HourlyPrice: 10 }),
            FromTime: at(9),
            ToTime: at(10),
          }),
        );
      const answers = await Promise.all([
        t.post('/api/spaces/coworkers/runcommand', {
          Key: 'COWORKER_BILL_RUN',
          Ids: [who],
          Parameters: [{ Name: 'Until', Value: at(12).slice(0, 10) }],
        }),
        ...ids.map((id) => t.put(`${BOOKINGS}/${id}`, { ToTime: at(11) })),
      ]);
      noServerErrors(answers);
      assert.equal(answers[0].body.WasSuccessful, true, JSON.stringify(answers[0].body));
      for (const [i, answer] of answers.slice(1).entries()) {
        const booking = await read(BOOKINGS, ids[i]);
        const lines = (await t.get(`/api/billing/coworkerinvoicelines?CoworkerInvoiceLine_BookingUniqueId=${booking.UniqueId}`)).body
          .Records as any[];
        if (answer.status === 200) {
          // Moved before the run read it (then billed as moved) or after (then left for the next run).
          assertFields(booking, { ToTime: at(11), ChargeAmount: 20 });
          assert.deepEqual(
            lines.map((line) => line.UnitPrice),
            booking.Invoiced ? [20] : [],
          );
        } else {
          assert.match(answer.body.Message, /invoiced/);
          assertFields(booking, { ToTime: at(10), ChargeAmount: 10, Invoiced: true });
          assert.deepEqual(
            lines.map((line) => line.UnitPrice),
            [10],
          );
        }
      }
    });

    it('a booking whose credits paid it all (ChargeAmount 0) is never billed', async () => {
      const at = nextDay();
      const who = await createCoworker(t, business, { FullName: 'Fully covered' });
      await create(t, CREDITS, { CoworkerId: who, CaneBeUsedForBookings: true, TotalCredit: 100 });
      const id = await create(t, BOOKINGS, {
        CoworkerId: who,
        ResourceId: await resource({ Name: 'Covered room' }),
        FromTime: at(9),
        ToTime: at(10),
      });
      assertFields(await read(BOOKINGS, id), { ChargeAmount: 0 });
      const made = await t.post('/api/spaces/coworkers/runcommand', {
        Key: 'COWORKER_BILL_RUN',
        Ids: [who],
        Parameters: [{ Name: 'Until', Value: at(12).slice(0, 10) }],
      });
      assert.deepEqual(made.body.Value, []);
      assertFields(await read(BOOKINGS, id), { Invoiced: false });
    });
  });

  describe('use history and access', () => {
    it('list and get only: other methods 405', async () => {
      for (const [method, path] of [
        ['POST', USES],
        ['PUT', `${USES}/1`],
        ['DELETE', `${USES}/1`],
        ['PUT', USES],
      ] as const) {
        const res = await refused(t, TABLES, 405, () => t.request(method, path, { body: {} }));
        assert.equal(res.body.Status, 405, method);
        assert.equal(res.headers.get('allow'), 'GET');
      }
      assert.equal((await t.get(USES)).status, 200);
    });

    it('roles Booking-*, scoped by business: a restricted administrator books in its business only', async () => {
      const at = nextDay();
      const email = `booker.${Date.now()}@example.com`;
      await createUser(t, {
        Email: email,
        Roles: ['Booking-Create', 'Booking-Read', 'Booking-List'],
        Businesses: [business],
        FullName: 'Booker',
        IsAdmin: false,
      });
      const auth = basicAuth(email, 'correct horse battery');
      const mine = await resource({ Name: 'Scoped room' });
      const harbourType = await create(t, TYPES, { BusinessId: otherBusiness, Name: 'Harbour type' });
      const theirs = await create(t, RESOURCES, { BusinessId: otherBusiness, Name: 'Harbour room', ResourceTypeId: harbourType });
      const stranger = await createCoworker(t, otherBusiness, { FullName: 'Harbour booker' });
      const made = await book({ ResourceId: mine, FromTime: at(9), ToTime: at(10) }, { auth });
      assert.equal(made.status, 200, JSON.stringify(made.body));
      assert.equal(
        (await refused(t, TABLES, 401, () => book({ CoworkerId: stranger, ResourceId: theirs, FromTime: at(9), ToTime: at(10) }, { auth })))
          .status,
        401,
      );
      const foreign = await create(t, BOOKINGS, { CoworkerId: stranger, ResourceId: theirs, FromTime: at(9), ToTime: at(10) });
      assert.equal((await t.get(`${BOOKINGS}/${foreign}`, { auth })).status, 401);
      assert.equal((await t.delete(`${BOOKINGS}/${made.body.Value.Id}`, { auth })).status, 401, 'no Booking-Delete role');
      assert.equal((await t.post(RESOURCES, { BusinessId: business, Name: 'No role', ResourceTypeId: roomType }, { auth })).status, 401);
    });
  });
});

import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { createUser } from './support/auth.js';
import { createCoworkerInvoice, createProduct } from './support/billing-fixtures.js';
import { createAttendee, createEvent, createSurvey } from './support/content-fixtures.js';
import { countryId, create, createBusiness, createCoworker, createTariff, currencyId } from './support/fixtures.js';
import { appPerSuite, basicAuth, type TestApp } from './support/test-app.js';

/** A record type scoped by business, and how to make one record of it in a business. */
interface ScopedType {
  entity: string;
  path: string;
  make: (t: TestApp, business: number) => Promise<number>;
  /** Invoices offer no delete (docs/api.md §3): the route does not exist. */
  noDelete?: boolean;
}

const types: ScopedType[] = [
  { entity: 'Tariff', path: '/api/billing/tariffs', make: (t, b) => createTariff(t, b) },
  { entity: 'Coworker', path: '/api/spaces/coworkers', make: (t, b) => createCoworker(t, b) },
  { entity: 'Product', path: '/api/billing/products', make: (t, b) => createProduct(t, b) },
  {
    entity: 'ProductBookingCredit',
    path: '/api/billing/productbookingcredits',
    make: async (t, b) =>
      create(t, '/api/billing/productbookingcredits', { Name: 'Ten hours', ProductId: await createProduct(t, b), Credit: 10 }),
  },
  {
    entity: 'Invoice',
    path: '/api/billing/invoices',
    noDelete: true,
    make: async (t, b) =>
      create(t, '/api/billing/invoices', {
        BusinessId: b,
        BillToName: 'Operator Ltd',
        BillToAddress: '1 Road',
        BillToCity: 'Leeds',
        BillToPostCode: 'LS1',
        BillToCountryId: await countryId(t, 'GB'),
        CurrencyId: await currencyId(t, 'GBP'),
      }),
  },
  {
    entity: 'CoworkerInvoice',
    path: '/api/billing/coworkerinvoices',
    make: async (t, b) => createCoworkerInvoice(t, b, await createCoworker(t, b)),
  },
  {
    entity: 'CoworkerInvoicePaymentToken',
    path: '/api/billing/coworkerinvoicepaymenttokens',
    make: async (t, b) =>
      create(t, '/api/billing/coworkerinvoicepaymenttokens', {
        CoworkerInvoiceId: await createCoworkerInvoice(t, b, await createCoworker(t, b)),
        RegularPaymentProvider: 97,
      }),
  },
  { entity: 'Survey', path: '/api/content/surveys', make: (t, b) => createSurvey(t, b) },
  {
    entity: 'SurveyRun',
    path: '/api/content/surveyruns',
    make: async (t, b) =>
      create(t, '/api/content/surveyruns', { SurveyId: await createSurvey(t, b), CoworkerId: await createCoworker(t, b) }),
  },
  { entity: 'CalendarEvent', path: '/api/content/calendarevents', make: (t, b) => createEvent(t, b) },
  { entity: 'EventAttendee', path: '/api/content/eventattendees', make: async (t, b) => createAttendee(t, await createEvent(t, b)) },
  {
    entity: 'EventWaitingAttendee',
    path: '/api/content/eventwaitingattendees',
    make: async (t, b) =>
      create(t, '/api/content/eventwaitingattendees', {
        BusinessId: b,
        CalendarEventId: await createEvent(t, b),
        FullName: 'Waiting',
        Email: 'waiting@example.com',
      }),
  },
];

describe("a restricted administrator's view of every business-scoped record type", () => {
  const t = appPerSuite();
  let auth: string;
  const made = new Map<string, { mine: number; theirs: number }>();

  before(async () => {
    const mine = await createBusiness(t, { Name: 'Mine' });
    const theirs = await createBusiness(t, { Name: 'Theirs' });
    for (const type of types) made.set(type.entity, { mine: await type.make(t, mine), theirs: await type.make(t, theirs) });
    const roles = types.flatMap((type) => ['List', 'Read', 'Edit', 'Delete'].map((action) => `${type.entity}-${action}`));
    await createUser(t, { Email: 'restricted@example.com', Password: 'restricted password', Businesses: [mine], Roles: roles });
    auth = basicAuth('restricted@example.com', 'restricted password');
  });

  for (const type of types) {
    describe(type.entity, () => {
      it('lists only records of its businesses, with a matching count', async () => {
        const { mine, theirs } = made.get(type.entity)!;
        const res = await t.get(`${type.path}?size=1000`, { auth });
        assert.equal(res.status, 200);
        const ids = res.body.Records.map((r: any) => r.Id);
        assert.ok(ids.includes(mine), `${type.entity}: its own record is listed`);
        assert.ok(!ids.includes(theirs), `${type.entity}: another business's record is not`);
        assert.equal(res.body.TotalItems, ids.length);
        const batch = await t.get(`${type.path}?id=[${mine},${theirs}]`, { auth });
        assert.deepEqual(
          batch.body.map((r: any) => r.Id),
          [mine],
        );
      });

      it("reads its own record; another business's record is 401, and so are changing and deleting it", async () => {
        const { mine, theirs } = made.get(type.entity)!;
        assert.equal((await t.get(`${type.path}/${mine}`, { auth })).status, 200);
        assert.equal((await t.get(`${type.path}/${theirs}`, { auth })).status, 401);
        const stored = (await t.get(`${type.path}/${theirs}`)).body;
        assert.equal((await t.put(`${type.path}/${theirs}`, stored, { auth })).status, 401);
        assert.equal((await t.delete(`${type.path}/${theirs}`, { auth })).status, type.noDelete ? 404 : 401);
        assert.deepEqual((await t.get(`${type.path}/${theirs}`)).body, stored);
      });
    });
  }
});

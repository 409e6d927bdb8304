import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { createUser } from './support/auth.js';
import { createProduct } from './support/billing-fixtures.js';
import { create, createBusinesses, createCoworker, createTariff } from './support/fixtures.js';
import {
  assertFields,
  createAndReadBack,
  errorNames,
  putBackChangesNothing,
  refused,
  unknownIdIsNotFound,
} from './support/record-checks.js';
import { appPerSuite, basicAuth } from './support/test-app.js';

const PATH = '/api/billing/coworkerbookingcredits';
const APPLICABLE = `${PATH}/applicable`;
const TABLES = ['coworkerbookingcredit'];
const PASSWORD = 'correct horse battery';
const DENIED = { Message: 'Authorization has been denied for this request.' };

describe('customer booking credits (CoworkerBookingCredit)', () => {
  const t = appPerSuite();
  let business: number;
  let otherBusiness: number;
  let customer: number;
  let harbourCustomer: number;
  let product: number;
  let tariff: number;

  before(async () => {
    [business, otherBusiness] = await createBusinesses(t, 'Canal Works', 'Harbour Hub');
    customer = await createCoworker(t, business, { FullName: 'Ada Lovelace' });
    harbourCustomer = await createCoworker(t, otherBusiness, { FullName: 'Harbour customer' });
    product = await createProduct(t, business, { Name: 'Day pass' });
    tariff = await createTariff(t, business);
  });

  const everyField = () => ({
    CoworkerId: customer,
    BusinessId: business,
    Description: 'Welcome credit',
    TotalCredit: 12.5,
    RemainingCredit: 10.25,
    ValidFrom: '2025-01-01T00:00:00Z',
    ExpireDate: '2099-12-31T23:59:59Z',
    ElegibleResourceTypes: [3, 7],
    ElegibleProducts: [product],
    ElegibleTariffs: [tariff],
    CaneBeUsedForBookings: true,
    CaneBeUsedForEvents: true,
    EventCategories: [5],
    IsUniversalCredit: true,
    ElegiblePasses: [8, 9],
    AppliesToCharges: true,
    CoworkerProductUniqueId: '00000000-0000-4000-8000-000000000000',
    SystemId: 'credit-1',
  });

  describe('records', () => {
    it('creates with every field and reads each back, with CoworkerFullName', async () => {
      const input = everyField();
      const read = await createAndReadBack(t, PATH, 'CoworkerBookingCredit', input);
      assertFields(read, { CoworkerFullName: 'Ada Lovelace', ToStringText: 'Welcome credit' });
    });

    it("defaults: the customer's business, RemainingCredit = TotalCredit, empty lists, false flags, no dates", async () => {
      const read = (await t.get(`${PATH}/${await create(t, PATH, { CoworkerId: customer, TotalCredit: 4 })}`)).body;
      assert.equal(read.BusinessId, business);
      assert.equal(read.TotalCredit, 4);
      assert.equal(read.RemainingCredit, 4);
      for (const list of ['ElegibleResourceTypes', 'ElegibleProducts', 'ElegibleTariffs', 'EventCategories', 'ElegiblePasses'])
        assert.deepEqual(read[list], [], list);
      for (const flag of ['CaneBeUsedForBookings', 'CaneBeUsedForEvents', 'IsUniversalCredit', 'AppliesToCharges'])
        assert.equal(read[flag], false, flag);
      for (const field of ['Description', 'ValidFrom', 'ExpireDate', 'CoworkerProductUniqueId']) assert.equal(read[field], null, field);
      assert.equal(read.ToStringText, `Booking credit ${read.Id}`);
      const empty = (await t.get(`${PATH}/${await create(t, PATH, { CoworkerId: customer })}`)).body;
      assert.deepEqual([empty.TotalCredit, empty.RemainingCredit], [0, 0]);
    });

    it('refusals name the field and write nothing', async () => {
      assert.deepEqual(errorNames((await refused(t, TABLES, 400, () => t.post(PATH, { TotalCredit: 1 }))).body), ['CoworkerId']);
      const missing = await refused(t, TABLES, 400, () =>
        t.post(PATH, { CoworkerId: 990001, BusinessId: 990002, ElegibleProducts: [990003], ElegibleTariffs: [990004] }),
      );
      assert.deepEqual(errorNames(missing.body), ['BusinessId', 'CoworkerId', 'ElegibleProducts', 'ElegibleTariffs']);
      const wrongBusiness = await refused(t, TABLES, 400, () => t.post(PATH, { CoworkerId: customer, BusinessId: otherBusiness }));
      assert.equal(wrongBusiness.body.Message, `BusinessId: Coworker ${customer} is not a customer of Business ${otherBusiness}.`);
      const bad = await refused(t, TABLES, 400, () =>
        t.post(PATH, {
          CoworkerId: customer,
          TotalCredit: -1,
          RemainingCredit: 'x',
          ExpireDate: 'soon',
          ElegiblePasses: [0],
          CoworkerProductUniqueId: 'x'.repeat(37),
        }),
      );
      assert.deepEqual(errorNames(bad.body), ['CoworkerProductUniqueId', 'ElegiblePasses', 'ExpireDate', 'RemainingCredit', 'TotalCredit']);
    });

    it('update: absent keeps, null clears (amounts to 0); a GET body PUT back changes nothing; delete, then 404', async () => {
      const id = await create(t, PATH, everyField());
      await putBackChangesNothing(t, PATH, id, { CoworkerFullName: 'ignored' });
      const res = await t.put(`${PATH}/${id}`, {
        CoworkerId: customer,
        RemainingCredit: null,
        ExpireDate: null,
        ElegiblePasses: [],
        BusinessId: null,
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const read = (await t.get(`${PATH}/${id}`)).body;
      assert.deepEqual(
        [read.RemainingCredit, read.ExpireDate, read.ElegiblePasses, read.BusinessId, read.TotalCredit, read.Description],
        [0, null, [], business, 12.5, 'Welcome credit'],
      );
      await refused(t, TABLES, 400, () => t.put(`${PATH}/${id}`, { CoworkerId: harbourCustomer }));
      assert.equal((await t.delete(`${PATH}/${id}`)).body.Message, 'CoworkerBookingCredit was successfully deleted.');
      await unknownIdIsNotFound(t, PATH, TABLES, { CoworkerId: customer }, { id });
    });

    it('restricted administrators work in their businesses only', async () => {
      const address = `credits.${Date.now()}@example.com`;
      await createUser(t, {
        Email: address,
        Password: PASSWORD,
        Businesses: [business],
        Roles: ['CoworkerBookingCredit-List', 'CoworkerBookingCredit-Read', 'CoworkerBookingCredit-Create'],
      });
      const auth = basicAuth(address, PASSWORD);
      const foreign = await create(t, PATH, { CoworkerId: harbourCustomer, TotalCredit: 1 });
      assert.deepEqual((await refused(t, TABLES, 401, () => t.post(PATH, { CoworkerId: harbourCustomer }, { auth }))).body, DENIED);
      await refused(t, TABLES, 401, () => t.post(PATH, { CoworkerId: customer, BusinessId: otherBusiness }, { auth }));
      assert.equal((await t.get(`${PATH}/${foreign}`, { auth })).status, 401);
      const own = await t.post(PATH, { CoworkerId: customer, TotalCredit: 2 }, { auth });
      assert.equal(own.status, 200, JSON.stringify(own.body));
      assert.equal((await t.get(`${PATH}/${own.body.Value.Id}`, { auth })).body.BusinessId, business);
      const listed = (await t.get(`${PATH}?size=1000`, { auth })).body.Records as any[];
      assert.ok(listed.length > 0 && listed.every((c) => c.BusinessId === business));
    });
  });

  describe('applicable credits', () => {
    let payer: number;
    const ids: Record<string, number> = {};
    const applicable = async (query: string, auth?: string) => {
      const res = await t.get(`${APPLICABLE}?coworkerId=${payer}&${query}`, auth ? { auth } : undefined);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body;
    };
    const named = async (query: string) => (await applicable(query)).Records.map((c: any) => c.Description);

    before(async () => {
      payer = await createCoworker(t, business, { FullName: 'Paying customer' });
      const other = await createCoworker(t, business, { FullName: 'Someone else' });
      const credits: Array<[string, Record<string, unknown>]> = [
        ['bookings, every type', { CaneBeUsedForBookings: true }],
        ['bookings, type 4', { CaneBeUsedForBookings: true, ElegibleResourceTypes: [4, 6] }],
        ['events, every category', { CaneBeUsedForEvents: true }],
        ['events, category 2', { CaneBeUsedForEvents: true, EventCategories: [2] }],
        ['universal', { IsUniversalCredit: true }],
        ['universal, product', { IsUniversalCredit: true, ElegibleProducts: [product] }],
        ['universal, pass 31', { IsUniversalCredit: true, ElegiblePasses: [31] }],
        ['universal, charges', { IsUniversalCredit: true, AppliesToCharges: true }],
        [
          'listed but not universal',
          { ElegibleProducts: [product], ElegiblePasses: [31], AppliesToCharges: true, ElegibleResourceTypes: [4], EventCategories: [2] },
        ],
        ['expires later', { CaneBeUsedForBookings: true, ExpireDate: '2099-01-01T00:00:00Z' }],
        [
          'expired',
          { CaneBeUsedForBookings: true, CaneBeUsedForEvents: true, IsUniversalCredit: true, ExpireDate: '2020-01-01T00:00:00Z' },
        ],
        [
          'used up',
          { CaneBeUsedForBookings: true, CaneBeUsedForEvents: true, IsUniversalCredit: true, TotalCredit: 5, RemainingCredit: 0 },
        ],
      ];
      for (const [description, fields] of credits)
        ids[description] = await create(t, PATH, { CoworkerId: payer, TotalCredit: 5, Description: description, ...fields });
      await create(t, PATH, {
        CoworkerId: other,
        TotalCredit: 5,
        Description: 'not theirs',
        CaneBeUsedForBookings: true,
        CaneBeUsedForEvents: true,
        IsUniversalCredit: true,
      });
    });

    it('resource types: credits usable for bookings, for every type or listing it (rule 2)', async () => {
      assert.deepEqual(await named('resourceTypeId=4'), ['bookings, every type', 'bookings, type 4', 'expires later']);
      assert.deepEqual(await named('resourceTypeId=5'), ['bookings, every type', 'expires later']);
    });

    it('event categories: credits usable for events, for every category or listing it (rule 3)', async () => {
      assert.deepEqual(await named('eventCategoryId=2'), ['events, every category', 'events, category 2']);
      assert.deepEqual(await named('eventCategoryId=3'), ['events, every category']);
    });

    it('products, passes and charges: universal credits, unrestricted (rule 1) or listing it', async () => {
      assert.deepEqual(await named(`productId=${product}`), ['universal', 'universal, product']);
      assert.deepEqual(await named('productId=999'), ['universal']);
      assert.deepEqual(await named('passId=31'), ['universal', 'universal, pass 31']);
      assert.deepEqual(await named('passId=32'), ['universal']);
      assert.deepEqual(await named('charge=true'), ['universal', 'universal, charges']);
    });

    it('answers the list envelope: paging, order and filters as any list', async () => {
      const page = await applicable('resourceTypeId=4&size=2&page=2');
      assert.deepEqual(
        page.Records.map((c: any) => c.Id),
        [ids['expires later']],
      );
      assert.deepEqual(
        { ...page, Records: undefined },
        {
          Records: undefined,
          CurrentPageSize: 2,
          CurrentPage: 2,
          CurrentOrderField: 'Id',
          CurrentSortDirection: 1,
          FirstItem: 3,
          HasNextPage: false,
          HasPreviousPage: true,
          LastItem: 3,
          PageNumber: 2,
          PageSize: 2,
          TotalItems: 3,
          TotalPages: 2,
        },
      );
      const record = page.Records[0];
      assert.deepEqual(record, (await t.get(`${PATH}/${record.Id}`)).body, 'records read as GET reads them');
      assert.deepEqual(await named('resourceTypeId=4&orderBy=Id&dir=desc'), ['expires later', 'bookings, type 4', 'bookings, every type']);
      assert.deepEqual(await named('resourceTypeId=4&CoworkerBookingCredit_Description=type'), [
        'bookings, every type',
        'bookings, type 4',
      ]);
      assert.deepEqual(await named('ResourceTypeID=4&COWORKERID=' + payer + '&size=1'), ['bookings, every type']);
      assert.equal((await t.get(`${APPLICABLE}?coworkerId=${payer}&charge=true&orderBy=Nope`)).status, 400);
    });

    it('credits released by a sale apply at once; a spent credit stops applying', async () => {
      const buyer = await createCoworker(t, business, { FullName: 'Buyer' });
      const bundle = await createProduct(t, business, { Name: 'Room hours' });
      await create(t, '/api/billing/productbookingcredits', {
        Name: 'Room hours',
        ProductId: bundle,
        Credit: 2,
        CaneBeUsedForBookings: true,
        ExpirationType: 2,
        ExpiresIn: 30,
      });
      await create(t, '/api/billing/coworkerproducts', { CoworkerId: buyer, ProductId: bundle, Quantity: 2 });
      const found = (await t.get(`${APPLICABLE}?coworkerId=${buyer}&resourceTypeId=1`)).body.Records;
      assert.deepEqual(
        found.map((c: any) => [c.Description, c.RemainingCredit]),
        [['Room hours', 4]],
      );
      assert.equal((await t.put(PATH, { ...found[0], RemainingCredit: 0 })).status, 200);
      assert.equal((await t.get(`${APPLICABLE}?coworkerId=${buyer}&resourceTypeId=1`)).body.TotalItems, 0);
    });

    it('400 naming the parameter: coworkerId missing or malformed, no use or more than one, a malformed use', async () => {
      const names = async (query: string) => {
        const res = await t.get(`${APPLICABLE}${query}`);
        assert.equal(res.status, 400, `${query}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.WasSuccessful, false);
        return errorNames(res.body);
      };
      assert.deepEqual(await names(''), ['coworkerId']);
      assert.deepEqual(await names('?resourceTypeId=1'), ['coworkerId']);
      assert.deepEqual(await names('?coworkerId=abc&resourceTypeId=1'), ['coworkerId']);
      assert.deepEqual(await names(`?coworkerId=${payer}`), ['resourceTypeId|eventCategoryId|productId|passId|charge']);
      assert.deepEqual(await names(`?coworkerId=${payer}&resourceTypeId=1&passId=2`), ['passId']);
      assert.deepEqual(await names(`?coworkerId=${payer}&productId=0`), ['productId']);
      assert.deepEqual(await names(`?coworkerId=${payer}&charge=maybe`), ['charge']);
      const res = await t.get(`${APPLICABLE}?coworkerId=${payer}`);
      assert.equal(
        res.body.Message,
        'resourceTypeId|eventCategoryId|productId|passId|charge: One of resourceTypeId, eventCategoryId, productId, passId or charge=true is required: what the credits should pay for.',
      );
    });

    it('an unknown customer: 404 "Not found"', async () => {
      const res = await t.get(`${APPLICABLE}?coworkerId=987654&charge=true`);
      assert.equal(res.status, 404);
      assert.equal(res.body, 'Not found');
    });

    it('the static route wins over the record route; a trailing slash is accepted; GET by id still works', async () => {
      assert.equal((await t.get(`${APPLICABLE}/?coworkerId=${payer}&charge=true`)).body.TotalItems, 2);
      assert.equal((await t.get(`${PATH}/${ids.universal}`)).body.Description, 'universal');
      assert.equal((await t.get(`${PATH}/applicabl`)).status, 404);
    });

    it("needs CoworkerBookingCredit-List; a restricted administrator asks only about its businesses' customers", async () => {
      const address = `applicable.${Date.now()}@example.com`;
      await createUser(t, { Email: address, Password: PASSWORD, Roles: ['CoworkerBookingCredit-Read'] });
      assert.deepEqual((await t.get(`${APPLICABLE}?coworkerId=${payer}&charge=true`, { auth: basicAuth(address, PASSWORD) })).body, DENIED);
      assert.equal((await t.get(`${APPLICABLE}?coworkerId=${payer}&charge=true`, { auth: null })).status, 401);

      const harbourAdmin = `harbour.${Date.now()}@example.com`;
      await createUser(t, { Email: harbourAdmin, Password: PASSWORD, Businesses: [otherBusiness], Roles: ['coworkerbookingcredit-list'] });
      const auth = basicAuth(harbourAdmin, PASSWORD);
      const res = await t.get(`${APPLICABLE}?coworkerId=${payer}&charge=true`, { auth });
      assert.equal(res.status, 401);
      assert.deepEqual(res.body, DENIED);
      await create(t, PATH, { CoworkerId: harbourCustomer, TotalCredit: 3, Description: 'harbour', IsUniversalCredit: true });
      const own = await t.get(`${APPLICABLE}?coworkerId=${harbourCustomer}&charge=true`, { auth });
      assert.deepEqual(
        own.body.Records.map((c: any) => c.Description),
        ['harbour'],
      );
    });
  });
});

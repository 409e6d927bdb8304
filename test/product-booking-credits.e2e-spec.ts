import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { createProduct } from './support/billing-fixtures.js';
import { create, createBusiness, createTariff, currencyId } from './support/fixtures.js';
import {
  assertFields,
  createAndReadBack,
  deletesThenNotFound,
  eachRequiredFieldIsNamed,
  errorNames,
  putBackChangesNothing,
  refused,
} from './support/record-checks.js';
import { appPerSuite } from './support/test-app.js';

const PATH = '/api/billing/productbookingcredits';
const TABLES = ['productbookingcredit'];

describe('product booking credits', () => {
  const t = appPerSuite();
  let business: number;
  let product: number;
  let otherProduct: number;
  let tariff: number;

  before(async () => {
    business = await createBusiness(t, { Name: 'Canal Works', CurrencyId: await currencyId(t, 'EUR') });
    product = await createProduct(t, business, { Name: 'Ten hours bundle', SystemProductType: 2 });
    otherProduct = await createProduct(t, business, { Name: 'Coffee' });
    tariff = await createTariff(t, business);
  });

  const minimal = (overrides: Record<string, unknown> = {}) => ({ Name: '10 hours', ProductId: product, Credit: 10, ...overrides });

  const everyField = () => ({
    Name: 'Ten room hours',
    ProductId: product,
    Credit: 10.5,
    ElegibleResourceTypes: [3, 17, 4],
    ElegibleProducts: [otherProduct, product],
    ElegibleTariffs: [tariff],
    ExpireTimeInMonths: 2,
    ExpireTimeInWeeks: 9,
    CaneBeUsedForBookings: true,
    CaneBeUsedForEvents: true,
    EventCategories: [8, 2],
    ExpirationType: 4,
    ExpiresIn: 3,
    IsUniversalCredit: true,
    ElegiblePasses: [41, 42],
    AppliesToCharges: true,
    SystemId: 'credit-9',
  });

  it('creates with every field and reads each back equal: id lists round-trip, product name and currency resolved', async () => {
    const read = await createAndReadBack(t, PATH, 'ProductBookingCredit', everyField());
    assertFields(read, { ProductName: 'Ten hours bundle', ProductBusinessCurrencyCode: 'EUR', ToStringText: 'Ten room hours' });
  });

  it('optional fields default to empty lists, false and null', async () => {
    const read = (await t.get(`${PATH}/${await create(t, PATH, minimal())}`)).body;
    for (const list of ['ElegibleResourceTypes', 'ElegibleProducts', 'ElegibleTariffs', 'EventCategories', 'ElegiblePasses'])
      assert.deepEqual(read[list], [], list);
    for (const flag of ['CaneBeUsedForBookings', 'CaneBeUsedForEvents', 'IsUniversalCredit', 'AppliesToCharges'])
      assert.equal(read[flag], false, flag);
    for (const field of ['ExpireTimeInMonths', 'ExpireTimeInWeeks', 'ExpirationType', 'ExpiresIn']) assert.equal(read[field], null, field);
  });

  it("ProductBusinessCurrencyCode follows the currency of the product's business", async () => {
    const pounds = await createBusiness(t, { Name: 'Pounds' });
    const id = await create(t, PATH, minimal({ ProductId: await createProduct(t, pounds) }));
    assert.equal((await t.get(`${PATH}/${id}`)).body.ProductBusinessCurrencyCode, 'GBP');
  });

  describe('refusals change nothing', () => {
    it('required fields missing: 400 naming each, together and one by one, on create and update', async () => {
      const all = await refused(t, TABLES, 400, () => t.post(PATH, { ElegiblePasses: [1] }));
      assert.deepEqual(errorNames(all.body), ['Credit', 'Name', 'ProductId']);
      const id = await create(t, PATH, minimal());
      const required = ['Name', 'ProductId', 'Credit'];
      await eachRequiredFieldIsNamed(t, TABLES, required, minimal, (body) => t.post(PATH, body));
      await eachRequiredFieldIsNamed(t, TABLES, required, minimal, (body) => t.put(PATH, { ...body, Id: id }));
    });

    it('ExpirationType: 0 to 6 accepted, anything else 400', async () => {
      for (const value of [0, 1, 2, 3, 4, 5, 6]) {
        const id = await create(t, PATH, minimal({ ExpirationType: value }));
        assert.equal((await t.get(`${PATH}/${id}`)).body.ExpirationType, value);
      }
      for (const value of [7, -1, 99, '4', 2.5]) {
        const res = await refused(t, TABLES, 400, () => t.post(PATH, minimal({ ExpirationType: value })));
        assert.deepEqual(errorNames(res.body), ['ExpirationType'], String(value));
      }
    });

    it('ids that point at nothing: 400 naming ProductId, ElegibleProducts, ElegibleTariffs', async () => {
      const res = await refused(t, TABLES, 400, () =>
        t.post(PATH, minimal({ ProductId: 99001, ElegibleProducts: [product, 99002], ElegibleTariffs: [99003] })),
      );
      assert.deepEqual(errorNames(res.body), ['ElegibleProducts', 'ElegibleTariffs', 'ProductId']);
      assert.equal(res.body.Errors.find((e: any) => e.PropertyName === 'ElegibleProducts').Message, 'Product 99002 does not exist');
    });

    it('ids of types held elsewhere are not looked up, but must be positive integers', async () => {
      const id = await create(t, PATH, minimal({ ElegibleResourceTypes: [123456], EventCategories: [654321], ElegiblePasses: [777] }));
      assert.deepEqual((await t.get(`${PATH}/${id}`)).body.ElegiblePasses, [777]);
      const res = await refused(t, TABLES, 400, () =>
        t.post(PATH, minimal({ ElegibleResourceTypes: [0], EventCategories: ['x'], ElegiblePasses: 5, Credit: -1 })),
      );
      assert.deepEqual(errorNames(res.body), ['Credit', 'ElegiblePasses', 'ElegibleResourceTypes', 'EventCategories']);
    });
  });

  describe('update and delete', () => {
    it('absent optional fields keep their value, explicit nulls clear them', async () => {
      const id = await create(t, PATH, everyField());
      const res = await t.put(PATH, {
        ...minimal({ Id: id, Name: 'Renamed', Credit: 12 }),
        ElegibleProducts: null,
        EventCategories: [],
        ExpirationType: null,
        CaneBeUsedForEvents: null,
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const read = (await t.get(`${PATH}/${id}`)).body;
      assert.equal(read.Name, 'Renamed');
      assert.equal(read.Credit, 12);
      assert.deepEqual(read.ElegibleProducts, []);
      assert.deepEqual(read.EventCategories, []);
      assert.equal(read.ExpirationType, null);
      assert.equal(read.CaneBeUsedForEvents, false);
      const original = everyField();
      for (const field of [
        'ElegibleResourceTypes',
        'ElegibleTariffs',
        'ElegiblePasses',
        'ExpireTimeInMonths',
        'ExpiresIn',
        'IsUniversalCredit',
        'AppliesToCharges',
        'SystemId',
      ]) {
        assert.deepEqual(read[field], original[field as keyof typeof original], field);
      }
    });

    it('a GET body PUT back unchanged changes nothing', async () => {
      const id = await create(t, PATH, everyField());
      await putBackChangesNothing(t, PATH, id);
    });

    it("filters by product, lists the product's credits", async () => {
      const bundle = await createProduct(t, business, { Name: 'Filter bundle' });
      const a = await create(t, PATH, minimal({ ProductId: bundle, Name: 'Rooms' }));
      const b = await create(t, PATH, minimal({ ProductId: bundle, Name: 'Desks', CaneBeUsedForBookings: true }));
      assert.deepEqual(
        (await t.get(`${PATH}?ProductBookingCredit_Product=${bundle}`)).body.Records.map((c: any) => c.Id),
        [a, b],
      );
      assert.deepEqual(
        (await t.get(`${PATH}?ProductBookingCredit_Product=${bundle}&ProductBookingCredit_CaneBeUsedForBookings=true`)).body.Records.map(
          (c: any) => c.Id,
        ),
        [b],
      );
      assert.deepEqual(
        (await t.get(`${PATH}?productbookingcredit_productname=filter bundle&orderBy=Name`)).body.Records.map((c: any) => c.Id),
        [b, a],
      );
    });

    it('deletes; unknown ids answer 404 "Not found"', async () => {
      const id = await create(t, PATH, minimal());
      await deletesThenNotFound(t, PATH, 'ProductBookingCredit', id, TABLES, minimal());
    });
  });
});

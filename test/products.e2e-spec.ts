import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { ProductsService } from '../src/billing/products/products.service.js';
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
  tableRows,
  unknownIdIsNotFound,
} from './support/record-checks.js';
import { appPerSuite } from './support/test-app.js';

const PATH = '/api/billing/products';
const REQUIRED = ['AvailableAs', 'BusinessId', 'CurrencyId', 'Description', 'DisplayOrder', 'Name', 'Price', 'SystemProductType'];

describe('products', () => {
  const t = appPerSuite();
  let business: number;
  let otherBusiness: number;
  let gbp: number;
  let eur: number;
  let tariffs: number[];
  let taxRates: number[];

  before(async () => {
    gbp = await currencyId(t, 'GBP');
    eur = await currencyId(t, 'EUR');
    business = await createBusiness(t, { Name: 'Canal Works' });
    otherBusiness = await createBusiness(t, { Name: 'Harbour Hub', CurrencyId: eur });
    tariffs = [
      await createTariff(t, business, { Name: 'Hot desk' }),
      await createTariff(t, business, { Name: 'Resident' }),
      await createTariff(t, business, { Name: 'Team' }),
    ];
    // Tax rate ids name tax rates of the product's business (docs/billing.md).
    taxRates = [];
    for (const [Name, Rate] of [
      ['Standard', 20],
      ['Reduced', 5],
      ['Exempt', 0],
    ] as const)
      taxRates.push(await create(t, '/api/sys/taxrates', { BusinessId: business, Name, Rate }));
  });

  const minimal = (overrides: Record<string, unknown> = {}) => ({
    BusinessId: business,
    Name: 'Coffee',
    SystemProductType: 3,
    Description: 'A cup',
    DisplayOrder: 0,
    Price: 2.5,
    CurrencyId: gbp,
    AvailableAs: 3,
    ...overrides,
  });

  const everyField = () => ({
    BusinessId: business,
    Name: 'Meeting room pack',
    SystemProductType: 2,
    Description: 'Ten hours of meeting rooms.\n'.repeat(20),
    DisplayOrder: 7,
    Price: 149.9925,
    CurrencyId: gbp,
    AvailableAs: 1,
    InvoiceLineDisplayAs: 'Meeting hours (10)',
    Sku: 'MR-10',
    Tags: 'rooms,bundle',
    Visible: false,
    VisibleInKiosk: true,
    AvailableToAi: true,
    NotesForAi: 'Recommend to teams of four or more. '.repeat(100),
    ShowPriceForAi: true,
    PriceForAi: 139.5,
    SyncToSquare: true,
    SyncToNexKiosk: true,
    TaxRateId: taxRates[0],
    ReducedTaxRateId: taxRates[1],
    ExemptTaxRateId: taxRates[2],
    FinancialAccountId: 14,
    OnlyForContacts: false,
    OnlyForMembers: true,
    Tariffs: [tariffs[2], tariffs[0]],
    Archived: true,
    Starred: true,
    TrackStock: true,
    AllowNegativeStock: true,
    StockAlertLevel: 5,
    CurrentStock: 40,
    ApplyProRating: true,
    NewImageUrl: 'https://cdn.example/images/meeting%20pack.png?v=3',
    ClearImageFile: false,
    InvoiceCoworker: true,
    CreateDeliveryWhenPurchased: true,
    SystemId: 'pos-771',
  });

  describe('create and read', () => {
    it('creates with every field and reads each back equal, with the read-only fields', async () => {
      const { Tariffs, ...input } = everyField();
      const read = await createAndReadBack(t, PATH, 'Product', input, { Tariffs });
      assert.deepEqual(read.Tariffs, [tariffs[0], tariffs[2]], 'Tariffs read back as a sorted id list');
      assertFields(read, {
        BusinessName: 'Canal Works',
        CurrencyCode: 'GBP',
        ImageFileName: 'meeting pack.png',
        LowStock: false,
        ToStringText: 'Meeting room pack',
      });
      const [listed] = (await t.get(`${PATH}?id=[${read.Id}]`)).body;
      assert.deepEqual(listed, read, 'batch get reads the same record');
    });

    it('defaults: Visible true, other booleans false, CurrentStock 0, no tariffs, optional fields null', async () => {
      const id = await create(t, PATH, minimal());
      const read = (await t.get(`${PATH}/${id}`)).body;
      assert.equal(read.Visible, true);
      assert.equal(read.DisplayOrder, 0);
      for (const flag of [
        'VisibleInKiosk',
        'AvailableToAi',
        'ShowPriceForAi',
        'SyncToSquare',
        'SyncToNexKiosk',
        'OnlyForContacts',
        'OnlyForMembers',
        'Archived',
        'Starred',
        'TrackStock',
        'AllowNegativeStock',
        'ApplyProRating',
        'ClearImageFile',
        'InvoiceCoworker',
        'CreateDeliveryWhenPurchased',
      ]) {
        assert.equal(read[flag], false, flag);
      }
      assert.equal(read.CurrentStock, 0);
      assert.deepEqual(read.Tariffs, []);
      for (const field of [
        'InvoiceLineDisplayAs',
        'Sku',
        'Tags',
        'NotesForAi',
        'PriceForAi',
        'TaxRateId',
        'StockAlertLevel',
        'NewImageUrl',
        'ImageFileName',
        'SystemId',
      ]) {
        assert.equal(read[field], null, field);
      }
    });

    it('LowStock reads true when CurrentStock is at or below StockAlertLevel, and filters', async () => {
      const low = await createProduct(t, otherBusiness, { Name: 'Low', StockAlertLevel: 3, CurrentStock: 3 });
      const fine = await createProduct(t, otherBusiness, { Name: 'Fine', StockAlertLevel: 3, CurrentStock: 4 });
      const noAlert = await createProduct(t, otherBusiness, { Name: 'No alert', CurrentStock: -2 });
      assert.equal((await t.get(`${PATH}/${low}`)).body.LowStock, true);
      assert.equal((await t.get(`${PATH}/${fine}`)).body.LowStock, false);
      assert.equal((await t.get(`${PATH}/${noAlert}`)).body.LowStock, false);
      const lows = await t.get(`${PATH}?Product_Business=${otherBusiness}&Product_LowStock=true`);
      assert.deepEqual(
        lows.body.Records.map((p: any) => p.Id),
        [low],
      );
    });

    it('ImageFileName follows NewImageUrl, and ClearImageFile hides it', async () => {
      const id = await create(t, PATH, minimal({ NewImageUrl: 'https://cdn.example/a/desk.jpg' }));
      assert.equal((await t.get(`${PATH}/${id}`)).body.ImageFileName, 'desk.jpg');
      await t.put(PATH, minimal({ Id: id, ClearImageFile: true }));
      assert.equal((await t.get(`${PATH}/${id}`)).body.ImageFileName, null);
    });
  });

  describe('refusals change nothing', () => {
    const tables = ['product', 'product_tariff'];

    it('every required field missing: 400 naming each of the eight', async () => {
      const res = await refused(t, tables, 400, () => t.post(PATH, { Sku: 'X' }));
      assert.deepEqual(errorNames(res.body), REQUIRED);
      assert.equal(res.body.WasSuccessful, false);
      assert.equal(res.body.Value, null);
    });

    it('each required field missing on its own: 400 naming it, on create and on update', async () => {
      const id = await createProduct(t, business);
      await eachRequiredFieldIsNamed(t, tables, REQUIRED, minimal, (body) => t.post(PATH, body));
      await eachRequiredFieldIsNamed(t, tables, REQUIRED, minimal, (body) => t.put(PATH, { ...body, Id: id }));
    });

    it('enums out of range: 400 naming the field', async () => {
      for (const [field, value] of [
        ['SystemProductType', 6],
        ['SystemProductType', 98],
        ['SystemProductType', -1],
        ['AvailableAs', 4],
        ['AvailableAs', '1'],
        ['AvailableAs', 1.5],
      ] as const) {
        const res = await refused(t, tables, 400, () => t.post(PATH, minimal({ [field]: value })));
        assert.deepEqual(errorNames(res.body), [field], `${field}=${value}`);
        assert.equal(res.body.Errors[0].AttemptedValue, value);
      }
      for (const value of [0, 1, 2, 3, 4, 5, 99]) await create(t, PATH, minimal({ SystemProductType: value }));
      for (const value of [0, 1, 2, 3]) await create(t, PATH, minimal({ AvailableAs: value }));
    });

    it('foreign keys and tariff ids that point at nothing: 400 naming the field', async () => {
      const res = await refused(t, tables, 400, () =>
        t.post(PATH, minimal({ BusinessId: 90001, CurrencyId: 90002, Tariffs: [tariffs[0], 90003] })),
      );
      assert.deepEqual(errorNames(res.body), ['BusinessId', 'CurrencyId', 'Tariffs']);
      const tariffError = res.body.Errors.find((e: any) => e.PropertyName === 'Tariffs');
      assert.equal(tariffError.Message, 'Tariff 90003 does not exist');
      // Without tariffs the create is one INSERT that leaves these two to the foreign keys: the same answer.
      const alone = await refused(t, tables, 400, () => t.post(PATH, minimal({ BusinessId: 90001, CurrencyId: 90002 })));
      assert.deepEqual(errorNames(alone.body), ['BusinessId', 'CurrencyId']);
      assert.equal(alone.body.Message, 'BusinessId: Business 90001 does not exist');
      const bad = await refused(t, tables, 400, () => t.post(PATH, minimal({ Tariffs: [0], TaxRateId: -4 })));
      assert.deepEqual(errorNames(bad.body), ['Tariffs', 'TaxRateId']);
    });

    it('wrong types and over-long text: 400', async () => {
      const res = await refused(t, tables, 400, () =>
        t.post(PATH, minimal({ Price: '2.5', Visible: 'yes', Sku: 'x'.repeat(256), NotesForAi: 'x'.repeat(65_536), Tariffs: 'all' })),
      );
      assert.deepEqual(errorNames(res.body), ['NotesForAi', 'Price', 'Sku', 'Tariffs', 'Visible']);
    });
  });

  describe('update', () => {
    it('absent optional fields keep their value, explicit nulls clear them', async () => {
      const id = await create(t, PATH, everyField());
      const res = await t.put(PATH, {
        ...minimal({ Id: id, Name: 'Renamed', Price: 99 }),
        Sku: null,
        Tags: null,
        PriceForAi: null,
        TaxRateId: null,
        StockAlertLevel: null,
        CurrentStock: null,
        Starred: null,
        NotesForAi: null,
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.Message, 'Product was successfully updated.');
      const read = (await t.get(`${PATH}/${id}`)).body;
      assert.equal(read.Name, 'Renamed');
      assert.equal(read.Price, 99);
      for (const field of ['Sku', 'Tags', 'PriceForAi', 'TaxRateId', 'StockAlertLevel', 'NotesForAi'])
        assert.equal(read[field], null, field);
      assert.equal(read.Starred, false);
      assert.equal(read.CurrentStock, 0, 'a cleared stock level is zero');
      // Absent: kept.
      const original = everyField();
      for (const field of [
        'InvoiceLineDisplayAs',
        'Visible',
        'VisibleInKiosk',
        'SyncToSquare',
        'SyncToNexKiosk',
        'ReducedTaxRateId',
        'OnlyForMembers',
        'Archived',
        'NewImageUrl',
        'SystemId',
      ]) {
        assert.deepEqual(read[field], original[field as keyof typeof original], field);
      }
      assert.deepEqual(read.Tariffs, [tariffs[0], tariffs[2]], 'absent Tariffs keeps the links');
      assert.equal(read.IsNew, false);
    });

    it('Tariffs: a new list replaces the links, [] and null remove them', async () => {
      const id = await create(t, PATH, minimal({ Tariffs: [tariffs[1]] }));
      await t.put(`${PATH}/${id}`, minimal({ Tariffs: [tariffs[2], tariffs[0], tariffs[2]] }));
      assert.deepEqual((await t.get(`${PATH}/${id}`)).body.Tariffs, [tariffs[0], tariffs[2]]);
      await t.put(`${PATH}/${id}`, minimal({ Tariffs: [] }));
      assert.deepEqual((await t.get(`${PATH}/${id}`)).body.Tariffs, []);
      await t.put(`${PATH}/${id}`, minimal({ Tariffs: [tariffs[1]] }));
      await t.put(`${PATH}/${id}`, minimal({ Tariffs: null }));
      assert.deepEqual((await t.get(`${PATH}/${id}`)).body.Tariffs, []);
      assert.equal((await tableRows(t, 'product_tariff')).filter((r) => Number(r.ProductId) === id).length, 0);
    });

    it('a GET body PUT back unchanged changes nothing', async () => {
      const id = await create(t, PATH, everyField());
      const links = await tableRows(t, 'product_tariff');
      await putBackChangesNothing(t, PATH, id, { BusinessName: 'ignored', CurrencyCode: 'XXX', LowStock: true, ImageFileName: 'x.png' });
      assert.deepEqual(await tableRows(t, 'product_tariff'), links);
    });

    it('an update refused by a missing tariff changes nothing', async () => {
      const id = await create(t, PATH, minimal({ Tariffs: [tariffs[0]] }));
      await refused(t, ['product', 'product_tariff'], 400, () =>
        t.put(PATH, minimal({ Id: id, Name: 'Nope', Tariffs: [tariffs[1], 777777] })),
      );
    });
  });

  describe('lists and filters', () => {
    it('filters by business, by name, by booleans and ranges, and orders by any field', async () => {
      const shop = await createBusiness(t, { Name: 'Filter shop' });
      const a = await createProduct(t, shop, { Name: 'Espresso', Price: 2, Archived: true });
      const b = await createProduct(t, shop, { Name: 'Flat white', Price: 3 });
      const c = await createProduct(t, shop, { Name: 'Espresso double', Price: 4 });
      const names = async (query: string) => (await t.get(`${PATH}?Product_Business=${shop}&${query}`)).body.Records.map((p: any) => p.Id);
      assert.deepEqual(await names('Product_Name=espresso'), [a, c]);
      assert.deepEqual(await names('Product_Archived=true'), [a]);
      assert.deepEqual(await names('from_Product_Price=3'), [b, c]);
      assert.deepEqual(await names('orderBy=Price&dir=desc'), [c, b, a]);
      assert.deepEqual(await names('Product_Currency=' + eur), []);
      assert.equal((await t.get(`${PATH}?orderBy=Tariffs`)).status, 400);
    });
  });

  describe('delete', () => {
    it('deletes a product and its tariff links; then 404', async () => {
      const id = await create(t, PATH, minimal({ Tariffs: [tariffs[0], tariffs[1]] }));
      await deletesThenNotFound(t, PATH, 'Product', id, ['product'], minimal());
      assert.equal((await tableRows(t, 'product_tariff')).filter((r) => Number(r.ProductId) === id).length, 0);
      assert.equal((await t.get(`/api/billing/tariffs/${tariffs[0]}`)).status, 200);
    });

    it('a product with booking credits cannot be deleted: 400 saying why, nothing removed', async () => {
      const id = await createProduct(t, business, { Tariffs: [tariffs[0]] });
      await create(t, '/api/billing/productbookingcredits', { Name: '5 hours', ProductId: id, Credit: 5 });
      const res = await refused(t, ['product', 'product_tariff', 'productbookingcredit'], 400, () => t.delete(`${PATH}/${id}`));
      assert.equal(res.body.WasSuccessful, false);
      assert.equal(res.body.Message, `Product ${id} cannot be deleted because ProductBookingCredit records refer to it.`);
    });

    it('unknown ids: 404 "Not found" on get, update and delete', async () => {
      await unknownIdIsNotFound(t, PATH, ['product', 'product_tariff'], minimal(), { id: 876543 });
    });
  });

  describe('stock for sales', () => {
    it('takes stock with one conditional UPDATE: concurrent sales never oversell', async () => {
      const products = t.app.get(ProductsService);
      const id = await createProduct(t, business, { TrackStock: true, CurrentStock: 5 });
      const sales = await Promise.all(Array.from({ length: 12 }, () => t.db.transaction((tx) => products.takeStock(tx, id, 1))));
      assert.equal(sales.filter(Boolean).length, 5);
      assert.equal((await t.get(`${PATH}/${id}`)).body.CurrentStock, 0);
    });

    it('AllowNegativeStock lets the stock go below zero; untracked stock is left alone', async () => {
      const products = t.app.get(ProductsService);
      const negative = await createProduct(t, business, { TrackStock: true, AllowNegativeStock: true, CurrentStock: 1 });
      assert.equal(await t.db.transaction((m) => products.takeStock(m, negative, 3)), true);
      assert.equal((await t.get(`${PATH}/${negative}`)).body.CurrentStock, -2);
      const untracked = await createProduct(t, business, { CurrentStock: 1 });
      assert.equal(await t.db.transaction((m) => products.takeStock(m, untracked, 3)), true);
      assert.equal((await t.get(`${PATH}/${untracked}`)).body.CurrentStock, 1);
      assert.equal(await t.db.transaction((m) => products.takeStock(m, 999999, 1)), false);
    });
  });
});

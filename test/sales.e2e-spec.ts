import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { createUser } from './support/auth.js';
import { createProduct } from './support/billing-fixtures.js';
import { create, createBusinesses, createCoworker, createTariff } from './support/fixtures.js';
import {
  assertFields,
  assertNotFound,
  createAndReadBack,
  errorNames,
  putBackChangesNothing,
  refused,
  unknownIdIsNotFound,
} from './support/record-checks.js';
import { appPerSuite, basicAuth, onMySql } from './support/test-app.js';

const PATH = '/api/billing/coworkerproducts';
const CREDITS = '/api/billing/coworkerbookingcredits';
const PRODUCT_CREDITS = '/api/billing/productbookingcredits';
/** Every table a sale writes: a refused sale leaves each of them as it was. */
const TABLES = ['coworkerproduct', 'coworkerbookingcredit', 'product'];
const PASSWORD = 'correct horse battery';

describe('sales (CoworkerProduct)', () => {
  const t = appPerSuite();
  let business: number;
  let otherBusiness: number;
  let tariff: number;
  /** A customer with a plan (an active contract). */
  let member: number;
  /** A customer without one. */
  let contact: number;
  let product: number;

  before(async () => {
    [business, otherBusiness] = await createBusinesses(t, 'Canal Works', 'Harbour Hub');
    tariff = await createTariff(t, business, { Name: 'Resident' });
    member = await createCoworker(t, business, { FullName: 'Mary Member', TariffId: tariff });
    // Her plan (the contract TariffId started) began on 15 November 2023: it renews on the 15th.
    const [contract] = (await t.get(`/api/billing/coworkercontracts?CoworkerContract_Coworker=${member}`)).body.Records;
    assert.equal((await t.put('/api/billing/coworkercontracts', { ...contract, StartDate: '2023-11-15T00:00:00Z' })).status, 200);
    contact = await createCoworker(t, business, { FullName: 'Cora Contact' });
    product = await createProduct(t, business, { Name: 'Day pass', Price: 25 });
  });

  const sell = (body: Record<string, unknown>, options?: { auth?: string }) =>
    t.post(PATH, { CoworkerId: contact, ProductId: product, ...body }, options);
  const stockOf = async (id: number) => (await t.get(`/api/billing/products/${id}`)).body;
  const creditsOf = async (saleUniqueId: string) =>
    (await t.get(`${CREDITS}?CoworkerBookingCredit_CoworkerProductUniqueId=${saleUniqueId}&size=1000`)).body.Records as any[];

  describe('create and read', () => {
    it('creates with every field and reads each back, with ProductName and CoworkerFullName', async () => {
      const input = {
        CoworkerId: member,
        ProductId: product,
        Quantity: 2,
        Price: 19.9925,
        SaleDate: '2025-03-04T05:06:07Z',
        Notes: 'Paid at the desk.\n'.repeat(10),
        Invoiced: true,
        SystemId: 'pos-1',
      };
      const read = await createAndReadBack(t, PATH, 'CoworkerProduct', input);
      assertFields(read, { ProductName: 'Day pass', CoworkerFullName: 'Mary Member', ToStringText: '2 x Day pass - Mary Member' });
      assert.match(read.UniqueId, /^[0-9a-f-]{36}$/);
      assert.deepEqual((await t.get(`${PATH}?id=[${read.Id}]`)).body, [read]);
    });

    it("defaults: Quantity 1, Price the product's, SaleDate now (whole seconds), Invoiced false, Notes null", async () => {
      const priced = await createProduct(t, business, { Name: 'Coffee', Price: 2.35 });
      const start = Math.floor(Date.now() / 1000) * 1000;
      const res = await sell({ ProductId: priced, Quantity: null, Price: null, SaleDate: null });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const end = Date.now();
      const read = (await t.get(`${PATH}/${res.body.Value.Id}`)).body;
      assert.equal(read.Quantity, 1);
      assert.equal(read.Price, 2.35);
      assert.equal(read.Invoiced, false);
      assert.equal(read.Notes, null);
      const sold = Date.parse(read.SaleDate);
      assert.ok(sold >= start && sold <= end, `${read.SaleDate} is now`);
      const bare = (await t.get(`${PATH}/${await create(t, PATH, { CoworkerId: contact, ProductId: priced })}`)).body;
      assert.equal(bare.Quantity, 1);
      assert.equal(bare.Price, 2.35);
    });

    it('filters by customer and product, orders by SaleDate', async () => {
      const shelf = await createProduct(t, business, { Name: 'Shelf item' });
      const late = await create(t, PATH, { CoworkerId: member, ProductId: shelf, SaleDate: '2025-06-01' });
      const early = await create(t, PATH, { CoworkerId: member, ProductId: shelf, SaleDate: '2025-01-01' });
      const ids = async (query: string) =>
        (await t.get(`${PATH}?CoworkerProduct_Product=${shelf}&${query}`)).body.Records.map((s: any) => s.Id);
      assert.deepEqual(await ids(''), [late, early]);
      assert.deepEqual(await ids('orderBy=SaleDate'), [early, late]);
      assert.deepEqual(await ids(`CoworkerProduct_Coworker=${contact}`), []);
      assert.deepEqual(await ids('coworkerproduct_productname=shelf&to_CoworkerProduct_SaleDate=2025-03-01'), [early]);
    });
  });

  describe('validation: 400 naming the field, nothing written', () => {
    it('CoworkerId and ProductId are required and must exist', async () => {
      assert.deepEqual(errorNames((await refused(t, TABLES, 400, () => t.post(PATH, { Quantity: 1 }))).body), ['CoworkerId', 'ProductId']);
      const res = await refused(t, TABLES, 400, () => t.post(PATH, { CoworkerId: 990001, ProductId: 990002 }));
      assert.deepEqual(errorNames(res.body), ['CoworkerId', 'ProductId']);
      assert.equal(res.body.Message, 'CoworkerId: Coworker 990001 does not exist');
    });

    it('Quantity is a whole number of at least 1; Price a number; SaleDate a date', async () => {
      for (const quantity of [0, -1, 1.5, '2', 1_000_001]) {
        const res = await refused(t, TABLES, 400, () => sell({ Quantity: quantity }));
        assert.deepEqual(errorNames(res.body), ['Quantity'], String(quantity));
      }
      const res = await refused(t, TABLES, 400, () => sell({ Price: 'free', SaleDate: 'yesterday', Notes: 'x'.repeat(65_536) }));
      assert.deepEqual(errorNames(res.body), ['Notes', 'Price', 'SaleDate']);
    });

    it("a product of another business than the customer's: 400 naming ProductId", async () => {
      const foreign = await createProduct(t, otherBusiness, { Name: 'Harbour pass' });
      const res = await refused(t, TABLES, 400, () => sell({ ProductId: foreign }));
      assert.deepEqual(errorNames(res.body), ['ProductId']);
      assert.match(res.body.Message, new RegExp(`^ProductId: Product ${foreign} is not sold by Business ${business}`));
    });
  });

  describe('selling rules: 400 with a Message saying which, nothing changed', () => {
    it('an archived product cannot be sold', async () => {
      const archived = await createProduct(t, business, { Name: 'Old pass', Archived: true, TrackStock: true, CurrentStock: 5 });
      await create(t, PRODUCT_CREDITS, { Name: 'Hours', ProductId: archived, Credit: 1 });
      const res = await refused(t, TABLES, 400, () => sell({ ProductId: archived }));
      assert.equal(res.body.WasSuccessful, false);
      assert.equal(res.body.Status, 400);
      assert.equal(res.body.Value, null);
      assert.equal(res.body.Message, 'Product "Old pass" is archived and cannot be sold.');
    });

    it('OnlyForMembers: refused to a customer without an active contract, sold to one with', async () => {
      const members = await createProduct(t, business, { Name: 'Members lunch', OnlyForMembers: true });
      const res = await refused(t, TABLES, 400, () => sell({ CoworkerId: contact, ProductId: members }));
      assert.equal(res.body.Message, 'Product "Members lunch" is only for members: Cora Contact has no active contract.');
      assert.equal((await sell({ CoworkerId: member, ProductId: members })).status, 200);
    });

    it('OnlyForContacts: refused to a customer with an active contract, sold to one without', async () => {
      const trial = await createProduct(t, business, { Name: 'Trial day', OnlyForContacts: true });
      const res = await refused(t, TABLES, 400, () => sell({ CoworkerId: member, ProductId: trial }));
      assert.equal(res.body.Message, 'Product "Trial day" is only for contacts: Mary Member has an active contract.');
      assert.equal((await sell({ CoworkerId: contact, ProductId: trial })).status, 200);
    });

    it('TrackStock: each sale takes its quantity; LowStock at or under the alert level; no sale below zero', async () => {
      const stocked = await createProduct(t, business, { Name: 'Locker key', TrackStock: true, CurrentStock: 5, StockAlertLevel: 2 });
      assert.equal((await sell({ ProductId: stocked, Quantity: 2 })).status, 200);
      assert.deepEqual(await stockOf(stocked).then((p) => [p.CurrentStock, p.LowStock]), [3, false]);
      assert.equal((await sell({ ProductId: stocked })).status, 200);
      assert.deepEqual(await stockOf(stocked).then((p) => [p.CurrentStock, p.LowStock]), [2, true], 'at the alert level');
      const res = await refused(t, TABLES, 400, () => sell({ ProductId: stocked, Quantity: 3 }));
      assert.equal(res.body.Message, 'Not enough stock of "Locker key" for a sale of 3: the product does not allow negative stock.');
      assert.equal((await sell({ ProductId: stocked, Quantity: 2 })).status, 200);
      assert.deepEqual(await stockOf(stocked).then((p) => [p.CurrentStock, p.LowStock]), [0, true]);
      await refused(t, TABLES, 400, () => sell({ ProductId: stocked }));
    });

    it('without TrackStock a product sells regardless of its stock, which stays as it is', async () => {
      const untracked = await createProduct(t, business, { Name: 'Printing', CurrentStock: 0 });
      assert.equal((await sell({ ProductId: untracked, Quantity: 50 })).status, 200);
      assert.equal((await stockOf(untracked)).CurrentStock, 0);
    });

    it('with AllowNegativeStock the stock goes below zero', async () => {
      const backorder = await createProduct(t, business, {
        Name: 'Mug',
        TrackStock: true,
        AllowNegativeStock: true,
        CurrentStock: 1,
        StockAlertLevel: 0,
      });
      assert.equal((await sell({ ProductId: backorder, Quantity: 3 })).status, 200);
      assert.deepEqual(await stockOf(backorder).then((p) => [p.CurrentStock, p.LowStock]), [-2, true]);
    });
  });

  describe('booking credits released by a sale', () => {
    const SALE_DATE = '2024-01-31T10:20:30Z';
    // Expected expiry of each rule for a sale at SALE_DATE, worked out by hand (2024 is a leap year).
    const RULES: Array<[name: string, rule: Record<string, unknown>, forMember: string | null, forContact: string | null]> = [
      ['no expiry', {}, null, null],
      ['no expiry (type 0)', { ExpirationType: 0, ExpiresIn: 4 }, null, null],
      ['price plan', { ExpirationType: 1, ExpiresIn: 1 }, '2024-02-15T00:00:00Z', null],
      ['10 days', { ExpirationType: 2, ExpiresIn: 10 }, '2024-02-10T10:20:30Z', '2024-02-10T10:20:30Z'],
      ['2 weeks', { ExpirationType: 3, ExpiresIn: 2 }, '2024-02-14T10:20:30Z', '2024-02-14T10:20:30Z'],
      ['1 month', { ExpirationType: 4, ExpiresIn: 1 }, '2024-02-29T10:20:30Z', '2024-02-29T10:20:30Z'],
      ['13 months', { ExpirationType: 4, ExpiresIn: 13 }, '2025-02-28T10:20:30Z', '2025-02-28T10:20:30Z'],
      ['1 year', { ExpirationType: 5, ExpiresIn: 1 }, '2025-01-31T10:20:30Z', '2025-01-31T10:20:30Z'],
      ['month end +1', { ExpirationType: 6, ExpiresIn: 1 }, '2024-02-29T23:59:59Z', '2024-02-29T23:59:59Z'],
      ['month end', { ExpirationType: 6, ExpiresIn: 0 }, '2024-01-31T23:59:59Z', '2024-01-31T23:59:59Z'],
      ['legacy months', { ExpireTimeInMonths: 1, ExpireTimeInWeeks: 3 }, '2024-02-29T10:20:30Z', '2024-02-29T10:20:30Z'],
      ['legacy weeks', { ExpireTimeInWeeks: 1 }, '2024-02-07T10:20:30Z', '2024-02-07T10:20:30Z'],
      ['type wins over legacy', { ExpirationType: 2, ExpiresIn: 1, ExpireTimeInMonths: 6 }, '2024-02-01T10:20:30Z', '2024-02-01T10:20:30Z'],
    ];
    let bundle: number;
    const eligibility = {
      ElegibleResourceTypes: [4, 9],
      EventCategories: [2],
      ElegiblePasses: [31],
      CaneBeUsedForBookings: true,
      CaneBeUsedForEvents: true,
      IsUniversalCredit: true,
      AppliesToCharges: true,
    };

    before(async () => {
      bundle = await createProduct(t, business, { Name: 'Credit bundle', SystemProductType: 2, TrackStock: true, CurrentStock: 100 });
      for (const [name, rule] of RULES) await create(t, PRODUCT_CREDITS, { Name: name, ProductId: bundle, Credit: 2.5, ...rule });
      await create(t, PRODUCT_CREDITS, {
        Name: 'eligible',
        ProductId: bundle,
        Credit: 0.1,
        ...eligibility,
        ElegibleProducts: [product, bundle],
        ElegibleTariffs: [tariff],
      });
    });

    for (const who of ['member', 'contact'] as const) {
      it(`a sale of 3 to a ${who} releases every credit of the product: amounts, dates, eligibility, business, sale`, async () => {
        const coworker = who === 'member' ? member : contact;
        const res = await t.post(PATH, { CoworkerId: coworker, ProductId: bundle, Quantity: 3, SaleDate: SALE_DATE });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        const sale = (await t.get(`${PATH}/${res.body.Value.Id}`)).body;
        const released = await creditsOf(sale.UniqueId);
        assert.equal(released.length, RULES.length + 1);
        for (const [name, , forMember, forContact] of RULES) {
          const credit = released.find((c) => c.Description === name);
          assert.ok(credit, name);
          assert.equal(credit.ExpireDate, who === 'member' ? forMember : forContact, `${name}: ExpireDate`);
          assert.equal(credit.TotalCredit, 7.5, `${name}: 2.5 × 3`);
          assert.equal(credit.RemainingCredit, 7.5);
          assert.equal(credit.ValidFrom, SALE_DATE);
          assert.equal(credit.CoworkerId, coworker);
          assert.equal(credit.BusinessId, business);
          assert.equal(credit.CoworkerProductUniqueId, sale.UniqueId);
          for (const list of ['ElegibleResourceTypes', 'ElegibleProducts', 'ElegibleTariffs', 'EventCategories', 'ElegiblePasses'])
            assert.deepEqual(credit[list], [], `${name}: ${list}`);
          for (const flag of ['CaneBeUsedForBookings', 'CaneBeUsedForEvents', 'IsUniversalCredit', 'AppliesToCharges'])
            assert.equal(credit[flag], false, `${name}: ${flag}`);
        }
        const copied = released.find((c) => c.Description === 'eligible');
        assert.equal(copied.TotalCredit, 0.3, '0.1 × 3 exactly');
        assert.equal(copied.RemainingCredit, 0.3);
        assert.equal(copied.ExpireDate, null);
        for (const [field, value] of Object.entries(eligibility)) assert.deepEqual(copied[field], value, field);
        assert.deepEqual(
          copied.ElegibleProducts,
          [product, bundle].sort((a, b) => a - b),
        );
        assert.deepEqual(copied.ElegibleTariffs, [tariff]);
        assert.equal(copied.IsNew, true);
        assert.equal(copied.UpdatedBy, 'admin@test.example');
      });
    }

    it('the stored rows hold the same, and a product without credits releases none', async () => {
      const plain = await createProduct(t, business, { Name: 'No credits' });
      const before = (await t.rows('coworkerbookingcredit')).length;
      assert.equal((await sell({ ProductId: plain, Quantity: 4 })).status, 200);
      assert.equal((await t.rows('coworkerbookingcredit')).length, before);
      const res = await t.post(PATH, { CoworkerId: member, ProductId: bundle, Quantity: 1, SaleDate: '2024-02-29T23:00:00Z' });
      const sale = (await t.get(`${PATH}/${res.body.Value.Id}`)).body;
      const rows = (await t.rows('coworkerbookingcredit')).filter((row) => row.CoworkerProductUniqueId === sale.UniqueId);
      assert.equal(rows.length, RULES.length + 1);
      const month = rows.find((row) => row.Description === '1 month')!;
      assert.equal(Number(month.TotalCredit), 2.5);
      assert.match(String(month.ExpireDate), /^2024-03-29 23:00:00/);
      assert.match(String(month.ValidFrom), /^2024-02-29 23:00:00/);
      assert.match(String(rows.find((row) => row.Description === '1 year')!.ExpireDate), /^2025-02-28 23:00:00/);
    });

    it('a failure while releasing credits leaves no sale, no credit and no stock change', async () => {
      const fragile = await createProduct(t, business, { Name: 'Fragile bundle', TrackStock: true, CurrentStock: 3 });
      await create(t, PRODUCT_CREDITS, { Name: 'Fine', ProductId: fragile, Credit: 1 });
      await create(t, PRODUCT_CREDITS, { Name: 'Explodes', ProductId: fragile, Credit: 1 });
      // A database constraint that refuses the second credit's row, as a broken release would fail.
      await t.db.query(
        onMySql
          ? "CREATE TRIGGER refuse_release BEFORE INSERT ON coworkerbookingcredit FOR EACH ROW BEGIN IF NEW.Description = 'Explodes' THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'release refused'; END IF; END"
          : "CREATE TRIGGER refuse_release BEFORE INSERT ON coworkerbookingcredit WHEN NEW.Description = 'Explodes' BEGIN SELECT RAISE(ABORT, 'release refused'); END",
      );
      try {
        const res = await refused(t, [...TABLES, 'productbookingcredit'], 500, () => sell({ ProductId: fragile, Quantity: 2 }));
        assert.equal(res.body.Message, 'An error has occurred.');
      } finally {
        await t.db.query('DROP TRIGGER refuse_release');
      }
      assert.equal((await stockOf(fragile)).CurrentStock, 3);
      const sold = await sell({ ProductId: fragile, Quantity: 2 });
      assert.equal(sold.status, 200);
      assert.equal((await stockOf(fragile)).CurrentStock, 1);
      const sale = (await t.get(`${PATH}/${sold.body.Value.Id}`)).body;
      assert.deepEqual(
        (await creditsOf(sale.UniqueId)).map((c) => [c.Description, c.TotalCredit]),
        [
          ['Fine', 2],
          ['Explodes', 2],
        ],
      );
    });
  });

  describe('update', () => {
    it('Notes, Invoiced, Price and SaleDate change; the released credits stay as they are', async () => {
      const bundle = await createProduct(t, business, { Name: 'Edit bundle' });
      await create(t, PRODUCT_CREDITS, { Name: 'Hours', ProductId: bundle, Credit: 5, ExpirationType: 2, ExpiresIn: 1 });
      const id = await create(t, PATH, { CoworkerId: contact, ProductId: bundle, Quantity: 2, SaleDate: '2025-01-01T00:00:00Z' });
      const sale = (await t.get(`${PATH}/${id}`)).body;
      const credits = await creditsOf(sale.UniqueId);
      const res = await t.put(PATH, {
        Id: id,
        CoworkerId: contact,
        ProductId: bundle,
        Notes: 'Invoiced in March',
        Invoiced: true,
        Price: 20,
        SaleDate: '2025-01-02T09:00:00Z',
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.Message, 'CoworkerProduct was successfully updated.');
      const read = (await t.get(`${PATH}/${id}`)).body;
      assert.deepEqual(
        [read.Notes, read.Invoiced, read.Price, read.SaleDate, read.Quantity, read.IsNew],
        ['Invoiced in March', true, 20, '2025-01-02T09:00:00Z', 2, false],
      );
      assert.deepEqual(await creditsOf(sale.UniqueId), credits);
    });

    it('CoworkerId, ProductId and Quantity cannot change: 400 naming each, nothing changed', async () => {
      const stocked = await createProduct(t, business, { Name: 'Fixed', TrackStock: true, CurrentStock: 10 });
      const other = await createProduct(t, business, { Name: 'Other' });
      const id = await create(t, PATH, { CoworkerId: contact, ProductId: stocked, Quantity: 2 });
      const res = await refused(t, TABLES, 400, () => t.put(`${PATH}/${id}`, { CoworkerId: member, ProductId: other, Quantity: 5 }));
      assert.deepEqual(errorNames(res.body), ['CoworkerId', 'ProductId', 'Quantity']);
      assert.match(res.body.Message, /^CoworkerId: CoworkerId of a sale cannot be changed/);
      await refused(t, TABLES, 400, () => t.put(`${PATH}/${id}`, { CoworkerId: contact, ProductId: stocked, Quantity: 1 }));
      assert.equal((await stockOf(stocked)).CurrentStock, 8);
    });

    it('a GET body PUT back changes nothing; null Quantity, Price and SaleDate keep the stored ones; required fields stay required', async () => {
      const id = await create(t, PATH, {
        CoworkerId: member,
        ProductId: product,
        Quantity: 3,
        Price: 12.5,
        SaleDate: '2025-05-05T05:05:05Z',
        Notes: 'n',
      });
      await putBackChangesNothing(t, PATH, id, { ProductName: 'ignored', CoworkerFullName: 'ignored' });
      assert.equal(
        (await t.put(PATH, { Id: id, CoworkerId: member, ProductId: product, Quantity: null, Price: null, SaleDate: null, Notes: null }))
          .status,
        200,
      );
      const read = (await t.get(`${PATH}/${id}`)).body;
      assert.deepEqual([read.Quantity, read.Price, read.SaleDate, read.Notes], [3, 12.5, '2025-05-05T05:05:05Z', null]);
      // Not a type of the source document: absent required fields keep their values, explicit nulls are refused (docs/api.md §1.2).
      assert.deepEqual(
        errorNames((await refused(t, TABLES, 400, () => t.put(PATH, { Id: id, Notes: 'x', CoworkerId: null, ProductId: null }))).body),
        ['CoworkerId', 'ProductId'],
      );
    });
  });

  describe('delete', () => {
    it('removes the sale and its unused credits, and does not return stock', async () => {
      const bundle = await createProduct(t, business, { Name: 'Delete bundle', TrackStock: true, CurrentStock: 10 });
      await create(t, PRODUCT_CREDITS, { Name: 'Hours', ProductId: bundle, Credit: 5 });
      await create(t, PRODUCT_CREDITS, { Name: 'Prints', ProductId: bundle, Credit: 20 });
      const keep = (await t.get(`${PATH}/${await create(t, PATH, { CoworkerId: contact, ProductId: bundle, Quantity: 1 })}`)).body;
      const gone = (await t.get(`${PATH}/${await create(t, PATH, { CoworkerId: contact, ProductId: bundle, Quantity: 3 })}`)).body;
      assert.equal((await stockOf(bundle)).CurrentStock, 6);
      const res = await t.delete(`${PATH}/${gone.Id}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.Message, 'CoworkerProduct was successfully deleted.');
      assert.deepEqual(res.body.Value, { Id: gone.Id });
      assertNotFound(await t.get(`${PATH}/${gone.Id}`));
      assert.deepEqual(await creditsOf(gone.UniqueId), []);
      assert.equal((await creditsOf(keep.UniqueId)).length, 2);
      assert.equal((await stockOf(bundle)).CurrentStock, 6, 'stock is not returned');
    });

    it('refused while a released credit has been used: 400 saying so, nothing removed', async () => {
      const bundle = await createProduct(t, business, { Name: 'Used bundle' });
      await create(t, PRODUCT_CREDITS, { Name: 'Hours', ProductId: bundle, Credit: 5 });
      await create(t, PRODUCT_CREDITS, { Name: 'Prints', ProductId: bundle, Credit: 20 });
      const sale = (await t.get(`${PATH}/${await create(t, PATH, { CoworkerId: contact, ProductId: bundle })}`)).body;
      const [hours] = await creditsOf(sale.UniqueId);
      assert.equal((await t.put(CREDITS, { ...hours, RemainingCredit: 4.5 })).status, 200);
      const res = await refused(t, TABLES, 400, () => t.delete(`${PATH}/${sale.Id}`));
      assert.equal(res.body.WasSuccessful, false);
      assert.equal(
        res.body.Message,
        `CoworkerProduct ${sale.Id} cannot be deleted: 1 of the booking credits it released has been used. Deleting a sale removes its unused credits and does not return its quantity to stock.`,
      );
    });

    it('a product or a customer with sales cannot be deleted', async () => {
      const sold = await createProduct(t, business, { Name: 'Sold once' });
      const buyer = await createCoworker(t, business, { FullName: 'Buyer' });
      await create(t, PATH, { CoworkerId: buyer, ProductId: sold });
      const product = await refused(t, TABLES, 400, () => t.delete(`/api/billing/products/${sold}`));
      assert.equal(product.body.Message, `Product ${sold} cannot be deleted because CoworkerProduct records refer to it.`);
      const customer = await refused(t, [...TABLES, 'coworker'], 400, () => t.delete(`/api/spaces/coworkers/${buyer}`));
      assert.match(customer.body.Message, new RegExp(`^Coworker ${buyer} cannot be deleted because .*CoworkerProduct`));
    });

    it('unknown ids: 404 "Not found" on get, update and delete', async () => {
      await unknownIdIsNotFound(t, PATH, TABLES, { CoworkerId: contact, ProductId: product });
    });
  });

  describe('restricted administrators', () => {
    it('sell to and see only customers of their businesses (scope through the customer)', async () => {
      const address = `seller.${Date.now()}@example.com`;
      await createUser(t, {
        Email: address,
        Password: PASSWORD,
        Businesses: [business],
        Roles: ['CoworkerProduct-List', 'CoworkerProduct-Read', 'CoworkerProduct-Create'],
      });
      const auth = basicAuth(address, PASSWORD);
      const harbourCustomer = await createCoworker(t, otherBusiness, { FullName: 'Harbour customer' });
      const harbourProduct = await createProduct(t, otherBusiness, { Name: 'Harbour day' });
      const foreign = await create(t, PATH, { CoworkerId: harbourCustomer, ProductId: harbourProduct });
      const denied = await refused(t, TABLES, 401, () =>
        t.post(PATH, { CoworkerId: harbourCustomer, ProductId: harbourProduct }, { auth }),
      );
      assert.deepEqual(denied.body, { Message: 'Authorization has been denied for this request.' });
      assert.equal((await t.get(`${PATH}/${foreign}`, { auth })).status, 401);
      const own = await t.post(PATH, { CoworkerId: contact, ProductId: product }, { auth });
      assert.equal(own.status, 200, JSON.stringify(own.body));
      const listed = (await t.get(`${PATH}?size=1000`, { auth })).body;
      assert.ok(listed.Records.length > 0);
      assert.ok(listed.Records.every((s: any) => s.CoworkerId !== harbourCustomer));
      assert.equal((await t.delete(`${PATH}/${own.body.Value.Id}`, { auth })).status, 401, 'no CoworkerProduct-Delete role');
    });
  });

  describe('concurrency', () => {
    it('40 parallel sales of a product with stock 10: exactly 10 sales, 30 refusals, stock 0, 10 sets of credits', async () => {
      const scarce = await createProduct(t, business, { Name: 'Scarce pass', TrackStock: true, CurrentStock: 10 });
      await create(t, PRODUCT_CREDITS, { Name: 'Hours', ProductId: scarce, Credit: 3 });
      await create(t, PRODUCT_CREDITS, { Name: 'Events', ProductId: scarce, Credit: 1, CaneBeUsedForEvents: true });
      const buyers = [member, contact];
      const results = await Promise.all(Array.from({ length: 40 }, (_, i) => sell({ CoworkerId: buyers[i % 2], ProductId: scarce })));
      const statuses = results.map((r) => r.status);
      assert.equal(statuses.filter((s) => s === 200).length, 10, statuses.join());
      assert.equal(statuses.filter((s) => s === 400).length, 30, statuses.join());
      for (const refusal of results.filter((r) => r.status === 400))
        assert.match(refusal.body.Message, /^Not enough stock of "Scarce pass"/);
      assert.equal((await stockOf(scarce)).CurrentStock, 0);
      const sales = (await t.get(`${PATH}?CoworkerProduct_Product=${scarce}&size=1000`)).body.Records as any[];
      assert.deepEqual(
        sales.map((s) => s.Id).sort((a, b) => a - b),
        results
          .filter((r) => r.status === 200)
          .map((r) => r.body.Value.Id)
          .sort((a, b) => a - b),
      );
      const saleIds = new Set(sales.map((s) => s.UniqueId));
      const credits = (await t.rows('coworkerbookingcredit')).filter((row) => saleIds.has(row.CoworkerProductUniqueId));
      assert.equal(credits.length, 20);
      for (const uniqueId of saleIds) {
        assert.deepEqual(
          credits
            .filter((c) => c.CoworkerProductUniqueId === uniqueId)
            .map((c) => c.Description)
            .sort(),
          ['Events', 'Hours'],
        );
      }
    });
  });
});

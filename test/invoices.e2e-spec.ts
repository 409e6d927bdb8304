import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { countryId, create, createBusiness, currencyId } from './support/fixtures.js';
import {
  assertFields,
  assertNotFound,
  createAndReadBack,
  eachRequiredFieldIsNamed,
  errorNames,
  putBackChangesNothing,
  refused,
  unknownIdIsNotFound,
} from './support/record-checks.js';
import { appPerSuite, onMySql, startApp } from './support/test-app.js';

const PATH = '/api/billing/invoices';
const TABLES = ['invoice', 'invoice_sequence'];
const REQUIRED_ON_CREATE = ['BillToAddress', 'BillToCity', 'BillToCountryId', 'BillToName', 'BillToPostCode', 'BusinessId', 'CurrencyId'];
const REQUIRED_ON_UPDATE = ['BillToAddress', 'BillToCity', 'BillToCountryId', 'BillToName', 'BillToPostCode', 'BusinessId'];

describe("invoices (the platform's bills to operators)", () => {
  const t = appPerSuite();
  let business: number;
  let gbp: number;
  let eur: number;
  let uk: number;

  before(async () => {
    gbp = await currencyId(t, 'GBP');
    eur = await currencyId(t, 'EUR');
    uk = await countryId(t, 'GB');
    business = await createBusiness(t);
  });

  const minimal = (overrides: Record<string, unknown> = {}) => ({
    BusinessId: business,
    BillToName: 'Canal Works Ltd',
    BillToAddress: '1 Canal St',
    BillToCity: 'London',
    BillToPostCode: 'N1 9AA',
    BillToCountryId: uk,
    CurrencyId: gbp,
    ...overrides,
  });

  const everyField = (overrides: Record<string, unknown> = {}) => ({
    ...minimal(),
    BillToTaxIDNumber: 'GB123456789',
    BillToPhone: '+44 20 7946 0000',
    BillToFax: '+44 20 7946 0001',
    Description: 'Platform subscription, January.\n'.repeat(10),
    DiscountAmount: 10.25,
    DueDate: '2025-02-15T00:00:00Z',
    InvoiceFromDate: '2025-01-01T00:00:00Z',
    InvoiceToDate: '2025-01-31T23:59:59Z',
    SubscriptionAmount: 300,
    ResellerAmount: 45.5,
    TotalAmount: 402.1234,
    TaxAmount: 67.0205,
    Paid: true,
    PaidOn: '2025-02-03T09:15:00Z',
    CustomData: '{"ledger":"A-17","lines":[1,2,3]}',
    PaymentAttemptsCount: 2,
    SystemId: 'billing-88',
    ...overrides,
  });

  it('creates with every field and reads each back equal, with the captured number, currency code and country name', async () => {
    const own = await createBusiness(t, { Name: 'Every field' });
    const input = everyField({ BusinessId: own });
    const read = await createAndReadBack(t, PATH, 'Invoice', input, {
      InvoiceNumber: '999',
      CurrencyCode: 'XXX',
      BillToCountryName: 'Nowhere',
    });
    assert.equal(read.InvoiceNumber, '1', 'the first invoice of a business is number 1; a request cannot choose it');
    assertFields(read, { CurrencyCode: 'GBP', BillToCountryName: 'United Kingdom', ToStringText: '1' });
    for (const field of [
      'Id',
      'UniqueId',
      'CreatedOn',
      'UpdatedOn',
      'UpdatedBy',
      'IsNew',
      'SystemId',
      'ToStringText',
      'LocalizationDetails',
      'CustomFields',
    ])
      assert.ok(field in read, field);
  });

  it('optional fields read null (Paid false) when not given', async () => {
    const read = (await t.get(`${PATH}/${await create(t, PATH, minimal())}`)).body;
    for (const field of [
      'BillToTaxIDNumber',
      'BillToPhone',
      'BillToFax',
      'Description',
      'DiscountAmount',
      'DueDate',
      'InvoiceFromDate',
      'InvoiceToDate',
      'SubscriptionAmount',
      'ResellerAmount',
      'TotalAmount',
      'TaxAmount',
      'PaidOn',
      'CustomData',
      'PaymentAttemptsCount',
    ]) {
      assert.equal(read[field], null, field);
    }
    assert.equal(read.Paid, false);
  });

  describe('refusals change nothing', () => {
    it('create: every required field missing, together and one by one: 400 naming each', async () => {
      const all = await refused(t, TABLES, 400, () => t.post(PATH, { TotalAmount: 5 }));
      assert.deepEqual(errorNames(all.body), REQUIRED_ON_CREATE);
      await eachRequiredFieldIsNamed(t, TABLES, REQUIRED_ON_CREATE, minimal, (body) => t.post(PATH, body));
    });

    it('update (docs/api.md §9.4): its required fields missing: 400 naming each; InvoiceNumber is not one of them', async () => {
      const id = await create(t, PATH, minimal());
      const all = await refused(t, TABLES, 400, () => t.put(PATH, { Id: id }));
      assert.deepEqual(errorNames(all.body), REQUIRED_ON_UPDATE);
      await eachRequiredFieldIsNamed(
        t,
        TABLES,
        REQUIRED_ON_UPDATE,
        () => ({ ...minimal(), Id: id }),
        (body) => t.put(PATH, body),
      );
      const noId = await refused(t, TABLES, 400, () => t.put(PATH, minimal()));
      assert.deepEqual(errorNames(noId.body), ['Id']);
    });

    it('references that point at nothing, wrong types and negative counts: 400', async () => {
      const res = await refused(t, TABLES, 400, () =>
        t.post(PATH, minimal({ BusinessId: 91001, BillToCountryId: 91002, CurrencyId: 91003 })),
      );
      assert.deepEqual(errorNames(res.body), ['BillToCountryId', 'BusinessId', 'CurrencyId']);
      assert.equal(res.body.Errors.find((e: any) => e.PropertyName === 'BillToCountryId').Message, 'Country 91002 does not exist');
      const types = await refused(t, TABLES, 400, () =>
        t.post(PATH, minimal({ DueDate: 'soon', TotalAmount: '12', Paid: 1, PaymentAttemptsCount: -1, CustomData: 'x'.repeat(65_536) })),
      );
      assert.deepEqual(errorNames(types.body), ['CustomData', 'DueDate', 'Paid', 'PaymentAttemptsCount', 'TotalAmount']);
    });

    it('an issued invoice cannot move to another business', async () => {
      const id = await create(t, PATH, minimal());
      const other = await createBusiness(t, { Name: 'Elsewhere' });
      const res = await refused(t, TABLES, 400, () => t.put(PATH, minimal({ Id: id, BusinessId: other })));
      assert.deepEqual(errorNames(res.body), ['BusinessId']);
    });

    it('there is no delete: 404 and the invoice stays', async () => {
      const id = await create(t, PATH, minimal());
      assertNotFound(await refused(t, TABLES, 404, () => t.delete(`${PATH}/${id}`)));
      const docs = await t.get('/api/docs-json');
      assert.equal(docs.body.paths['/api/billing/invoices/{id}'].delete, undefined);
      assert.ok(docs.body.paths['/api/billing/invoices'].put);
    });

    it('unknown ids: 404 "Not found" on get and update', async () => {
      await unknownIdIsNotFound(t, PATH, TABLES, minimal(), { id: 765432, withDelete: false });
    });
  });

  describe('update (docs/api.md §9.4)', () => {
    it('writes only the bill-to details: absent optional ones are kept, explicit nulls clear them, other fields are ignored', async () => {
      const id = await create(t, PATH, everyField());
      const before = (await t.get(`${PATH}/${id}`)).body;
      const res = await t.put(PATH, {
        ...minimal({ Id: id, BillToName: 'Canal Works Group', BillToCity: 'Leeds' }),
        BillToPhone: null,
        TotalAmount: 1,
        CurrencyId: eur,
        Paid: false,
        Description: 'changed',
        InvoiceNumber: '77',
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.Message, 'Invoice was successfully updated.');
      const read = (await t.get(`${PATH}/${id}`)).body;
      assert.equal(read.BillToName, 'Canal Works Group');
      assert.equal(read.BillToCity, 'Leeds');
      assert.equal(read.BillToPhone, null);
      assert.equal(read.BillToTaxIDNumber, before.BillToTaxIDNumber);
      assert.equal(read.BillToFax, before.BillToFax);
      for (const field of ['TotalAmount', 'CurrencyId', 'CurrencyCode', 'Paid', 'Description', 'InvoiceNumber', 'PaidOn', 'CustomData'])
        assert.deepEqual(read[field], before[field], field);
      assert.equal(read.IsNew, false);
    });

    it('a GET body PUT back unchanged changes nothing', async () => {
      const id = await create(t, PATH, everyField());
      await putBackChangesNothing(t, PATH, id);
    });
  });

  describe('snapshot (docs/api.md §3.1)', () => {
    it('later changes to the business, country and currency do not change an issued invoice', async () => {
      const local = await startApp();
      try {
        const ids = { gbp: await currencyId(local, 'GBP'), uk: await countryId(local, 'GB'), fr: await countryId(local, 'FR') };
        const shop = await createBusiness(local, { Name: 'Snapshot works', Address: 'Old St' });
        const id = await create(local, PATH, minimal({ BusinessId: shop, BillToCountryId: ids.uk, CurrencyId: ids.gbp }));
        const issued = (await local.get(`${PATH}/${id}`)).body;
        assert.equal(issued.BillToCountryName, 'United Kingdom');
        assert.equal(issued.CurrencyCode, 'GBP');
        // Reference data is read-only over HTTP, so it is changed underneath, as a data fix would.
        await local.db.query(`UPDATE ${local.db.id('country')} SET ${local.db.id('Name')} = ? WHERE ${local.db.id('Id')} = ?`, [
          'Britain (renamed)',
          ids.uk,
        ]);
        await local.db.query(`UPDATE ${local.db.id('currency')} SET ${local.db.id('Code')} = ? WHERE ${local.db.id('Id')} = ?`, [
          'GBX',
          ids.gbp,
        ]);
        assert.equal(
          (
            await local.put(`/api/sys/businesses/${shop}`, {
              Name: 'Renamed works',
              CurrencyId: ids.gbp,
              CountryId: ids.fr,
              Address: 'New St',
            })
          ).status,
          200,
        );
        assert.deepEqual((await local.get(`${PATH}/${id}`)).body, issued);
        // An update naming the same country keeps the captured name; another country is captured anew.
        await local.put(PATH, minimal({ Id: id, BusinessId: shop, BillToCountryId: ids.uk }));
        assert.equal((await local.get(`${PATH}/${id}`)).body.BillToCountryName, 'United Kingdom');
        await local.put(PATH, minimal({ Id: id, BusinessId: shop, BillToCountryId: ids.fr }));
        const moved = (await local.get(`${PATH}/${id}`)).body;
        assert.equal(moved.BillToCountryName, 'France');
        assert.equal(moved.CurrencyCode, 'GBP');
        // A new invoice captures today's values.
        const later = (
          await local.get(
            `${PATH}/${await create(local, PATH, minimal({ BusinessId: shop, BillToCountryId: ids.uk, CurrencyId: ids.gbp }))}`,
          )
        ).body;
        assert.equal(later.BillToCountryName, 'Britain (renamed)');
        assert.equal(later.CurrencyCode, 'GBX');
      } finally {
        await local.close();
      }
    });
  });

  describe('numbering (docs/api.md §3.1)', () => {
    it('numbers are sequential per business, starting at 1', async () => {
      const a = await createBusiness(t, { Name: 'Series A' });
      const b = await createBusiness(t, { Name: 'Series B' });
      const numbers: string[] = [];
      for (const owner of [a, b, a, a, b]) {
        const id = await create(t, PATH, minimal({ BusinessId: owner }));
        numbers.push((await t.get(`${PATH}/${id}`)).body.InvoiceNumber);
      }
      assert.deepEqual(numbers, ['1', '1', '2', '3', '2']);
      assert.deepEqual(
        (await t.get(`${PATH}?Invoice_Business=${a}&orderBy=Id`)).body.Records.map((i: any) => i.InvoiceNumber),
        ['1', '2', '3'],
      );
    });

    it('30 invoices issued in parallel for each of two businesses get 1..30 each: no duplicates, no gaps', async () => {
      const a = await createBusiness(t, { Name: 'Parallel A' });
      const b = await createBusiness(t, { Name: 'Parallel B' });
      const results = await Promise.all(
        Array.from({ length: 60 }, (_, i) => t.post(PATH, minimal({ BusinessId: i % 2 ? b : a, BillToName: `Parallel ${i}` }))),
      );
      for (const res of results) assert.equal(res.status, 200, JSON.stringify(res.body));
      for (const owner of [a, b]) {
        const records = (await t.get(`${PATH}?Invoice_Business=${owner}&size=100`)).body.Records as Array<{ InvoiceNumber: string }>;
        const numbers = records.map((r) => Number(r.InvoiceNumber)).sort((x, y) => x - y);
        assert.deepEqual(
          numbers,
          Array.from({ length: 30 }, (_, i) => i + 1),
        );
      }
    });

    it(
      'two instances on one MySQL database share the series',
      { skip: !onMySql && 'one in-memory SQLite database cannot be shared' },
      async () => {
        const url = (t.db.dataSource.options as { url: string }).url;
        const second = await startApp({ DATABASE_URL: url });
        try {
          const shop = await createBusiness(t, { Name: 'Two instances' });
          const results = await Promise.all(
            Array.from({ length: 30 }, (_, i) => (i % 2 ? second : t).post(PATH, minimal({ BusinessId: shop }))),
          );
          for (const res of results) assert.equal(res.status, 200, JSON.stringify(res.body));
          const records = (await t.get(`${PATH}?Invoice_Business=${shop}&size=100`)).body.Records as Array<{ InvoiceNumber: string }>;
          assert.deepEqual(
            records.map((r) => Number(r.InvoiceNumber)).sort((x, y) => x - y),
            Array.from({ length: 30 }, (_, i) => i + 1),
          );
        } finally {
          await second.close();
        }
      },
    );

    it('a refused issuance uses up no number', async () => {
      const shop = await createBusiness(t, { Name: 'No gaps' });
      await create(t, PATH, minimal({ BusinessId: shop }));
      await refused(t, TABLES, 400, () => t.post(PATH, minimal({ BusinessId: shop, CurrencyId: 93001 })));
      const id = await create(t, PATH, minimal({ BusinessId: shop }));
      assert.equal((await t.get(`${PATH}/${id}`)).body.InvoiceNumber, '2');
    });

    it('a business with invoices cannot be deleted', async () => {
      const shop = await createBusiness(t, { Name: 'Keeps invoices' });
      await create(t, PATH, minimal({ BusinessId: shop }));
      const res = await refused(t, ['business', ...TABLES], 400, () => t.delete(`/api/sys/businesses/${shop}`));
      assert.equal(res.body.Message, `Business ${shop} cannot be deleted because Invoice records refer to it.`);
    });
  });
});

import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { createCoworkerInvoice } from './support/billing-fixtures.js';
import { countryId, create, createBusiness, createCoworker, currencyId } from './support/fixtures.js';
import {
  assertFields,
  createAndReadBack,
  deletesThenNotFound,
  eachRequiredFieldIsNamed,
  errorNames,
  putBackChangesNothing,
  refused,
  unknownIdIsNotFound,
  withoutUpdateStamp,
} from './support/record-checks.js';
import { appPerSuite, startApp } from './support/test-app.js';

const PATH = '/api/billing/coworkerinvoices';
const TABLES = ['coworkerinvoice', 'invoice_sequence'];
const REQUIRED = ['BusinessId', 'CoworkerId', 'CurrencyId'];

describe('customer invoices', () => {
  const t = appPerSuite();
  let business: number;
  let customer: number;
  let gbp: number;
  let eur: number;
  let uk: number;
  let fr: number;

  const customerFields = () => ({
    FullName: 'Ada Lovelace',
    CoworkerType: 2,
    CompanyName: 'Analytical Engines Ltd',
    BillingName: 'AE Ltd (accounts)',
    Address: '12 St James Sq',
    City: 'London',
    PostCode: 'SW1Y 4JH',
    CountryId: uk,
    TaxIDNumber: 'GB999',
    MobilePhone: '+44 7700 900000',
  });

  before(async () => {
    gbp = await currencyId(t, 'GBP');
    eur = await currencyId(t, 'EUR');
    uk = await countryId(t, 'GB');
    fr = await countryId(t, 'FR');
    business = await createBusiness(t);
    customer = await createCoworker(t, business, customerFields());
  });

  const minimal = (overrides: Record<string, unknown> = {}) => ({
    CoworkerId: customer,
    BusinessId: business,
    CurrencyId: gbp,
    ...overrides,
  });

  const everyField = (overrides: Record<string, unknown> = {}) => ({
    ...minimal(),
    Description: 'Membership, March',
    DueDate: '2025-03-31T00:00:00Z',
    InvoiceFromDate: '2025-03-01T00:00:00Z',
    InvoiceToDate: '2025-03-31T23:59:59Z',
    TotalAmount: 300.5,
    TaxAmount: 50.0833,
    DiscountAmount: 20,
    SystemId: 'inv-ext-3',
    ...overrides,
  });

  it('creates with every field, reads each back equal, with number, customer name, currency code and bill-to details captured', async () => {
    // Paid, PaidOn and Void are read-only (docs/api.md §10.1): ignored on create.
    const read = await createAndReadBack(t, PATH, 'CoworkerInvoice', everyField(), {
      InvoiceNumber: '42',
      BillToName: 'Forged',
      CurrencyCode: 'XXX',
      Paid: true,
      PaidOn: '2025-03-02T10:30:00Z',
      Void: true,
    });
    assertFields(read, { Paid: false, PaidOn: null, Void: false, PaidAmount: 0, DueAmount: 300.5 });
    assertFields(read, {
      InvoiceNumber: '1',
      CoworkerFullName: 'Ada Lovelace',
      CurrencyCode: 'GBP',
      BillToName: 'AE Ltd (accounts)',
      BillToAddress: '12 St James Sq',
      BillToCity: 'London',
      BillToPostCode: 'SW1Y 4JH',
      BillToTaxIDNumber: 'GB999',
      BillToPhone: '+44 7700 900000',
      BillToFax: null,
      BillToCountryId: uk,
      BillToCountryName: 'United Kingdom',
    });
    assert.equal(read.ToStringText, '1 - AE Ltd (accounts)');
  });

  it('BillToName is the billing name, else the company name, else the full name', async () => {
    const company = await createCoworker(t, business, { FullName: 'Grace Hopper', CompanyName: 'Cobol Co' });
    const person = await createCoworker(t, business, { FullName: 'Alan Turing' });
    const nameOf = async (coworker: number) => (await t.get(`${PATH}/${await createCoworkerInvoice(t, business, coworker)}`)).body;
    assert.equal((await nameOf(company)).BillToName, 'Cobol Co');
    const plain = await nameOf(person);
    assert.equal(plain.BillToName, 'Alan Turing');
    assert.equal(plain.BillToCountryId, null);
    assert.equal(plain.BillToCountryName, null);
  });

  describe('refusals change nothing', () => {
    it('required fields missing: 400 naming each, together and one by one, on create and update', async () => {
      const all = await refused(t, TABLES, 400, () => t.post(PATH, { TotalAmount: 1 }));
      assert.deepEqual(errorNames(all.body), REQUIRED);
      const id = await create(t, PATH, minimal());
      await eachRequiredFieldIsNamed(t, TABLES, REQUIRED, minimal, (body) => t.post(PATH, body));
      // Not a type of the source document: on update an absent required field keeps its value, an explicit null is refused (docs/api.md §1.2).
      for (const field of REQUIRED) {
        const res = await refused(t, TABLES, 400, () => t.put(PATH, { ...minimal(), Id: id, [field]: null }));
        assert.deepEqual(errorNames(res.body), [field], field);
      }
    });

    it('references that point at nothing, wrong types: 400 naming the field', async () => {
      const res = await refused(t, TABLES, 400, () => t.post(PATH, minimal({ CoworkerId: 92001, CurrencyId: 92002 })));
      assert.deepEqual(errorNames(res.body), ['CoworkerId', 'CurrencyId']);
      assert.equal(res.body.Message, 'CoworkerId: Coworker 92001 does not exist');
      const types = await refused(t, TABLES, 400, () =>
        t.post(PATH, minimal({ Void: 'no', PaidOn: '2025-02-30', DiscountAmount: 1.23456 })),
      );
      // Void and PaidOn are read-only since docs/api.md §10.1: ignored, whatever they hold.
      assert.deepEqual(errorNames(types.body), ['DiscountAmount']);
    });

    it("the customer must be a customer of the invoice's business", async () => {
      const other = await createBusiness(t, { Name: 'Elsewhere' });
      const res = await refused(t, TABLES, 400, () => t.post(PATH, minimal({ BusinessId: other })));
      assert.deepEqual(errorNames(res.body), ['CoworkerId']);
      const id = await create(t, PATH, minimal());
      const foreign = await createCoworker(t, other);
      const moved = await refused(t, TABLES, 400, () => t.put(PATH, minimal({ Id: id, CoworkerId: foreign })));
      assert.deepEqual(errorNames(moved.body), ['CoworkerId']);
      const business = await refused(t, TABLES, 400, () => t.put(PATH, minimal({ Id: id, BusinessId: other, CoworkerId: foreign })));
      assert.deepEqual(errorNames(business.body), ['BusinessId']);
    });

    it('unknown ids: 404 "Not found" on get, update and delete', async () => {
      await unknownIdIsNotFound(t, PATH, TABLES, minimal(), { id: 765432 });
    });
  });

  describe('update', () => {
    it('absent optional fields keep their value, explicit nulls clear them; the captured fields stay', async () => {
      const id = await create(t, PATH, everyField());
      const before = (await t.get(`${PATH}/${id}`)).body;
      const res = await t.put(PATH, {
        ...minimal({ Id: id }),
        TotalAmount: 310,
        Description: null,
        PaidOn: null,
        Void: null,
        BillToName: 'ignored',
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.Message, 'CoworkerInvoice was successfully updated.');
      const read = (await t.get(`${PATH}/${id}`)).body;
      assert.equal(read.TotalAmount, 310);
      assert.equal(read.Description, null);
      assert.equal(read.PaidOn, null);
      assert.equal(read.Void, false);
      for (const field of [
        'DueDate',
        'InvoiceFromDate',
        'InvoiceToDate',
        'TaxAmount',
        'DiscountAmount',
        'Paid',
        'SystemId',
        'InvoiceNumber',
        'BillToName',
        'CurrencyCode',
      ]) {
        assert.deepEqual(read[field], before[field], field);
      }
    });

    it('a GET body PUT back unchanged changes nothing', async () => {
      const id = await create(t, PATH, everyField());
      await putBackChangesNothing(t, PATH, id);
    });

    it("giving the invoice to another customer captures that customer's details; another currency its code", async () => {
      const id = await create(t, PATH, minimal());
      const other = await createCoworker(t, business, { FullName: 'Mary Somerville', City: 'Edinburgh', CountryId: fr });
      assert.equal((await t.put(PATH, minimal({ Id: id, CoworkerId: other, CurrencyId: eur }))).status, 200);
      const read = (await t.get(`${PATH}/${id}`)).body;
      assert.equal(read.CoworkerFullName, 'Mary Somerville');
      assert.equal(read.BillToName, 'Mary Somerville');
      assert.equal(read.BillToCity, 'Edinburgh');
      assert.equal(read.BillToCountryName, 'France');
      assert.equal(read.BillToAddress, null);
      assert.equal(read.CurrencyCode, 'EUR');
    });
  });

  describe('snapshot and numbering (docs/api.md §3.1)', () => {
    it('later changes to the customer, its country, the business and the currency do not change an issued invoice', async () => {
      const local = await startApp();
      try {
        const ids = { gbp: await currencyId(local, 'GBP'), uk: await countryId(local, 'GB'), fr: await countryId(local, 'FR') };
        const shop = await createBusiness(local, { Name: 'Snapshot works' });
        const person = { BusinessId: shop, Email: 'ada@example.com', ...customerFields(), CountryId: ids.uk };
        const coworker = await create(local, '/api/spaces/coworkers', person);
        const id = await createCoworkerInvoice(local, shop, coworker, { TotalAmount: 99 });
        const issued = (await local.get(`${PATH}/${id}`)).body;
        const edit = await local.put(`/api/spaces/coworkers/${coworker}`, {
          ...person,
          FullName: 'Ada King',
          CompanyName: 'New Co',
          BillingName: null,
          Address: '1 New Rd',
          City: 'Bath',
          PostCode: 'BA1',
          CountryId: ids.fr,
          TaxIDNumber: 'FR1',
          MobilePhone: '0',
        });
        assert.equal(edit.status, 200, JSON.stringify(edit.body));
        await local.put(`/api/sys/businesses/${shop}`, { Name: 'Renamed works', CurrencyId: ids.gbp, CountryId: ids.fr });
        await local.db.query(`UPDATE ${local.db.id('country')} SET ${local.db.id('Name')} = ? WHERE ${local.db.id('Id')} = ?`, [
          'Britain (renamed)',
          ids.uk,
        ]);
        await local.db.query(`UPDATE ${local.db.id('currency')} SET ${local.db.id('Code')} = ? WHERE ${local.db.id('Id')} = ?`, [
          'GBX',
          ids.gbp,
        ]);
        assert.deepEqual((await local.get(`${PATH}/${id}`)).body, issued);
        // Updating the invoice itself (same customer, same currency) does not refresh the snapshot either.
        assert.equal((await local.put(`${PATH}/${id}`, { ...issued, TotalAmount: 100 })).status, 200);
        const updated = (await local.get(`${PATH}/${id}`)).body;
        // What is due follows the new total (docs/api.md §10.1).
        assert.deepEqual({ ...withoutUpdateStamp(updated), TotalAmount: 99, DueAmount: 99 }, withoutUpdateStamp(issued));
        // The next invoice captures today's details.
        const next = (await local.get(`${PATH}/${await createCoworkerInvoice(local, shop, coworker)}`)).body;
        assert.equal(next.BillToName, 'New Co');
        assert.equal(next.CoworkerFullName, 'Ada King');
        assert.equal(next.BillToCountryName, 'France');
        assert.equal(next.CurrencyCode, 'GBX');
      } finally {
        await local.close();
      }
    });

    it("30 issued in parallel get 1..30; a deleted invoice's number is never given again; a series of its own", async () => {
      const shop = await createBusiness(t, { Name: 'Parallel customers' });
      const buyer = await createCoworker(t, shop);
      await create(t, '/api/billing/invoices', {
        BusinessId: shop,
        BillToName: 'x',
        BillToAddress: 'x',
        BillToCity: 'x',
        BillToPostCode: 'x',
        BillToCountryId: uk,
        CurrencyId: gbp,
      });
      const results = await Promise.all(Array.from({ length: 30 }, () => t.post(PATH, minimal({ BusinessId: shop, CoworkerId: buyer }))));
      for (const res of results) assert.equal(res.status, 200, JSON.stringify(res.body));
      const records = (await t.get(`${PATH}?CoworkerInvoice_Business=${shop}&size=100`)).body.Records as Array<{
        Id: number;
        InvoiceNumber: string;
      }>;
      assert.deepEqual(
        records.map((r) => Number(r.InvoiceNumber)).sort((a, b) => a - b),
        Array.from({ length: 30 }, (_, i) => i + 1),
      );
      const last = records.find((r) => r.InvoiceNumber === '30')!;
      assert.equal((await t.delete(`${PATH}/${last.Id}`)).status, 200);
      const next = await createCoworkerInvoice(t, shop, buyer);
      assert.equal((await t.get(`${PATH}/${next}`)).body.InvoiceNumber, '31');
    });
  });

  describe('delete', () => {
    it('deletes; then 404', async () => {
      const id = await create(t, PATH, minimal());
      await deletesThenNotFound(t, PATH, 'CoworkerInvoice', id, TABLES, minimal());
    });

    it('a customer with invoices cannot be deleted: 400 saying why, nothing removed', async () => {
      const buyer = await createCoworker(t, business);
      await createCoworkerInvoice(t, business, buyer);
      const res = await refused(t, ['coworker', ...TABLES], 400, () => t.delete(`/api/spaces/coworkers/${buyer}`));
      assert.equal(res.body.WasSuccessful, false);
      // Its invoice's INV entry (docs/settlement.md) refers to it too.
      assert.equal(
        res.body.Message,
        `Coworker ${buyer} cannot be deleted because CoworkerInvoice and CoworkerLedgerEntry records refer to it.`,
      );
    });

    it('an invoice with payment tokens cannot be deleted', async () => {
      const id = await create(t, PATH, minimal());
      await create(t, '/api/billing/coworkerinvoicepaymenttokens', { CoworkerInvoiceId: id, RegularPaymentProvider: 97 });
      const res = await refused(t, [...TABLES, 'coworkerinvoicepaymenttoken'], 400, () => t.delete(`${PATH}/${id}`));
      assert.equal(res.body.Message, `CoworkerInvoice ${id} cannot be deleted because CoworkerInvoicePaymentToken records refer to it.`);
    });
  });

  describe('lists', () => {
    it('filters by customer, by captured fields and by number', async () => {
      const buyer = await createCoworker(t, business, { FullName: 'Filter Person', City: 'Oxford' });
      const a = await createCoworkerInvoice(t, business, buyer);
      // Paid by a payment (docs/api.md §10.1).
      await create(t, '/api/billing/coworkerledgerentries', { BusinessId: business, CoworkerId: buyer, CoworkerInvoiceId: a, Credit: 120 });
      const b = await createCoworkerInvoice(t, business, buyer);
      const ids = async (query: string) => (await t.get(`${PATH}?${query}`)).body.Records.map((r: any) => r.Id);
      assert.deepEqual(await ids(`CoworkerInvoice_Coworker=${buyer}`), [a, b]);
      assert.deepEqual(await ids(`CoworkerInvoice_Coworker=${buyer}&CoworkerInvoice_Paid=true`), [a]);
      assert.deepEqual(await ids('CoworkerInvoice_BillToCity=oxford'), [a, b]);
      assert.deepEqual(await ids(`CoworkerInvoice_CoworkerFullName=filter person&orderBy=Id&dir=desc`), [b, a]);
    });
  });
});

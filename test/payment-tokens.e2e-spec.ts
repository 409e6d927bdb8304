import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { createCoworkerInvoice } from './support/billing-fixtures.js';
import { create, createBusiness, createCoworker } from './support/fixtures.js';
import {
  assertFields,
  createAndReadBack,
  deletesThenNotFound,
  errorNames,
  putBackChangesNothing,
  refused,
  unknownIdIsNotFound,
} from './support/record-checks.js';
import { appPerSuite } from './support/test-app.js';

const PATH = '/api/billing/coworkerinvoicepaymenttokens';
const TABLES = ['coworkerinvoicepaymenttoken'];
const PROVIDERS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 94, 95, 96, 97, 98, 99];

describe('customer invoice payment tokens', () => {
  const t = appPerSuite();
  let invoice: number;
  let otherInvoice: number;

  before(async () => {
    const business = await createBusiness(t);
    const customer = await createCoworker(t, business);
    invoice = await createCoworkerInvoice(t, business, customer);
    otherInvoice = await createCoworkerInvoice(t, business, customer);
  });

  const everyField = () => ({
    CoworkerInvoiceId: invoice,
    RegularPaymentProvider: 12,
    Token: 'tok_'.repeat(4000),
    Notes: 'Mandate signed 2025-01-10.',
    SystemId: 'gw-1',
  });

  it('creates with every field and reads each back equal, with the invoice number', async () => {
    const read = await createAndReadBack(t, PATH, 'CoworkerInvoicePaymentToken', everyField());
    assertFields(read, { InvoiceNumber: '1', ToStringText: 'Invoice 1 payment token' });
  });

  it('RegularPaymentProvider accepts exactly the codes of docs/api.md §9.5', async () => {
    for (const code of PROVIDERS) {
      const id = await create(t, PATH, { CoworkerInvoiceId: invoice, RegularPaymentProvider: code });
      assert.equal((await t.get(`${PATH}/${id}`)).body.RegularPaymentProvider, code);
    }
    for (const code of [0, 14, 50, 93, 100, -1, 1.5, '1', true]) {
      const res = await refused(t, TABLES, 400, () => t.post(PATH, { CoworkerInvoiceId: invoice, RegularPaymentProvider: code }));
      assert.deepEqual(errorNames(res.body), ['RegularPaymentProvider'], String(code));
      assert.deepEqual(res.body.Errors[0].AttemptedValue, code);
    }
    const none = await create(t, PATH, { CoworkerInvoiceId: invoice });
    assert.equal((await t.get(`${PATH}/${none}`)).body.RegularPaymentProvider, null);
  });

  describe('refusals change nothing', () => {
    it('CoworkerInvoiceId missing or pointing at nothing: 400 naming it, on create and update', async () => {
      const missing = await refused(t, TABLES, 400, () => t.post(PATH, { Token: 'x' }));
      assert.deepEqual(errorNames(missing.body), ['CoworkerInvoiceId']);
      const nowhere = await refused(t, TABLES, 400, () => t.post(PATH, { CoworkerInvoiceId: 93001 }));
      assert.equal(nowhere.body.Message, 'CoworkerInvoiceId: CoworkerInvoice 93001 does not exist');
      const id = await create(t, PATH, { CoworkerInvoiceId: invoice });
      const update = await refused(t, TABLES, 400, () => t.put(PATH, { Id: id, Token: 'y' }));
      assert.deepEqual(errorNames(update.body), ['CoworkerInvoiceId']);
    });

    it('text over its length: 400', async () => {
      const res = await refused(t, TABLES, 400, () => t.post(PATH, { CoworkerInvoiceId: invoice, Token: 'x'.repeat(65_536), Notes: 7 }));
      assert.deepEqual(errorNames(res.body), ['Notes', 'Token']);
    });

    it('unknown ids: 404 "Not found" on get, update and delete', async () => {
      await unknownIdIsNotFound(t, PATH, TABLES, { CoworkerInvoiceId: invoice }, { id: 765432 });
    });
  });

  describe('update (docs/api.md §9.5) and delete', () => {
    it('absent optional fields keep their value, explicit nulls clear them', async () => {
      const id = await create(t, PATH, everyField());
      const res = await t.put(PATH, { Id: id, CoworkerInvoiceId: otherInvoice, Token: null });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.Message, 'CoworkerInvoicePaymentToken was successfully updated.');
      const read = (await t.get(`${PATH}/${id}`)).body;
      assert.equal(read.CoworkerInvoiceId, otherInvoice);
      assert.equal(read.InvoiceNumber, '2');
      assert.equal(read.Token, null);
      assert.equal(read.RegularPaymentProvider, 12);
      assert.equal(read.Notes, everyField().Notes);
      assert.equal((await t.put(PATH, { Id: id, CoworkerInvoiceId: otherInvoice, RegularPaymentProvider: null })).status, 200);
      assert.equal((await t.get(`${PATH}/${id}`)).body.RegularPaymentProvider, null);
    });

    it('a GET body PUT back unchanged changes nothing', async () => {
      const id = await create(t, PATH, everyField());
      await putBackChangesNothing(t, PATH, id);
    });

    it('filters by invoice and provider', async () => {
      const a = await create(t, PATH, { CoworkerInvoiceId: otherInvoice, RegularPaymentProvider: 96 });
      const b = await create(t, PATH, { CoworkerInvoiceId: otherInvoice, RegularPaymentProvider: 95 });
      const ids = async (query: string) => (await t.get(`${PATH}?${query}`)).body.Records.map((r: any) => r.Id);
      assert.deepEqual(
        await ids(`CoworkerInvoicePaymentToken_CoworkerInvoice=${otherInvoice}&CoworkerInvoicePaymentToken_RegularPaymentProvider=96`),
        [a],
      );
      assert.deepEqual(
        await ids(`coworkerinvoicepaymenttoken_coworkerinvoice=${otherInvoice}&CoworkerInvoicePaymentToken_RegularPaymentProvider=95`),
        [b],
      );
    });

    it('deletes; then 404', async () => {
      const id = await create(t, PATH, { CoworkerInvoiceId: invoice });
      await deletesThenNotFound(t, PATH, 'CoworkerInvoicePaymentToken', id, TABLES, { CoworkerInvoiceId: invoice });
    });
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createCoworkerInvoice } from './support/billing-fixtures.js';
import { createBusinesses, createCoworker } from './support/fixtures.js';
import { refused } from './support/record-checks.js';
import { appPerSuite } from './support/test-app.js';

// The records billing adds or extends (docs/billing.md).
describe('Billing records', () => {
  const t = appPerSuite();

  it('invoice lines are read-only: list and get, 405 for every write', async () => {
    const list = await t.get('/api/billing/coworkerinvoicelines');
    assert.equal(list.status, 200);
    assert.equal(list.body.TotalItems, 0);
    for (const [method, path] of [
      ['POST', '/api/billing/coworkerinvoicelines'],
      ['PUT', '/api/billing/coworkerinvoicelines'],
      ['PUT', '/api/billing/coworkerinvoicelines/1'],
      ['DELETE', '/api/billing/coworkerinvoicelines/1'],
    ]) {
      const res = await refused(t, ['coworkerinvoiceline'], 405, () => t.request(method, path, { body: { Id: 1, Description: 'x' } }));
      assert.equal(res.body.WasSuccessful, false, `${method} ${path}`);
    }
    assert.equal((await t.get('/api/billing/coworkerinvoicelines/1')).status, 404);
    assert.equal((await t.get('/api/billing/coworkerinvoicelines?CoworkerInvoiceLine_CoworkerInvoice=1')).status, 200);
  });

  it('a customer invoice made through the API is due in full, with the settlement fields at their defaults, and filters on them', async () => {
    const [business] = await createBusinesses(t, 'Canal Works');
    const customer = await createCoworker(t, business);
    const id = await createCoworkerInvoice(t, business, customer, { TotalAmount: 120.5, PaidAmount: 99, Draft: true });
    const invoice = (await t.get(`/api/billing/coworkerinvoices/${id}`)).body;
    assert.deepEqual(
      {
        Draft: invoice.Draft,
        PaidAmount: invoice.PaidAmount,
        DueAmount: invoice.DueAmount,
        CreditNote: invoice.CreditNote,
        OriginalInvoiceGuid: invoice.OriginalInvoiceGuid,
        Refunded: invoice.Refunded,
        RefundedOn: invoice.RefundedOn,
        RefundedAmount: invoice.RefundedAmount,
        BusinessName: invoice.BusinessName,
      },
      {
        Draft: false,
        PaidAmount: 0,
        DueAmount: 120.5,
        CreditNote: false,
        OriginalInvoiceGuid: null,
        Refunded: false,
        RefundedOn: null,
        RefundedAmount: 0,
        BusinessName: 'Canal Works',
      },
    );
    const filtered = await t.get(
      `/api/billing/coworkerinvoices?CoworkerInvoice_CreditNote=false&CoworkerInvoice_Paid=false&CoworkerInvoice_Refunded=false&CoworkerInvoice_Draft=false&CoworkerInvoice_Void=false&from_CoworkerInvoice_DueAmount=120&to_CoworkerInvoice_PaidAmount=0&CoworkerInvoice_Business=${business}`,
    );
    assert.equal(filtered.status, 200, JSON.stringify(filtered.body));
    assert.deepEqual(
      filtered.body.Records.map((r: any) => r.Id),
      [id],
    );
    assert.equal((await t.get('/api/billing/coworkerinvoices?CoworkerInvoice_CreditNote=true')).body.TotalItems, 0);
    assert.equal((await t.get('/api/billing/coworkerinvoices?from_CoworkerInvoice_PaidOn=2020-01-01')).status, 200);
  });
});

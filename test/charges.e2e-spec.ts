import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { createUser } from './support/auth.js';
import { asPreviewLine, billRun, linesOf } from './support/billing-fixtures.js';
import { create, createBusinesses, createCoworker, currencyId } from './support/fixtures.js';
import { assertFields, createAndReadBack, errorNames, putBackChangesNothing, refused } from './support/record-checks.js';
import { appPerSuite, basicAuth } from './support/test-app.js';

const CHARGES = '/api/billing/charges';
const INVOICES = '/api/billing/coworkerinvoices';
/** Every table a charge write may change: a refused one leaves each as it was. */
const TABLES = ['charge', 'coworkerinvoice', 'coworkerinvoiceline', 'change_log'];

// Charges (docs/api.md §13.2, docs/billing.md "Charges"): ad-hoc amounts billed once by the next run.
describe('charges', () => {
  const t = appPerSuite();
  let business: number;
  let otherBusiness: number;
  let vat: number;
  let foreignVat: number;

  before(async () => {
    [business, otherBusiness] = await createBusinesses(t, 'Canal Works', 'Harbour Hub');
    vat = await create(t, '/api/sys/taxrates', { BusinessId: business, Name: 'VAT 20', Rate: 20 });
    foreignVat = await create(t, '/api/sys/taxrates', { BusinessId: otherBusiness, Name: 'Harbour VAT', Rate: 10 });
  });

  const customer = (name: string, at = business) => createCoworker(t, at, { FullName: name });
  const charge = (coworkerId: number, overrides: Record<string, unknown> = {}) =>
    create(t, CHARGES, {
      BusinessId: business,
      CoworkerId: coworkerId,
      Description: 'Printing',
      TotalAmount: 12.5,
      SaleDate: '2027-05-03',
      ...overrides,
    });
  const read = async (id: number) => (await t.get(`${CHARGES}/${id}`)).body;

  it('reads back with every field, CoworkerFullName; Invoiced false, CreditAmount 0; SaleDate defaults to now', async () => {
    const who = await customer('Ada Charged');
    const record = await createAndReadBack(
      t,
      CHARGES,
      'Charge',
      {
        BusinessId: business,
        CoworkerId: who,
        Description: 'Locker key',
        TotalAmount: 7.25,
        InvoiceLineDisplayAs: 'Locker key replacement',
        TaxRateId: vat,
        SaleDate: '2027-05-02T00:00:00Z',
        DueDate: '2027-05-20T00:00:00Z',
        PurchaseOrder: 'PO-7',
      },
      { Invoiced: true, CoworkerInvoiceId: 99, CreditAmount: 3 },
    );
    assertFields(record, { CoworkerFullName: 'Ada Charged', Invoiced: false, InvoicedOn: null, CoworkerInvoiceId: null, CreditAmount: 0 });
    const now = await read(await create(t, CHARGES, { BusinessId: business, CoworkerId: who, Description: 'Coffee', TotalAmount: 2 }));
    assert.ok(Math.abs(Date.parse(now.SaleDate) - Date.now()) < 60_000, now.SaleDate);
    await putBackChangesNothing(t, CHARGES, record.Id);
  });

  it('400s naming the field, nothing stored: missing fields, TotalAmount 0 or less, a customer or tax rate of another business, a SaleDate out of bounds', async () => {
    const who = await customer('Refused charge');
    const stranger = await customer('Harbour customer', otherBusiness);
    const valid = { BusinessId: business, CoworkerId: who, Description: 'Printing', TotalAmount: 5 };
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [{ ...valid, Description: undefined, TotalAmount: undefined }, ['Description', 'TotalAmount']],
      [{ ...valid, CoworkerId: undefined }, ['CoworkerId']],
      [{ ...valid, TotalAmount: 0 }, ['TotalAmount']],
      [{ ...valid, TotalAmount: -3 }, ['TotalAmount']],
      [{ ...valid, CoworkerId: stranger }, ['CoworkerId']],
      [{ ...valid, TaxRateId: foreignVat }, ['TaxRateId']],
      [{ ...valid, SaleDate: '1999-12-31' }, ['SaleDate']],
    ];
    for (const [body, names] of cases)
      assert.deepEqual(errorNames((await refused(t, TABLES, 400, () => t.post(CHARGES, body))).body), names, JSON.stringify(body));
  });

  it('filters Charge_Coworker and Charge_Invoiced', async () => {
    const who = await customer('Filtered charges');
    const first = await charge(who);
    const second = await charge(who, { SaleDate: '2027-06-10' });
    await billRun(t, [who], '2027-05-31');
    const list = async (query: string) => ((await t.get(`${CHARGES}?${query}&orderBy=Id`)).body.Records as any[]).map((c) => c.Id);
    assert.deepEqual(await list(`Charge_Coworker=${who}`), [first, second]);
    assert.deepEqual(await list(`Charge_Coworker=${who}&Charge_Invoiced=true`), [first]);
    assert.deepEqual(await list(`Charge_Coworker=${who}&Charge_Invoiced=false`), [second]);
  });

  it('is due by SaleDate ≤ Until: one line (InvoiceLineDisplayAs, else Description; its tax rate; the sale date), billed once, then Invoiced with its invoice', async () => {
    const who = await customer('Billed charges');
    const displayed = await charge(who, {
      TotalAmount: 12.5,
      TaxRateId: vat,
      InvoiceLineDisplayAs: 'Printing (May)',
      SaleDate: '2027-05-03T15:30:00Z',
    });
    const plain = await charge(who, { Description: 'Postage', TotalAmount: 3.2, SaleDate: '2027-05-04' });
    const later = await charge(who, { SaleDate: '2027-05-06' });
    const preview = await billRun(t, [who], '2027-05-05', true);
    const made = await billRun(t, [who], '2027-05-05');
    assert.equal(made.body.WasSuccessful, true, JSON.stringify(made.body));
    assert.equal(made.body.Value.length, 1);
    const invoice = made.body.Value[0];
    const lines = await linesOf(t, invoice.Id);
    assert.deepEqual(lines.map(asPreviewLine), preview.body.Value[0].Lines, 'the preview showed exactly these lines');
    assert.deepEqual(
      lines.map((l) => [
        l.Description,
        l.Quantity,
        l.UnitPrice,
        l.SubTotal,
        l.TaxRateId,
        l.TaxRate,
        l.TaxAmount,
        l.TotalAmount,
        l.PeriodFrom,
        l.PeriodTo,
        l.CoworkerChargeUniqueId,
        l.CreditAmount,
      ]),
      [
        [
          'Printing (May)',
          1,
          12.5,
          12.5,
          vat,
          20,
          2.5,
          15,
          '2027-05-03T00:00:00Z',
          '2027-05-03T00:00:00Z',
          (await read(displayed)).UniqueId,
          0,
        ],
        ['Postage', 1, 3.2, 3.2, null, 0, 0, 3.2, '2027-05-04T00:00:00Z', '2027-05-04T00:00:00Z', (await read(plain)).UniqueId, 0],
      ],
    );
    assert.equal(invoice.TotalAmount, 18.2);
    for (const id of [displayed, plain]) {
      const record = await read(id);
      assertFields(record, { Invoiced: true, CoworkerInvoiceId: invoice.Id, CreditAmount: 0 });
      assert.ok(record.InvoicedOn);
    }
    assertFields(await read(later), { Invoiced: false, CoworkerInvoiceId: null });
    assert.deepEqual((await billRun(t, [who], '2027-05-05')).body.Value, [], 'billed once');
  });

  it('parallel runs bill a charge once', async () => {
    const who = await customer('Raced charge');
    const id = await charge(who);
    const answers = await Promise.all(Array.from({ length: 6 }, () => billRun(t, [who], '2027-05-31')));
    assert.deepEqual(
      answers.map((a) => a.status),
      answers.map(() => 200),
    );
    assert.equal(answers.flatMap((a) => a.body.Value).length, 1, JSON.stringify(answers.map((a) => a.body)));
    const lines = await t.db.query(
      `SELECT COUNT(*) AS n FROM ${t.db.id('coworkerinvoiceline')} WHERE ${t.db.id('CoworkerChargeUniqueId')} = ?`,
      [(await read(id)).UniqueId],
    );
    assert.equal(Number(lines[0].n), 1);
  });

  it('an invoiced charge: no delete (400, nothing removed), no change of CoworkerId, TotalAmount, TaxRateId or SaleDate (400 naming it); other fields change', async () => {
    const who = await customer('Invoiced charge');
    const other = await customer('Other payer');
    const id = await charge(who, { TaxRateId: vat });
    await billRun(t, [who], '2027-05-31');
    for (const change of [{ CoworkerId: other }, { TotalAmount: 13 }, { TaxRateId: null }, { SaleDate: '2027-05-04' }]) {
      assert.deepEqual(errorNames((await refused(t, TABLES, 400, () => t.put(`${CHARGES}/${id}`, change))).body), Object.keys(change));
    }
    assert.match((await refused(t, TABLES, 400, () => t.delete(`${CHARGES}/${id}`))).body.Message, /billed/);
    assert.equal((await t.put(`${CHARGES}/${id}`, { PurchaseOrder: 'PO-9', Description: 'Printing, revised' })).status, 200);
    await putBackChangesNothing(t, CHARGES, id);
    const unbilled = await charge(who, { SaleDate: '2027-07-01' });
    assert.equal((await t.put(`${CHARGES}/${unbilled}`, { TotalAmount: 20, CoworkerId: other })).status, 200);
    assert.equal((await t.delete(`${CHARGES}/${unbilled}`)).status, 200);
  });

  it('COWORKER_INVOICE_DELETE makes it due again: Invoiced false; the next run bills it on a new invoice', async () => {
    const who = await customer('Re-billed charge');
    const id = await charge(who);
    const first = (await billRun(t, [who], '2027-05-31')).body.Value[0];
    const deleted = await t.post(`${INVOICES}/runcommand`, { Key: 'COWORKER_INVOICE_DELETE', Ids: [first.Id] });
    assert.equal(deleted.body.WasSuccessful, true, JSON.stringify(deleted.body));
    assertFields(await read(id), { Invoiced: false, InvoicedOn: null, CoworkerInvoiceId: null });
    const second = (await billRun(t, [who], '2027-05-31')).body.Value[0];
    assert.ok(second && second.Id !== first.Id, JSON.stringify(second));
    assertFields(await read(id), { Invoiced: true, CoworkerInvoiceId: second.Id });
  });

  it('roles Charge-*, scoped by business (401 outside)', async () => {
    const email = `charger.${Date.now()}@example.com`;
    await createUser(t, {
      Email: email,
      Roles: ['Charge-Create', 'Charge-Read', 'Charge-List'],
      Businesses: [business],
      FullName: 'Charger',
      IsAdmin: false,
    });
    const auth = basicAuth(email, 'correct horse battery');
    const mine = await customer('Scoped charge');
    const stranger = await customer('Harbour stranger', otherBusiness);
    const made = await t.post(CHARGES, { BusinessId: business, CoworkerId: mine, Description: 'Scoped', TotalAmount: 4 }, { auth });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    await refused(t, TABLES, 401, () =>
      t.post(CHARGES, { BusinessId: otherBusiness, CoworkerId: stranger, Description: 'Outside', TotalAmount: 4 }, { auth }),
    );
    const foreign = await create(t, CHARGES, {
      BusinessId: otherBusiness,
      CoworkerId: stranger,
      Description: 'Theirs',
      TotalAmount: 4,
      CurrencyId: await currencyId(t, 'GBP'),
    });
    assert.equal((await t.get(`${CHARGES}/${foreign}`, { auth })).status, 401);
    assert.equal((await t.delete(`${CHARGES}/${made.body.Value.Id}`, { auth })).status, 401, 'no Charge-Delete role');
  });
});

import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { passwordToken } from './support/auth.js';
import { create, createBusinesses, createTariff, currencyId } from './support/fixtures.js';
import { refused, withoutUpdateStamp } from './support/record-checks.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, appPerSuite, type HttpResponse } from './support/test-app.js';

// Record bodies sent form-encoded, as some of the platform's clients send them: converted field by
// field by the record type's declared rules, then validated and answered exactly as the same JSON.

const PRODUCTS = '/api/billing/products';
const COWORKERS = '/api/spaces/coworkers';
const EVENTS = '/api/content/calendarevents';

/** A form body; a list value becomes a repeated key. */
function encode(fields: Record<string, string | string[]>): string {
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) for (const item of Array.isArray(value) ? value : [value]) form.append(name, item);
  return form.toString();
}

/** A record as both bodies must leave it: without what differs between any two records. */
function comparable(record: Record<string, unknown>): Record<string, unknown> {
  const { Id: _id, UniqueId: _uid, CreatedOn: _c, ...rest } = withoutUpdateStamp(record);
  return rest;
}

/** An answer without the moment it was given. */
const answer = (res: Pick<HttpResponse, 'status' | 'body'>) => ({
  status: res.status,
  ...res.body,
  UpdatedOn: undefined,
  Value: res.body?.Value ? 'set' : res.body?.Value,
});

describe('form-encoded record bodies', () => {
  const t = appPerSuite();
  let business: number;
  let gbp: number;
  let tariffs: number[];
  let taxRate: number;

  before(async () => {
    [business] = await createBusinesses(t, 'Canal Works');
    gbp = await currencyId(t, 'GBP');
    tariffs = [await createTariff(t, business, { Name: 'A' }), await createTariff(t, business, { Name: 'B' })];
    taxRate = await create(t, '/api/sys/taxrates', { BusinessId: business, Name: 'VAT', Rate: 20 });
  });

  const sendForm = (method: string, path: string, fields: Record<string, string | string[]>) =>
    t.request(method, path, { raw: { contentType: 'application/x-www-form-urlencoded', data: encode(fields) } });

  const productForm = () => ({
    BusinessId: String(business),
    Name: 'Locker',
    SystemProductType: '1',
    Description: 'A locker',
    DisplayOrder: '3',
    Price: '12.5',
    CurrencyId: String(gbp),
    AvailableAs: '3',
    Visible: 'FALSE',
    TrackStock: 'True',
    CurrentStock: '7',
    StockAlertLevel: '',
    Tariffs: tariffs.map(String),
    ElegibleUnknownField: 'dropped',
    TaxRateId: String(taxRate),
    Notes: 'ignored (not a product field)',
  });
  const productJson = () => ({
    BusinessId: business,
    Name: 'Locker',
    SystemProductType: 1,
    Description: 'A locker',
    DisplayOrder: 3,
    Price: 12.5,
    CurrencyId: gbp,
    AvailableAs: 3,
    Visible: false,
    TrackStock: true,
    CurrentStock: 7,
    StockAlertLevel: null,
    Tariffs: tariffs,
    TaxRateId: taxRate,
  });

  it('create: the same answer and the same record as the JSON body; id lists as repeated keys or one comma-separated value', async () => {
    const viaForm = await sendForm('POST', PRODUCTS, productForm());
    const viaJson = await t.post(PRODUCTS, productJson());
    assert.equal(viaForm.status, 200, JSON.stringify(viaForm.body));
    assert.deepEqual(answer(viaForm), answer(viaJson));
    const formRecord = (await t.get(`${PRODUCTS}/${viaForm.body.Value.Id}`)).body;
    const jsonRecord = (await t.get(`${PRODUCTS}/${viaJson.body.Value.Id}`)).body;
    assert.deepEqual(comparable(formRecord), comparable(jsonRecord));
    assert.deepEqual(
      formRecord.Tariffs,
      [...tariffs].sort((a, b) => a - b),
    );
    assert.equal(formRecord.Visible, false);
    assert.equal(formRecord.TrackStock, true);

    const commas = await sendForm('POST', PRODUCTS, { ...productForm(), Tariffs: tariffs.join(',') });
    assert.deepEqual((await t.get(`${PRODUCTS}/${commas.body.Value.Id}`)).body.Tariffs, formRecord.Tariffs);
  });

  it('the same 400s as JSON, naming the same fields with the same messages; nothing is written', async () => {
    const cases: Array<[Record<string, string | string[]>, Record<string, unknown>]> = [
      [{ Price: 'twelve' }, { Price: 'twelve' }],
      [{ DisplayOrder: '1.5' }, { DisplayOrder: 1.5 }],
      [{ Visible: 'yes' }, { Visible: 'yes' }],
      [{ AvailableAs: '99' }, { AvailableAs: 99 }],
      [{ Tariffs: ['1', 'x'] }, { Tariffs: [1, 'x'] }],
      [{ Tariffs: '987654' }, { Tariffs: [987654] }],
      [{ BusinessId: '987654' }, { BusinessId: 987654 }],
      [{ Name: '' }, { Name: '' }],
      [{ Price: '' }, { Price: null }],
    ];
    for (const [formFields, jsonFields] of cases) {
      const viaForm = await refused(t, ['product', 'product_tariff'], 400, () =>
        sendForm('POST', PRODUCTS, { ...productForm(), ...formFields }),
      );
      const viaJson = await t.post(PRODUCTS, { ...productJson(), ...jsonFields });
      assert.deepEqual(answer(viaForm), answer(viaJson), JSON.stringify(formFields));
    }
    // Required fields left out are named as in JSON.
    const { Name: _n, Price: _p, ...withoutTwo } = productForm();
    const { Name: _jn, Price: _jp, ...jsonWithoutTwo } = productJson();
    assert.deepEqual(answer(await sendForm('POST', PRODUCTS, withoutTwo)), answer(await t.post(PRODUCTS, jsonWithoutTwo)));
  });

  it("update by form: absent fields keep their value, an empty number clears it, and the row equals the JSON update's", async () => {
    const a = await create(t, PRODUCTS, { ...productJson(), StockAlertLevel: 2, InvoiceLineDisplayAs: 'Locker rent' });
    const b = await create(t, PRODUCTS, { ...productJson(), StockAlertLevel: 2, InvoiceLineDisplayAs: 'Locker rent' });
    const formFields = {
      Id: String(a),
      BusinessId: String(business),
      Name: 'Big locker',
      SystemProductType: '1',
      Description: 'A big locker',
      DisplayOrder: '3',
      Price: '15',
      CurrencyId: String(gbp),
      AvailableAs: '3',
      StockAlertLevel: '',
      Archived: 'true',
      Tariffs: '',
    };
    const viaForm = await sendForm('PUT', PRODUCTS, formFields);
    const viaJson = await t.put(`${PRODUCTS}/${b}`, {
      BusinessId: business,
      Name: 'Big locker',
      SystemProductType: 1,
      Description: 'A big locker',
      DisplayOrder: 3,
      Price: 15,
      CurrencyId: gbp,
      AvailableAs: 3,
      StockAlertLevel: null,
      Archived: true,
      Tariffs: null,
    });
    assert.equal(viaForm.status, 200, JSON.stringify(viaForm.body));
    assert.deepEqual(answer(viaForm), answer(viaJson));
    const formRecord = (await t.get(`${PRODUCTS}/${a}`)).body;
    assert.deepEqual(comparable(formRecord), comparable((await t.get(`${PRODUCTS}/${b}`)).body));
    assert.equal(formRecord.StockAlertLevel, null);
    assert.equal(formRecord.InvoiceLineDisplayAs, 'Locker rent', 'absent: kept');
    assert.deepEqual(formRecord.Tariffs, []);
    assert.equal(formRecord.Archived, true);

    const badId = await refused(t, ['product'], 400, () => sendForm('PUT', PRODUCTS, { ...formFields, Id: 'abc' }));
    assert.equal(badId.body.Message, 'Id: Id must be a positive integer id.');
    const { Id: _id, ...withoutId } = formFields;
    assert.equal((await sendForm('PUT', `${PRODUCTS}/987654`, withoutId)).body, 'Not found');
  });

  it("customers as the platform's clients send them: AddedBusinesses, dates and flags as text, the same rows as JSON", async () => {
    const form = await sendForm('POST', COWORKERS, {
      AddedBusinesses: String(business),
      FullName: 'Frances Form',
      Email: 'frances@example.com',
      CoworkerType: '1',
      KeyFobNumber: '00123',
      TariffId: String(tariffs[0]),
      CreateUser: 'false',
    });
    assert.equal(form.status, 200, JSON.stringify(form.body));
    const read = (await t.get(`${COWORKERS}/${form.body.Value.Id}`)).body;
    assert.equal(read.BusinessId, business);
    assert.equal(read.KeyFobNumber, '00123', 'text stays text');
    assert.equal(read.TariffId, tariffs[0]);
    assert.equal(read.ActiveContract, true);
    const update = await sendForm('PUT', `${COWORKERS}/${read.Id}`, {
      BusinessId: String(business),
      FullName: 'Frances Form',
      Email: 'frances@example.com',
      AccessPincode: '4321',
      CoworkerType: '',
    });
    assert.equal(update.status, 200, JSON.stringify(update.body));
    const updated = (await t.get(`${COWORKERS}/${read.Id}`)).body;
    assert.equal(updated.AccessPincode, '4321');
    assert.equal(updated.CoworkerType, null);
    assert.equal(updated.KeyFobNumber, '00123');

    const event = await sendForm('POST', EVENTS, {
      BusinessId: String(business),
      Name: 'Demo night',
      StartDate: '2030-01-15T18:00',
      EndDate: '2030-01-15',
      Allocation: '20',
      EnableWaitList: 'TRUE',
      PublishDate: '',
    });
    assert.equal(event.status, 400, 'EndDate before StartDate is refused as in JSON');
    const created = await sendForm('POST', EVENTS, {
      BusinessId: String(business),
      Name: 'Demo night',
      StartDate: '2030-01-15T18:00',
      EndDate: '2030-01-15T21:00:00+01:00',
      Allocation: '20',
      EnableWaitList: 'TRUE',
      PublishDate: '',
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const stored = (await t.get(`${EVENTS}/${created.body.Value.Id}`)).body;
    assert.deepEqual(
      [stored.StartDate, stored.EndDate, stored.Allocation, stored.EnableWaitList, stored.PublishDate],
      ['2030-01-15T18:00:00Z', '2030-01-15T20:00:00Z', 20, true, null],
    );
    const badDate = await refused(t, ['calendarevent'], 400, () =>
      sendForm('POST', EVENTS, { BusinessId: String(business), Name: 'x', StartDate: '15/01/2030', EndDate: '2030-01-16' }),
    );
    assert.deepEqual(
      answer(badDate),
      answer(await t.post(EVENTS, { BusinessId: business, Name: 'x', StartDate: '15/01/2030', EndDate: '2030-01-16' })),
    );
  });

  it('other content types are still 415, and the token endpoint keeps its own form', async () => {
    const text = await refused(t, ['product'], 415, () =>
      t.request('POST', PRODUCTS, { raw: { contentType: 'text/plain', data: encode(productForm()) } }),
    );
    assert.equal(text.body.Status, 415);
    const token = await passwordToken(t, ADMIN_EMAIL, ADMIN_PASSWORD);
    assert.ok(token.access_token);
  });
});

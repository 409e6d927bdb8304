import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { createUser } from './support/auth.js';
import { createProduct } from './support/billing-fixtures.js';
import { create, createBusinesses, createCoworker } from './support/fixtures.js';
import { ADMIN_EMAIL, appPerSuite, basicAuth } from './support/test-app.js';

const PRODUCTS = '/api/billing/products';
const PASSWORD = 'correct horse battery';

describe('change history (GET …/{id}/history)', () => {
  const t = appPerSuite();
  let business: number;
  let otherBusiness: number;

  before(async () => {
    [business, otherBusiness] = await createBusinesses(t, 'Canal Works', 'Harbour Hub');
  });

  const history = (path: string, options?: { auth?: string }) => t.get(`${path}/history`, options);

  it('records create, update and delete with actor, request id and the changed fields, newest first', async () => {
    const created = await t.post(
      PRODUCTS,
      {
        BusinessId: business,
        Name: 'Day pass',
        SystemProductType: 1,
        Description: 'One day',
        DisplayOrder: 0,
        Price: 25,
        CurrencyId: (await t.get(`/api/sys/businesses/${business}`)).body.CurrencyId,
        AvailableAs: 3,
      },
      { headers: { 'X-Request-Id': 'create-req-1' } },
    );
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const id = created.body.Value.Id;
    const updated = await t.put(
      `${PRODUCTS}/${id}`,
      { ...(await t.get(`${PRODUCTS}/${id}`)).body, Price: 30.5, Name: 'Day pass (new)' },
      { headers: { 'X-Request-Id': 'update-req-2' } },
    );
    assert.equal(updated.status, 200);
    const unchanged = await t.put(`${PRODUCTS}/${id}`, (await t.get(`${PRODUCTS}/${id}`)).body);
    assert.equal(unchanged.status, 200);
    const deleted = await t.delete(`${PRODUCTS}/${id}`);
    assert.equal(deleted.status, 200);

    const res = await history(`${PRODUCTS}/${id}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.TotalItems, 4);
    const [del, same, upd, cre] = res.body.Records;
    assert.deepEqual(
      res.body.Records.map((e: any) => e.Action),
      ['Delete', 'Update', 'Update', 'Create'],
    );
    for (const entry of res.body.Records) {
      assert.equal(entry.Entity, 'Product');
      assert.equal(entry.RecordId, id);
      assert.equal(entry.By, ADMIN_EMAIL);
      assert.match(entry.On, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    }
    assert.equal(cre.RequestId, 'create-req-1');
    assert.equal(upd.RequestId, 'update-req-2');
    // A request without its own id is recorded with the one the service assigned and answered with.
    assert.equal(del.RequestId, deleted.headers.get('x-request-id'));
    const field = (entry: any, name: string) => entry.Changes.find((c: any) => c.Field === name);
    assert.deepEqual(field(cre, 'Name'), { Field: 'Name', From: null, To: 'Day pass' });
    assert.deepEqual(field(cre, 'Price'), { Field: 'Price', From: null, To: 25 });
    assert.equal(field(cre, 'SystemId'), undefined, 'a field not set is not listed on create');
    assert.deepEqual(
      upd.Changes.sort((a: any, b: any) => a.Field.localeCompare(b.Field)),
      [
        { Field: 'Name', From: 'Day pass', To: 'Day pass (new)' },
        { Field: 'Price', From: 25, To: 30.5 },
      ],
    );
    assert.deepEqual(same.Changes, []);
    assert.deepEqual(del.Changes, []);
    // Paging: newest first, the envelope of any list.
    const page2 = (await t.get(`${PRODUCTS}/${id}/history?page=2&size=3`)).body;
    assert.deepEqual(
      page2.Records.map((e: any) => e.Action),
      ['Create'],
    );
    assert.equal(page2.TotalPages, 2);
    assert.equal(page2.HasPreviousPage, true);
  });

  it('an id that never existed is 404; a record from before the log has an empty history', async () => {
    assert.equal((await history(`${PRODUCTS}/999999`)).status, 404);
    assert.equal((await history(`${PRODUCTS}/abc`)).status, 404);
    const id = await createProduct(t, business);
    await t.db.query(`DELETE FROM ${t.db.id('change_log')} WHERE ${t.db.id('Entity')} = 'Product' AND ${t.db.id('RecordId')} = ?`, [id]);
    const res = await history(`${PRODUCTS}/${id}`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.Records, []);
  });

  it('a client request id of up to 128 plain characters is kept; anything else is replaced', async () => {
    const long = 'r'.repeat(128);
    const id = (await t.post('/api/content/surveys', { BusinessId: business, Name: 'Kept' }, { headers: { 'X-Request-Id': long } })).body
      .Value.Id;
    assert.equal((await history(`/api/content/surveys/${id}`)).body.Records[0].RequestId, long);
    const res = await t.post(
      '/api/content/surveys',
      { BusinessId: business, Name: 'Replaced' },
      { headers: { 'X-Request-Id': 'has spaces/and slashes' } },
    );
    const entry = (await history(`/api/content/surveys/${res.body.Value.Id}`)).body.Records[0];
    assert.equal(entry.RequestId, res.headers.get('x-request-id'));
    assert.notEqual(entry.RequestId, 'has spaces/and slashes');
  });

  it('write-only fields are named, never their values', async () => {
    const id = await createUser(t, {
      Email: 'writer@example.com',
      Password: PASSWORD,
      TwoFactorSecret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
    });
    await t.put(`/api/sys/users/${id}`, { Email: 'writer@example.com', FullName: 'Test User', Password: 'another long password' });
    const res = await history(`/api/sys/users/${id}`);
    const [upd, cre] = res.body.Records;
    assert.deepEqual(
      cre.Changes.filter((c: any) => ['Password', 'TwoFactorSecret'].includes(c.Field)),
      [
        { Field: 'Password', From: null, To: null },
        { Field: 'TwoFactorSecret', From: null, To: null },
      ],
    );
    assert.deepEqual(
      upd.Changes.find((c: any) => c.Field === 'Password'),
      { Field: 'Password', From: null, To: null },
    );
    const stored = JSON.stringify(await t.rows('change_log'));
    assert.ok(!stored.includes(PASSWORD) && !stored.includes('another long password') && !stored.includes('JBSWY3DPEHPK3PXP'));
  });

  it("records a sale's side effects: the product's stock change and the credits it releases, and their removal", async () => {
    const product = await createProduct(t, business, { TrackStock: true, CurrentStock: 10 });
    await create(t, '/api/billing/productbookingcredits', { Name: 'Meeting room hours', ProductId: product, Credit: 2 });
    const customer = await createCoworker(t, business);
    const sale = await t.post(
      '/api/billing/coworkerproducts',
      { CoworkerId: customer, ProductId: product, Quantity: 3 },
      { headers: { 'X-Request-Id': 'sale-1' } },
    );
    assert.equal(sale.status, 200);
    const stock = (await history(`${PRODUCTS}/${product}`)).body.Records[0];
    assert.equal(stock.Action, 'Update');
    assert.equal(stock.RequestId, 'sale-1');
    assert.deepEqual(stock.Changes, [{ Field: 'CurrentStock', From: 10, To: 7 }]);
    const credits = (await t.get(`/api/billing/coworkerbookingcredits?CoworkerBookingCredit_Coworker=${customer}`)).body.Records;
    assert.equal(credits.length, 1);
    const released = (await history(`/api/billing/coworkerbookingcredits/${credits[0].Id}`)).body.Records;
    assert.deepEqual(
      released.map((e: any) => [e.Action, e.RequestId]),
      [['Create', 'sale-1']],
    );
    assert.ok(released[0].Changes.some((c: any) => c.Field === 'TotalCredit' && c.To === 6));
    assert.equal((await t.delete(`/api/billing/coworkerproducts/${sale.body.Value.Id}`)).status, 200);
    const removed = (await history(`/api/billing/coworkerbookingcredits/${credits[0].Id}`)).body.Records;
    assert.deepEqual(
      removed.map((e: any) => e.Action),
      ['Delete', 'Create'],
    );
    // Invoice numbers are part of the issued invoice's own entry.
    const invoice = await create(t, '/api/billing/coworkerinvoices', {
      BusinessId: business,
      CoworkerId: customer,
      CurrencyId: (await t.get(`/api/sys/businesses/${business}`)).body.CurrencyId,
      TotalAmount: 10,
    });
    const issued = (await history(`/api/billing/coworkerinvoices/${invoice}`)).body.Records[0];
    assert.ok(issued.Changes.some((c: any) => c.Field === 'InvoiceNumber' && c.From === null && typeof c.To === 'string'));
  });

  it('a refused (rolled-back) write records nothing', async () => {
    const product = await createProduct(t, business, { TrackStock: true, CurrentStock: 1 });
    const customer = await createCoworker(t, business);
    const before = (await t.rows('change_log')).length;
    const res = await t.post('/api/billing/coworkerproducts', { CoworkerId: customer, ProductId: product, Quantity: 5 });
    assert.equal(res.status, 400);
    assert.equal((await t.rows('change_log')).length, before);
    assert.equal((await history(`${PRODUCTS}/${product}`)).body.TotalItems, 1);
  });

  it('needs the Read role and follows business scoping by the business of each entry', async () => {
    const product = await createProduct(t, business, { Name: 'Moves' });
    await t.put(`${PRODUCTS}/${product}`, { ...(await t.get(`${PRODUCTS}/${product}`)).body, BusinessId: otherBusiness });
    const reader = async (email: string, roles: string[], businesses: number[]) => {
      await createUser(t, { Email: email, Password: PASSWORD, Roles: roles, Businesses: businesses });
      return basicAuth(email, PASSWORD);
    };
    const first = await reader('first@example.com', ['Product-Read'], [business]);
    const second = await reader('second@example.com', ['Product-Read'], [otherBusiness]);
    const lister = await reader('lister@example.com', ['Product-List'], [business, otherBusiness]);
    const firstSees = await history(`${PRODUCTS}/${product}`, { auth: first });
    assert.equal(firstSees.status, 200);
    assert.deepEqual(
      firstSees.body.Records.map((e: any) => e.Action),
      ['Create'],
    );
    const secondSees = await history(`${PRODUCTS}/${product}`, { auth: second });
    assert.deepEqual(
      secondSees.body.Records.map((e: any) => e.Action),
      ['Update'],
    );
    assert.equal((await history(`${PRODUCTS}/${product}`, { auth: lister })).status, 401);
    const foreign = await createProduct(t, otherBusiness);
    assert.equal((await history(`${PRODUCTS}/${foreign}`, { auth: first })).status, 401);
    // A deleted record's history stays readable, to those who could see it.
    assert.equal((await t.delete(`${PRODUCTS}/${foreign}`)).status, 200);
    assert.deepEqual(
      (await history(`${PRODUCTS}/${foreign}`, { auth: second })).body.Records.map((e: any) => e.Action),
      ['Delete', 'Create'],
    );
    assert.equal((await history(`${PRODUCTS}/${foreign}`, { auth: first })).status, 401);
  });

  it('every record type has a history, including records made through a parent (a customer login)', async () => {
    const coworker = await createCoworker(t, business, { Email: 'login@example.com', CreateUser: true, Password: PASSWORD });
    assert.equal((await history(`/api/spaces/coworkers/${coworker}`)).body.Records[0].Action, 'Create');
    const login = (await t.get('/api/sys/users?User_Email=login@example.com')).body.Records[0];
    const entry = (await history(`/api/sys/users/${login.Id}`)).body.Records[0];
    assert.equal(entry.Action, 'Create');
    assert.deepEqual(
      entry.Changes.find((c: any) => c.Field === 'Password'),
      { Field: 'Password', From: null, To: null },
    );
    assert.equal((await history(`/api/sys/businesses/${business}`)).body.Records[0].Action, 'Create');
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createProduct } from './support/billing-fixtures.js';
import { create, createBusinesses, createTariff } from './support/fixtures.js';
import { errorNames, refused } from './support/record-checks.js';
import { appPerSuite } from './support/test-app.js';

// Tax rates and the ids that name them (docs/billing.md).
describe('Tax rates', () => {
  const t = appPerSuite();

  it('are created, read back and keep their business', async () => {
    const [business, other] = await createBusinesses(t, 'Canal Works', 'Harbour Loft');
    const id = await create(t, '/api/sys/taxrates', { BusinessId: business, Name: 'VAT', Rate: 20 });
    const rate = (await t.get(`/api/sys/taxrates/${id}`)).body;
    assert.equal(rate.Rate, 20);
    assert.equal(rate.ExemptionReason, 1);
    const res = await refused(t, ['taxrate'], 400, () => t.put(`/api/sys/taxrates/${id}`, { BusinessId: other, Name: 'VAT', Rate: 20 }));
    assert.deepEqual(errorNames(res.body), ['BusinessId']);
    const high = await refused(t, ['taxrate'], 400, () =>
      t.post('/api/sys/taxrates', { BusinessId: business, Name: 'Too much', Rate: 100.5 }),
    );
    assert.deepEqual(errorNames(high.body), ['Rate']);
  });

  it('products and tariffs name rates of their own business only; a rate in use cannot be deleted', async () => {
    const [business, other] = await createBusinesses(t, 'Mill Yard', 'Dock Street');
    const vat = await create(t, '/api/sys/taxrates', { BusinessId: business, Name: 'VAT', Rate: 20 });
    const foreign = await create(t, '/api/sys/taxrates', { BusinessId: other, Name: 'VAT', Rate: 21 });
    const refusedProduct = await refused(t, ['product'], 400, async () =>
      t.post('/api/billing/products', {
        BusinessId: business,
        Name: 'Locker',
        SystemProductType: 99,
        Description: 'x',
        DisplayOrder: 0,
        Price: 5,
        CurrencyId: 1,
        AvailableAs: 3,
        TaxRateId: vat,
        ReducedTaxRateId: 999_999,
      }),
    );
    assert.deepEqual(errorNames(refusedProduct.body), ['ReducedTaxRateId']);
    const crossProduct = await refused(t, ['product'], 400, async () =>
      t.post('/api/billing/products', {
        BusinessId: business,
        Name: 'Locker',
        SystemProductType: 99,
        Description: 'x',
        DisplayOrder: 0,
        Price: 5,
        CurrencyId: 1,
        AvailableAs: 3,
        ExemptTaxRateId: foreign,
      }),
    );
    assert.deepEqual(errorNames(crossProduct.body), ['ExemptTaxRateId']);
    const product = await createProduct(t, business, { TaxRateId: vat });
    const tariffRefused = await refused(t, ['tariff'], 400, async () =>
      t.post('/api/billing/tariffs', { BusinessId: business, Name: 'Desk', Price: 10, CurrencyId: 1, TaxRateId: foreign }),
    );
    assert.deepEqual(errorNames(tariffRefused.body), ['TaxRateId']);
    const everyRefused = await refused(t, ['tariff'], 400, async () =>
      t.post('/api/billing/tariffs', { BusinessId: business, Name: 'Desk', Price: 10, CurrencyId: 1, InvoiceEvery: 13 }),
    );
    assert.deepEqual(errorNames(everyRefused.body), ['InvoiceEvery']);
    const tariff = await createTariff(t, business, { TaxRateId: vat, InvoiceEvery: 3 });
    assert.equal((await t.get(`/api/billing/tariffs/${tariff}`)).body.InvoiceEvery, 3);
    assert.equal((await t.get(`/api/billing/tariffs/${await createTariff(t, business)}`)).body.InvoiceEvery, 1);

    const inUse = await refused(t, ['taxrate'], 400, () => t.delete(`/api/sys/taxrates/${vat}`));
    assert.match(inUse.body.Message, /Product and Tariff/);
    const cleared = await t.put(`/api/billing/products/${product}`, {
      ...(await t.get(`/api/billing/products/${product}`)).body,
      TaxRateId: null,
    });
    assert.equal(cleared.status, 200, JSON.stringify(cleared.body));
    const stillTariff = await refused(t, ['taxrate'], 400, () => t.delete(`/api/sys/taxrates/${vat}`));
    assert.match(stillTariff.body.Message, /Tariff/);
    assert.equal((await t.delete(`/api/sys/taxrates/${foreign}`)).status, 200);
  });

  it('a tax rate id stored before tax rates existed reads back unchanged and may be sent back as read', async () => {
    const [business] = await createBusinesses(t, 'Old Mill');
    const product = await createProduct(t, business);
    await t.db.query(`UPDATE ${t.db.id('product')} SET ${t.db.id('TaxRateId')} = 4242 WHERE ${t.db.id('Id')} = ?`, [product]);
    const read = (await t.get(`/api/billing/products/${product}`)).body;
    assert.equal(read.TaxRateId, 4242);
    const back = await t.put(`/api/billing/products/${product}`, read);
    assert.equal(back.status, 200, JSON.stringify(back.body));
    assert.equal((await t.get(`/api/billing/products/${product}`)).body.TaxRateId, 4242);
    const changed = await t.put(`/api/billing/products/${product}`, { ...read, TaxRateId: 4243 });
    assert.deepEqual(errorNames(changed.body), ['TaxRateId']);
  });
});

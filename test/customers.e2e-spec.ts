import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { countryId, createBusinesses, createCoworker, createTariff, currencyId } from './support/fixtures.js';
import { appPerSuite } from './support/test-app.js';

describe('tariffs and coworkers', () => {
  const t = appPerSuite();
  let business: number;
  before(async () => {
    [business] = await createBusinesses(t, 'Canal Works');
  });

  it('a coworker with a tariff has an active contract, and reads the tariff name', async () => {
    const tariff = await createTariff(t, business, { Name: 'Hot desk' });
    const member = await createCoworker(t, business, {
      TariffId: tariff,
      CoworkerType: 2,
      CompanyName: 'Analytical Engines Ltd',
      CountryId: await countryId(t, 'GB'),
    });
    const contact = await createCoworker(t, business);
    const read = (await t.get(`/api/spaces/coworkers/${member}`)).body;
    assert.equal(read.ActiveContract, true);
    assert.equal(read.TariffName, 'Hot desk');
    assert.equal(read.CompanyName, 'Analytical Engines Ltd');
    assert.equal(read.ToStringText, 'Ada Lovelace');
    assert.equal((await t.get(`/api/spaces/coworkers/${contact}`)).body.ActiveContract, false);
    const tariffRead = (await t.get(`/api/billing/tariffs/${tariff}`)).body;
    assert.equal(tariffRead.Price, 250);
    assert.equal(tariffRead.CurrencyCode, 'GBP');
  });

  it('refuses an unknown CoworkerType and a tariff that does not exist, changing nothing', async () => {
    const before = await t.rows('coworker');
    const bad = await t.post('/api/spaces/coworkers', {
      BusinessId: business,
      FullName: 'X',
      Email: 'x@example.com',
      CoworkerType: 3,
      TariffId: 9999,
    });
    assert.equal(bad.status, 400);
    assert.deepEqual(
      bad.body.Errors.map((e: any) => e.PropertyName),
      ['CoworkerType'],
    );
    const missing = await t.post('/api/spaces/coworkers', { BusinessId: business, FullName: 'X', Email: 'x@example.com', TariffId: 9999 });
    assert.equal(missing.body.Message, 'TariffId: Tariff 9999 does not exist');
    assert.deepEqual(await t.rows('coworker'), before);
  });

  it('a tariff in use cannot be deleted: 400 and nothing removed', async () => {
    const tariff = await createTariff(t, business, { Price: 99.5, CurrencyId: await currencyId(t, 'EUR') });
    await createCoworker(t, business, { TariffId: tariff });
    const res = await t.delete(`/api/billing/tariffs/${tariff}`);
    assert.equal(res.status, 400);
    assert.equal(res.body.WasSuccessful, false);
    assert.match(res.body.Message, /cannot be deleted/);
    assert.equal((await t.get(`/api/billing/tariffs/${tariff}`)).status, 200);
  });
});

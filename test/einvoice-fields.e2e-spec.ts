import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { countryId, create, createBusiness, createCoworker, currencyId } from './support/fixtures.js';
import { errorNames, refused } from './support/record-checks.js';
import { appPerSuite } from './support/test-app.js';

// The fields e-invoices need (docs/api.md §14.2, docs/einvoices.md): each reads back as written, and each
// refusal is a 400 naming the field with nothing stored.

const BUSINESSES = '/api/sys/businesses';
const TAX_RATES = '/api/sys/taxrates';
const COWORKERS = '/api/spaces/coworkers';

describe('e-invoice fields', () => {
  const t = appPerSuite();
  let business: number;
  let base: Record<string, unknown>;

  before(async () => {
    base = { Name: 'Fields GmbH', CurrencyId: await currencyId(t, 'EUR'), CountryId: await countryId(t, 'DE') };
    business = await createBusiness(t);
  });

  /** A 400 naming `field` (and only it), with no row of `table` changed. */
  const refusedNaming = async (table: string, field: string, send: () => Promise<{ status: number; body: any }>) => {
    const res = await refused(t, [table], 400, send);
    assert.deepEqual(errorNames(res.body), [field], JSON.stringify(res.body));
  };

  it('Business: LegalName, TaxIDNumber, LegalRegistrationNumber, IBAN, BIC and PaymentMeansCode read back; PaymentMeansCode defaults to 58', async () => {
    const fields = {
      LegalName: 'Fields Gesellschaft mbH',
      TaxIDNumber: 'DE123456789',
      LegalRegistrationNumber: 'HRB 1',
      BankAccountIban: 'DE89370400440532013000',
      BankAccountBic: 'COBADEFF',
      PaymentMeansCode: 30,
    };
    const id = await create(t, BUSINESSES, { ...base, ...fields });
    const read = (await t.get(`${BUSINESSES}/${id}`)).body;
    for (const [field, value] of Object.entries(fields)) assert.equal(read[field], value, field);
    const plain = (await t.get(`${BUSINESSES}/${await create(t, BUSINESSES, base)}`)).body;
    assert.equal(plain.PaymentMeansCode, 58);
    assert.equal(plain.TaxIDNumber, null);
    for (const greek of ['EL123456789', 'FRXX999999999', 'ATU12345678', 'NL+*.12'])
      assert.ok(await create(t, BUSINESSES, { ...base, TaxIDNumber: greek }));
  });

  it('Business: a VAT identifier without a country prefix or of a wrong length, an IBAN with spaces, a BIC of 9, another payment means, a name over 255: 400 naming the field', async () => {
    const cases: Array<[string, unknown]> = [
      ['TaxIDNumber', 'XX123456'],
      ['TaxIDNumber', '123456789'],
      ['TaxIDNumber', 'DE1'],
      ['TaxIDNumber', 'DE12345678901234'],
      ['TaxIDNumber', 'DE 123456789'],
      ['BankAccountIban', 'DE89 3704 0044 0532 0130 00'],
      ['BankAccountIban', 'DE8937040044'],
      ['BankAccountIban', '1289370400440532013000'],
      ['BankAccountBic', 'COBADEFFX'],
      ['BankAccountBic', 'COBA'],
      ['PaymentMeansCode', 31],
      ['PaymentMeansCode', '58x'],
      ['LegalName', 'x'.repeat(256)],
      ['LegalRegistrationNumber', 'x'.repeat(256)],
    ];
    for (const [field, value] of cases) {
      await refusedNaming('business', field, () => t.post(BUSINESSES, { ...base, [field]: value }));
      await refusedNaming('business', field, () => t.put(`${BUSINESSES}/${business}`, { ...base, [field]: value }));
    }
  });

  it('TaxRate: the category, the reason text and code read back; a category fits its Rate and its reason', async () => {
    const rate = (body: Record<string, unknown>) => t.post(TAX_RATES, { BusinessId: business, Name: 'Rate', ...body });
    const fine: Array<Record<string, unknown>> = [
      { Rate: 19, VatCategoryCode: 'S' },
      { Rate: 0, VatCategoryCode: 'Z' },
      { Rate: 0, VatCategoryCode: 'E', VatExemptionReasonText: 'Exempt' },
      { Rate: 0, VatCategoryCode: 'AE', VatExemptionReasonCode: 'VATEX-EU-AE' },
      { Rate: 0, VatCategoryCode: 'K', VatExemptionReasonCode: 'VATEX-EU-IC' },
      { Rate: 0, VatCategoryCode: 'G', VatExemptionReasonCode: 'VATEX-EU-G' },
      { Rate: 0, VatCategoryCode: 'O', VatExemptionReasonText: 'Not subject to VAT' },
      { Rate: 7, VatCategoryCode: 'L' },
      { Rate: 0, VatCategoryCode: 'M' },
      { Rate: 5 },
    ];
    for (const body of fine) {
      const res = await rate(body);
      assert.equal(res.status, 200, JSON.stringify([body, res.body]));
      const read = (await t.get(`${TAX_RATES}/${res.body.Value.Id}`)).body;
      for (const [field, value] of Object.entries(body)) assert.equal(read[field], value, field);
    }
    const refusals: Array<[string, Record<string, unknown>]> = [
      ['VatCategoryCode', { Rate: 0, VatCategoryCode: 'X' }],
      ['VatCategoryCode', { Rate: 0, VatCategoryCode: 's' }],
      ['Rate', { Rate: 0, VatCategoryCode: 'S' }],
      ['Rate', { Rate: 5, VatCategoryCode: 'Z' }],
      ['Rate', { Rate: 5, VatCategoryCode: 'E', VatExemptionReasonText: 'Exempt' }],
      ['Rate', { Rate: 1, VatCategoryCode: 'AE', VatExemptionReasonCode: 'VATEX-EU-AE' }],
      ['Rate', { Rate: 1, VatCategoryCode: 'O', VatExemptionReasonText: 'Outside' }],
      ['VatExemptionReasonText', { Rate: 0, VatCategoryCode: 'E' }],
      ['VatExemptionReasonText', { Rate: 0, VatCategoryCode: 'AE' }],
      ['VatExemptionReasonText', { Rate: 0, VatCategoryCode: 'K' }],
      ['VatExemptionReasonText', { Rate: 0, VatCategoryCode: 'G' }],
      ['VatExemptionReasonText', { Rate: 0, VatCategoryCode: 'O' }],
      ['VatExemptionReasonText', { Rate: 19, VatCategoryCode: 'S', VatExemptionReasonText: 'Why' }],
      ['VatExemptionReasonCode', { Rate: 0, VatCategoryCode: 'Z', VatExemptionReasonCode: 'VATEX-EU-132' }],
      ['VatExemptionReasonCode', { Rate: 7, VatCategoryCode: 'L', VatExemptionReasonCode: 'VATEX-EU-132' }],
      ['VatExemptionReasonText', { Rate: 0, VatCategoryCode: 'M', VatExemptionReasonText: 'Why' }],
      ['VatExemptionReasonText', { Rate: 0, VatExemptionReasonText: 'x'.repeat(256) }],
    ];
    for (const [field, body] of refusals) await refusedNaming('taxrate', field, () => rate(body));
  });

  it('TaxRate: an update is checked as the rate reads after it (a standard rate cannot drop to 0, an exempt one cannot lose its reason)', async () => {
    const standard = await create(t, TAX_RATES, { BusinessId: business, Name: 'VAT', Rate: 19, VatCategoryCode: 'S' });
    await refusedNaming('taxrate', 'Rate', () => t.put(`${TAX_RATES}/${standard}`, { BusinessId: business, Name: 'VAT', Rate: 0 }));
    const exempt = await create(t, TAX_RATES, {
      BusinessId: business,
      Name: 'Exempt',
      Rate: 0,
      VatCategoryCode: 'E',
      VatExemptionReasonText: 'Exempt',
    });
    await refusedNaming('taxrate', 'VatExemptionReasonText', () =>
      t.put(`${TAX_RATES}/${exempt}`, { BusinessId: business, Name: 'Exempt', Rate: 0, VatExemptionReasonText: null }),
    );
    const put = await t.put(`${TAX_RATES}/${exempt}`, {
      BusinessId: business,
      Name: 'Exempt',
      Rate: 0,
      VatExemptionReasonText: null,
      VatExemptionReasonCode: 'VATEX-EU-132',
    });
    assert.equal(put.status, 200, JSON.stringify(put.body));
  });

  it('Coworker: BuyerReference reads back; over 255 characters it is a 400 naming it', async () => {
    const id = await createCoworker(t, business, { BuyerReference: '04011000-12345-67' });
    assert.equal((await t.get(`${COWORKERS}/${id}`)).body.BuyerReference, '04011000-12345-67');
    await refusedNaming('coworker', 'BuyerReference', () =>
      t.post(COWORKERS, {
        BusinessId: business,
        FullName: 'Long Reference',
        Email: 'long.ref@example.com',
        BuyerReference: 'x'.repeat(256),
      }),
    );
  });
});

import { convert } from 'xmlbuilder2';
import { unzipSync } from 'fflate';
import { createProduct } from './billing-fixtures.js';
import { countryId, create, currencyId } from './fixtures.js';
import type { TestApp } from './test-app.js';

// Invoices made by real billing runs for the e-invoice suites (docs/einvoices.md): a seller with every
// field EN 16931 asks for, tax rates of each category, customers billed through COWORKER_BILL_RUN.

export const INVOICES = '/api/billing/coworkerinvoices';
export const EXPORT = 'COWORKER_INVOICE_EXPORT_EN16931';

export interface EInvoiceWorld {
  business: number;
  customer: number;
  rates: { standard: number; zero: number; exempt: number; reverse: number };
  /** Standard, zero, exempt and reverse-charge lines, partly paid (100 of it). */
  mixed: number;
  /** A credit note of 50 of `mixed`. */
  creditNote: number;
  /** Standard lines only, 20 of them, not paid. */
  standard: number;
  /** A business without a VAT identifier, billing lines outside the scope of VAT (O). */
  outsideScope: number;
}

export const ok = (res: { status: number; body: any }) => {
  if (res.status !== 200 || res.body?.WasSuccessful !== true)
    throw new Error(`expected success: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
};

/** A customer of `business` billed now for one sale of each product (quantity, price as given), up to 2025-03-31. */
export async function billedInvoice(
  t: TestApp,
  business: number,
  customer: number,
  sales: Array<{ product: number; quantity?: number; date: string }>,
): Promise<number> {
  for (const sale of sales)
    await create(t, '/api/billing/coworkerproducts', {
      CoworkerId: customer,
      ProductId: sale.product,
      SaleDate: sale.date,
      Quantity: sale.quantity ?? 1,
    });
  const res = ok(
    await t.post('/api/spaces/coworkers/runcommand', {
      Key: 'COWORKER_BILL_RUN',
      Ids: [customer],
      Parameters: [{ Name: 'Until', Value: '2025-03-31' }],
    }),
  );
  if (res.Value.length !== 1) throw new Error(`billing run: ${JSON.stringify(res)}`);
  return res.Value[0].Id as number;
}

export async function eInvoiceWorld(t: TestApp): Promise<EInvoiceWorld> {
  const eur = await currencyId(t, 'EUR');
  const business = await create(t, '/api/sys/businesses', {
    Name: 'Café Coworking Berlin',
    LegalName: 'Café Coworking GmbH',
    CurrencyId: eur,
    CountryId: await countryId(t, 'DE'),
    Address: 'Torstraße 1',
    City: 'Berlin',
    PostCode: '10119',
    TaxIDNumber: 'DE123456789',
    LegalRegistrationNumber: 'HRB 123456 B',
    BankAccountIban: 'DE89370400440532013000',
    BankAccountBic: 'COBADEFFXXX',
  });
  const rate = (body: Record<string, unknown>) => create(t, '/api/sys/taxrates', { BusinessId: business, ...body });
  const rates = {
    standard: await rate({ Name: 'VAT 19%', Rate: 19, VatCategoryCode: 'S' }),
    zero: await rate({ Name: 'Zero rated', Rate: 0, VatCategoryCode: 'Z' }),
    exempt: await rate({
      Name: 'Exempt',
      Rate: 0,
      VatCategoryCode: 'E',
      VatExemptionReasonText: 'Exempt letting of immovable property',
      VatExemptionReasonCode: 'VATEX-EU-132',
    }),
    reverse: await rate({
      Name: 'Reverse charge',
      Rate: 0,
      VatCategoryCode: 'AE',
      VatExemptionReasonText: 'Reverse charge',
      VatExemptionReasonCode: 'VATEX-EU-AE',
    }),
  };
  const product = (name: string, price: number, taxRate: number) =>
    createProduct(t, business, { Name: name, Price: price, CurrencyId: eur, TaxRateId: taxRate });
  const desk = await product('Hot desk day', 12.3456, rates.standard);
  const coffee = await product('Coffee & <cake>', 4.5, rates.zero);
  const office = await product('Office letting', 800, rates.exempt);
  const room = await product('Meeting room service', 150, rates.reverse);
  const customer = await create(t, '/api/spaces/coworkers', {
    BusinessId: business,
    FullName: 'Zoë Dupont',
    CompanyName: 'Dupont Conseil SARL',
    Email: `zoe.${Math.random().toString(36).slice(2)}@example.com`,
    Address: '5 rue de la Paix',
    City: 'Paris',
    PostCode: '75002',
    CountryId: await countryId(t, 'FR'),
    TaxIDNumber: 'FR40303265045',
    BuyerReference: 'PO-2025-0042',
  });
  const mixed = await billedInvoice(t, business, customer, [
    { product: desk, quantity: 3, date: '2025-03-03' },
    { product: coffee, quantity: 2, date: '2025-03-04' },
    { product: office, date: '2025-03-01' },
    { product: room, date: '2025-03-10' },
    { product: desk, quantity: 1, date: '2025-03-11' },
  ]);
  ok(
    await t.post('/api/billing/coworkerledgerentries', {
      BusinessId: business,
      CoworkerId: customer,
      CoworkerInvoiceId: mixed,
      Credit: 100,
      Code: 'PAYM',
    }),
  );
  const credit = ok(
    await t.post(`${INVOICES}/runcommand`, {
      Key: 'COWORKER_INVOICE_CANCEL',
      Ids: [mixed],
      Parameters: [{ Name: `Amount${mixed}`, Value: 50 }],
    }),
  );
  const twenty = Array.from({ length: 20 }, (_, i) => ({
    product: desk,
    quantity: i + 1,
    date: `2025-03-${String(i + 1).padStart(2, '0')}`,
  }));
  const standard = await billedInvoice(t, business, customer, twenty);

  const outsideBusiness = await create(t, '/api/sys/businesses', {
    Name: 'Verein Coworking',
    CurrencyId: eur,
    CountryId: await countryId(t, 'DE'),
    City: 'Hamburg',
    LegalRegistrationNumber: 'VR 4711',
  });
  const outsideRate = await create(t, '/api/sys/taxrates', {
    BusinessId: outsideBusiness,
    Name: 'Not taxable',
    Rate: 0,
    VatCategoryCode: 'O',
    VatExemptionReasonText: 'Not subject to VAT',
    VatExemptionReasonCode: 'VATEX-EU-O',
  });
  const membership = await createProduct(t, outsideBusiness, { Name: 'Membership', Price: 30, CurrencyId: eur, TaxRateId: outsideRate });
  const member = await create(t, '/api/spaces/coworkers', {
    BusinessId: outsideBusiness,
    FullName: 'Jan Müller',
    Email: `jan.${Math.random().toString(36).slice(2)}@example.com`,
    CountryId: await countryId(t, 'DE'),
    TaxIDNumber: 'DE987654321',
  });
  const outsideScope = await billedInvoice(t, outsideBusiness, member, [{ product: membership, date: '2025-03-01' }]);
  return { business, customer, rates, mixed, creditNote: credit.Value[0].Id, standard, outsideScope };
}

/** A downloaded export: its name, type and bytes. */
export interface Exported {
  name: string;
  type: string;
  bytes: Uint8Array;
}

/** Runs the export and downloads what it offers. */
export async function exportOf(t: TestApp, ids: number[], format: string): Promise<Exported> {
  const answer = ok(await t.post(`${INVOICES}/runcommand`, { Key: EXPORT, Ids: ids, Parameters: [{ Name: 'Format', Value: format }] }));
  const link = String(answer.RedirectURL);
  const res = await fetch(t.url + link);
  if (res.status !== 200) throw new Error(`download ${link}: ${res.status}`);
  return {
    name: new URL(link, t.url).searchParams.get('downloadFileName')!,
    type: res.headers.get('content-type') ?? '',
    bytes: new Uint8Array(await res.arrayBuffer()),
  };
}

/** The files of a zip, by name. */
export const unzipped = (bytes: Uint8Array): Record<string, Uint8Array> => unzipSync(bytes);

/** The embedded files of a PDF named `name` (uncompressed streams: PDFKit writes embedded files as they are unless compressed). */
export { convert };

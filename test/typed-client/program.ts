// A program written against a client generated from the served OpenAPI document (openapi-typescript's
// types, openapi-fetch's calls), as an integrator would write it: test/typed-client.e2e-spec.ts generates
// `schema.ts` next to a copy of this file, compiles both strictly and runs the result against the service.
// It is not part of the build (tsconfig.build.json excludes this folder): `schema.ts` exists only then.
// Usage: node program.js <base URL> <administrator email> <password>; prints one JSON line of results.
import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from './schema.js';

type Schemas = components['schemas'];
type Answer = Schemas['ActionConfirmation'];

const [baseUrl, email, password] = process.argv.slice(2);
const api = createClient<paths>({ baseUrl });

/** The answer's body, or a thrown error naming the call. */
function must<T>(result: { data?: T; error?: unknown; response: Response }, call: string): T {
  if (result.data === undefined) throw new Error(`${call}: HTTP ${result.response.status} ${JSON.stringify(result.error)}`);
  return result.data;
}

/** A write or command that must have succeeded. */
function succeeded<A extends Answer>(answer: A, call: string): A {
  if (!answer.WasSuccessful) throw new Error(`${call}: ${answer.Message ?? 'refused'}`);
  return answer;
}

// 1. Log in: the token endpoint takes a form.
const token = must(
  await api.POST('/api/token', {
    body: { grant_type: 'password', username: email, password },
    bodySerializer: (body) => new URLSearchParams(Object.entries(body).map(([key, value]) => [key, String(value)])),
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  }),
  'POST /api/token',
);
const bearer: Middleware = {
  onRequest({ request }) {
    request.headers.set('Authorization', `Bearer ${token.access_token}`);
    return request;
  },
};
api.use(bearer);

// 2. Reference data and a business.
const currencies = must(await api.GET('/api/sys/currencies', { params: { query: { Currency_Code: 'EUR' } } }), 'currencies');
const countries = must(await api.GET('/api/sys/countries', { params: { query: { Country_TwoDigitsCode: 'DE' } } }), 'countries');
const currencyId: number = currencies.Records[0].Id;
const countryId: number = countries.Records[0].Id;
const business = succeeded(
  must(
    await api.POST('/api/sys/businesses', { body: { Name: 'Typed Client Works', CurrencyId: currencyId, CountryId: countryId } }),
    'business',
  ),
  'business',
);
const businessId: number = business.Value.Id;

// 3. Products: create one, list them, get several by id.
const product = succeeded(
  must(
    await api.POST('/api/billing/products', {
      body: {
        BusinessId: businessId,
        Name: 'Locker',
        SystemProductType: 0,
        Description: 'A locker for a month',
        DisplayOrder: 0,
        Price: 12.5,
        CurrencyId: currencyId,
        AvailableAs: 3,
      },
    }),
    'product',
  ),
  'product',
);
const products = must(
  await api.GET('/api/billing/products', { params: { query: { Product_Business: businessId, orderBy: 'Id', dir: 'desc', size: 10 } } }),
  'products',
);
const several = must(
  await api.GET('/api/billing/products/batch', { params: { query: { id: `[${product.Value.Id}]` } } }),
  'products batch',
);
const productNames: string[] = products.Records.map((record) => record.Name);

// 4. A customer on a monthly tariff, with a sale; preview the billing run, then run it.
const tariff = succeeded(
  must(
    await api.POST('/api/billing/tariffs', { body: { BusinessId: businessId, Name: 'Resident desk', Price: 200, CurrencyId: currencyId } }),
    'tariff',
  ),
  'tariff',
);
const customer = succeeded(
  must(
    await api.POST('/api/spaces/coworkers', { body: { BusinessId: businessId, FullName: 'Ada Typed', Email: 'ada.typed@example.com' } }),
    'customer',
  ),
  'customer',
);
const customerId = customer.Value.Id;
succeeded(
  must(
    await api.POST('/api/billing/coworkercontracts', {
      body: { CoworkerId: customerId, TariffId: tariff.Value.Id, StartDate: '2026-01-01', BillingDay: 1 },
    }),
    'contract',
  ),
  'contract',
);
succeeded(
  must(
    await api.POST('/api/billing/coworkerproducts', {
      body: { CoworkerId: customerId, ProductId: product.Value.Id, Quantity: 2, SaleDate: '2026-01-10' },
    }),
    'sale',
  ),
  'sale',
);

const billRun = (preview: boolean) =>
  api.POST('/api/spaces/coworkers/runcommand', {
    body: {
      Key: 'COWORKER_BILL_RUN',
      Ids: [customerId],
      Parameters: [
        { Name: 'Until', Value: '2026-01-31' },
        { Name: 'Preview', Value: preview },
      ],
    },
  });
const preview = succeeded(must(await billRun(true), 'preview'), 'preview');
// The answer's Value is typed by the command's schema: the preview's invoices with their lines.
const previewed: Schemas['CoworkerBillRunValue'] = preview.Value ?? [];
const previewTotal = previewed.map((invoice) => invoice.TotalAmount);
const previewLines = previewed.flatMap((invoice) => ('Lines' in invoice ? invoice.Lines.map((line) => line.Description) : []));
const run = succeeded(must(await billRun(false), 'run'), 'run');
const made = (run.Value ?? []).flatMap((one) => ('Id' in one ? [one] : []));
const invoiceId = made[0].Id;

// 5. Pay the invoice, then print it and download the PDF.
succeeded(
  must(
    await api.POST('/api/billing/coworkerinvoices/runcommand', {
      body: { Key: 'PAY_COWORKER_INVOICE_MANUAL', Ids: [invoiceId], Parameters: [{ Name: 'Payment Method', Value: 996 }] },
    }),
    'pay',
  ),
  'pay',
);
const invoice = must(await api.GET('/api/billing/coworkerinvoices/{id}', { params: { path: { id: invoiceId } } }), 'invoice');
// A 503 means nothing was done and says when to try again (docs/api.md §4): a busy host may give one.
let printed = await api.POST('/api/billing/coworkerinvoices/runcommand', { body: { Key: 'COWORKER_INVOICE_PRINT', Ids: [invoiceId] } });
for (let attempt = 1; printed.response.status === 503 && attempt < 5; attempt++) {
  await new Promise((resolve) => setTimeout(resolve, 1000 * Number(printed.response.headers.get('retry-after') ?? 1)));
  printed = await api.POST('/api/billing/coworkerinvoices/runcommand', { body: { Key: 'COWORKER_INVOICE_PRINT', Ids: [invoiceId] } });
}
const print = succeeded(must(printed, 'print'), 'print');
const pdf = await fetch(new URL(print.RedirectURL ?? '', baseUrl));
const pdfStart = Buffer.from(await pdf.arrayBuffer())
  .subarray(0, 5)
  .toString('latin1');

// 6. Book a resource for an hour.
const resourceType = succeeded(
  must(await api.POST('/api/spaces/resourcetypes', { body: { BusinessId: businessId, Name: 'Meeting room' } }), 'resource type'),
  'resource type',
);
const resource = succeeded(
  must(
    await api.POST('/api/spaces/resources', {
      body: { BusinessId: businessId, Name: 'Room 1', ResourceTypeId: resourceType.Value.Id, HourlyPrice: 30 },
    }),
    'resource',
  ),
  'resource',
);
const booking = succeeded(
  must(
    await api.POST('/api/spaces/bookings', {
      body: { ResourceId: resource.Value.Id, CoworkerId: customerId, FromTime: '2026-02-02T09:00:00Z', ToTime: '2026-02-02T10:00:00Z' },
    }),
    'booking',
  ),
  'booking',
);
const booked = must(await api.GET('/api/spaces/bookings/{id}', { params: { path: { id: booking.Value.Id } } }), 'booked');

console.log(
  JSON.stringify({
    productNames,
    batchIds: several.map((record) => record.Id),
    previewTotal,
    previewLines,
    made: made.map((one) => ({ TotalAmount: one.TotalAmount, numbered: Boolean(one.InvoiceNumber) })),
    paid: invoice.Paid,
    dueAmount: invoice.DueAmount,
    pdfStart,
    bookingPrice: booked.Price,
  }),
);

import { create, currencyId } from './fixtures.js';
import type { TestApp } from './test-app.js';

// Billing records most billing suites need, created through the API as a client would.

export async function createProduct(t: TestApp, businessId: number, overrides: Record<string, unknown> = {}): Promise<number> {
  return create(t, '/api/billing/products', {
    BusinessId: businessId,
    Name: 'Day pass',
    SystemProductType: 1,
    Description: 'One day at a hot desk',
    DisplayOrder: 0,
    Price: 25,
    CurrencyId: await currencyId(t, 'GBP'),
    AvailableAs: 3,
    ...overrides,
  });
}

export async function createCoworkerInvoice(
  t: TestApp,
  businessId: number,
  coworkerId: number,
  overrides: Record<string, unknown> = {},
): Promise<number> {
  return create(t, '/api/billing/coworkerinvoices', {
    BusinessId: businessId,
    CoworkerId: coworkerId,
    CurrencyId: await currencyId(t, 'GBP'),
    TotalAmount: 120,
    ...overrides,
  });
}

/**
 * A customer invoice made by a billing run (docs/billing.md), so that the records only a run writes
 * (invoice lines, billing runs) exist for suites that walk every record type.
 */
export async function createBilledInvoice(t: TestApp): Promise<number> {
  const business = await create(t, '/api/sys/businesses', { Name: 'Billed Works', CurrencyId: await currencyId(t, 'GBP'), CountryId: 1 });
  const customer = await create(t, '/api/spaces/coworkers', {
    BusinessId: business,
    FullName: 'Billed Customer',
    Email: `billed.${Math.random().toString(36).slice(2)}@example.com`,
  });
  await create(t, '/api/billing/coworkerproducts', {
    CoworkerId: customer,
    ProductId: await createProduct(t, business),
    SaleDate: '2025-01-02',
  });
  const res = await t.post('/api/spaces/coworkers/runcommand', {
    Key: 'COWORKER_BILL_RUN',
    Ids: [customer],
    Parameters: [{ Name: 'Until', Value: '2025-01-31' }],
  });
  if (!res.body?.WasSuccessful || res.body.Value.length !== 1) throw new Error(`billing run: ${JSON.stringify(res.body)}`);
  return res.body.Value[0].Id as number;
}

/**
 * A booking paid with a booking credit (docs/bookings.md), so that a credit use history record, which
 * only a booking's spend writes, exists for suites that walk every record type.
 */
export async function createCreditSpendingBooking(t: TestApp): Promise<number> {
  const business = await create(t, '/api/sys/businesses', { Name: 'Booked Works', CurrencyId: await currencyId(t, 'GBP'), CountryId: 1 });
  const customer = await create(t, '/api/spaces/coworkers', {
    BusinessId: business,
    FullName: 'Booking Customer',
    Email: `booker.${Math.random().toString(36).slice(2)}@example.com`,
  });
  const type = await create(t, '/api/spaces/resourcetypes', { BusinessId: business, Name: 'Meeting rooms' });
  const room = await create(t, '/api/spaces/resources', { BusinessId: business, Name: 'Room 1', ResourceTypeId: type, HourlyPrice: 10 });
  await create(t, '/api/billing/coworkerbookingcredits', {
    CoworkerId: customer,
    BusinessId: business,
    TotalCredit: 5,
    RemainingCredit: 5,
    CaneBeUsedForBookings: true,
  });
  return create(t, '/api/spaces/bookings', {
    ResourceId: room,
    CoworkerId: customer,
    FromTime: '2031-03-03T09:00:00Z',
    ToTime: '2031-03-03T10:00:00Z',
  });
}

/** `COWORKER_BILL_RUN` for the customers, up to `until` (default today), or its preview (docs/billing.md). */
export async function billRun(t: TestApp, ids: number[], until?: string, preview = false, auth?: string) {
  const parameters: Array<Record<string, unknown>> = [];
  if (until) parameters.push({ Name: 'Until', Value: until });
  if (preview) parameters.push({ Name: 'Preview', Value: 'true' });
  return t.post('/api/spaces/coworkers/runcommand', { Key: 'COWORKER_BILL_RUN', Ids: ids, Parameters: parameters }, auth ? { auth } : {});
}

/** An invoice's lines, in their order on it (at most 1,000: the most a run puts on one). */
export const linesOf = async (t: TestApp, invoiceId: number) =>
  (await t.get(`/api/billing/coworkerinvoicelines?CoworkerInvoiceLine_CoworkerInvoice=${invoiceId}&orderBy=Position&size=1000`)).body
    .Records as Array<Record<string, any>>;

/** The fields of a line as a preview shows it: every field but Id, UniqueId, CoworkerInvoiceId and the common ones. */
const PREVIEW_LINE_FIELDS = [
  'Description',
  'Quantity',
  'UnitPrice',
  'SubTotal',
  'TaxRateId',
  'TaxRate',
  'TaxAmount',
  'TotalAmount',
  'PeriodFrom',
  'PeriodTo',
  'Position',
  'CoworkerContractUniqueId',
  'ContractProductUniqueId',
  'CoworkerProductUniqueId',
  'BookingUniqueId',
  'CoworkerTimePassUniqueId',
  'CoworkerChargeUniqueId',
  'CoworkerBookingCreditUniqueId',
  'CreditAmount',
];

/** A billed line as the preview of its run showed it. */
export const asPreviewLine = (line: Record<string, unknown>) =>
  Object.fromEntries(PREVIEW_LINE_FIELDS.map((field) => [field, line[field]]));

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

export async function createCoworkerInvoice(t: TestApp, businessId: number, coworkerId: number, overrides: Record<string, unknown> = {}): Promise<number> {
  return create(t, '/api/billing/coworkerinvoices', { BusinessId: businessId, CoworkerId: coworkerId, CurrencyId: await currencyId(t, 'GBP'), TotalAmount: 120, ...overrides });
}

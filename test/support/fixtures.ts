import assert from 'node:assert/strict';
import type { TestApp } from './test-app.js';

// Records most suites need, created through the API as a client would.

const referenceIds = new WeakMap<TestApp, { currencies: Map<string, number>; countries: Map<string, number> }>();

/**
 * A list of reference records. A suite with a tight REQUEST_TIMEOUT_MS (faults-read-deadline) may see
 * its first lists on a cold database answer 503 at the deadline on a loaded machine: a 503 is retried,
 * as its Retry-After invites; any other answer fails the test with its body (not a TypeError later).
 */
async function referenceList<T>(t: TestApp, path: string): Promise<T[]> {
  for (let attempt = 1; ; attempt++) {
    const res = await t.get(path);
    if (res.status === 503 && attempt < 5) continue;
    assert.equal(res.status, 200, `GET ${path}: ${JSON.stringify(res.body)}`);
    return res.body.Records as T[];
  }
}

async function reference(t: TestApp) {
  let ids = referenceIds.get(t);
  if (!ids) {
    const currencies = await referenceList<{ Id: number; Code: string }>(t, '/api/sys/currencies?size=1000');
    const countries = await referenceList<{ Id: number; TwoDigitsCode: string }>(t, '/api/sys/countries?size=1000');
    ids = {
      currencies: new Map(currencies.map((c) => [c.Code, c.Id])),
      countries: new Map(countries.map((c) => [c.TwoDigitsCode, c.Id])),
    };
    referenceIds.set(t, ids);
  }
  return ids;
}

/** The id of a seeded reference record; a missing one fails the test rather than yielding undefined. */
function seeded(ids: Map<string, number>, code: string): number {
  const id = ids.get(code);
  assert.ok(id, `no reference record ${code}`);
  return id;
}

export const currencyId = async (t: TestApp, code: string) => seeded((await reference(t)).currencies, code);
export const countryId = async (t: TestApp, code: string) => seeded((await reference(t)).countries, code);

/** POSTs a record and returns its new id, failing the test with the body when it is refused. */
export async function create(t: TestApp, path: string, body: Record<string, unknown>): Promise<number> {
  const res = await t.post(path, body);
  assert.equal(res.status, 200, `POST ${path}: ${JSON.stringify(res.body)}`);
  return res.body.Value.Id as number;
}

export async function createBusiness(t: TestApp, overrides: Record<string, unknown> = {}): Promise<number> {
  return create(t, '/api/sys/businesses', {
    Name: 'Canal Works',
    CurrencyId: await currencyId(t, 'GBP'),
    CountryId: await countryId(t, 'GB'),
    ...overrides,
  });
}

/** One business per name given, in that order; their ids. */
export async function createBusinesses(t: TestApp, ...names: string[]): Promise<number[]> {
  const ids: number[] = [];
  for (const name of names) ids.push(await createBusiness(t, { Name: name }));
  return ids;
}

export async function createTariff(t: TestApp, businessId: number, overrides: Record<string, unknown> = {}): Promise<number> {
  return create(t, '/api/billing/tariffs', {
    BusinessId: businessId,
    Name: 'Resident desk',
    Price: 250,
    CurrencyId: await currencyId(t, 'GBP'),
    ...overrides,
  });
}

export async function createCoworker(t: TestApp, businessId: number, overrides: Record<string, unknown> = {}): Promise<number> {
  return create(t, '/api/spaces/coworkers', {
    BusinessId: businessId,
    FullName: 'Ada Lovelace',
    Email: `ada.${Math.random().toString(36).slice(2)}@example.com`,
    ...overrides,
  });
}

import assert from 'node:assert/strict';
import { create, currencyId } from './fixtures.js';
import type { TestApp } from './test-app.js';

// Billing records most billing suites need, created through the API, and a check that a refused
// request changed nothing.

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

/** Every row of a table in a stable order, join tables (which have no Id) included. */
export async function tableRows(t: TestApp, table: string): Promise<Record<string, unknown>[]> {
  const rows = await t.db.query(`SELECT * FROM ${t.db.id(table)}`);
  return rows.map((row) => [JSON.stringify(row), row] as const).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
}

/** Sends a request that must be refused with `status`, and shows that no row of `tables` changed. */
export async function refused(t: TestApp, tables: string[], status: number, send: () => Promise<{ status: number; body: any }>) {
  const before = await Promise.all(tables.map((table) => tableRows(t, table)));
  const res = await send();
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.deepEqual(await Promise.all(tables.map((table) => tableRows(t, table))), before);
  return res;
}

/** The PropertyNames of a 400 validation envelope, sorted. */
export const errorNames = (body: any): string[] => (body.Errors as Array<{ PropertyName: string }>).map((e) => e.PropertyName).sort();

/** A record read twice, without the fields an update always changes. */
export function withoutUpdateStamp(record: Record<string, unknown>): Record<string, unknown> {
  const { UpdatedOn: _on, IsNew: _new, UpdatedBy: _by, ...rest } = record;
  return rest;
}

/**
 * Each required field left out of an otherwise valid body, one at a time: 400 naming exactly that
 * field (and the Message starting with it), with nothing changed. `send` posts or puts the body.
 */
export async function eachRequiredFieldIsNamed(
  t: TestApp,
  tables: string[],
  fields: readonly string[],
  body: () => Record<string, unknown>,
  send: (body: Record<string, unknown>) => Promise<{ status: number; body: any }>,
): Promise<void> {
  for (const field of fields) {
    const partial = body();
    delete partial[field];
    const res = await refused(t, tables, 400, () => send(partial));
    assert.deepEqual(errorNames(res.body), [field], field);
    assert.match(res.body.Message, new RegExp(`^${field}: `));
  }
}

import assert from 'node:assert/strict';
import { ADMIN_EMAIL, type HttpResponse, type TestApp } from './test-app.js';

// The checks every record type's suite makes, written once: a create read back field by field, unknown
// ids answered 404, refusals that change nothing (docs/api.md §1.2, §1.4).

type Answer = Pick<HttpResponse, 'status' | 'body'>;

/** The eleven keys of every ActionConfirmation (docs/api.md §1.4). */
export const ACTION_CONFIRMATION_KEYS = [
  'Errors',
  'JavaScript',
  'Message',
  'OpenInDialog',
  'OpenInWindow',
  'RedirectURL',
  'Status',
  'UpdatedBy',
  'UpdatedOn',
  'Value',
  'WasSuccessful',
];
const WIRE_DATE_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Every row of a table in a stable order, join tables (which have no Id) included. */
export async function tableRows(t: TestApp, table: string): Promise<Record<string, unknown>[]> {
  const rows = await t.db.query(`SELECT * FROM ${t.db.id(table)}`);
  return rows
    .map((row) => [JSON.stringify(row), row] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, row]) => row);
}

/** Sends a request that must be refused with `status`, and shows that no row of `tables` changed. */
export async function refused<T extends Answer>(t: TestApp, tables: string[], status: number, send: () => Promise<T>): Promise<T> {
  const before = await Promise.all(tables.map((table) => tableRows(t, table)));
  const res = await send();
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.deepEqual(await Promise.all(tables.map((table) => tableRows(t, table))), before);
  return res;
}

/** The PropertyNames of a 400 validation envelope, sorted. */
export const errorNames = (body: any): string[] => (body.Errors as Array<{ PropertyName: string }>).map((e) => e.PropertyName).sort();

/** Each named field of `record` equals the expected value (deep, strict), the field named on failure. */
export function assertFields(record: Record<string, unknown>, expected: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(expected)) assert.deepEqual(record[key], value, key);
}

/**
 * POSTs `input` (plus `unchecked`: fields sent but read back in another form, or read-only ones the
 * service must ignore) to `path` as the bootstrap administrator: 200, the ActionConfirmation with
 * `<entity> was successfully created.` and `Value: {Id}` (docs/api.md §1.2, §1.4). Then GETs the record:
 * 200, the new Id, the fields every record has (§1.1), and every field of `input` reads back equal.
 * Returns the record read.
 */
export async function createAndReadBack(
  t: TestApp,
  path: string,
  entity: string,
  input: Record<string, unknown>,
  unchecked: Record<string, unknown> = {},
): Promise<Record<string, any>> {
  const created = await t.post(path, { ...input, ...unchecked });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  assert.deepEqual(Object.keys(created.body).sort(), ACTION_CONFIRMATION_KEYS);
  assertFields(created.body, { Status: 200, Message: `${entity} was successfully created.`, WasSuccessful: true, UpdatedBy: ADMIN_EMAIL });
  assert.match(created.body.UpdatedOn, WIRE_DATE_TIME);
  assert.deepEqual(Object.keys(created.body.Value), ['Id']);
  const id = created.body.Value.Id;
  const read = await t.get(`${path}/${id}`);
  assert.equal(read.status, 200, JSON.stringify(read.body));
  assertFields(read.body, { Id: id, IsNew: true, UpdatedBy: ADMIN_EMAIL, LocalizationDetails: null, CustomFields: null });
  assert.match(read.body.UniqueId, UUID_V4);
  for (const stamp of ['CreatedOn', 'UpdatedOn']) assert.match(read.body[stamp], WIRE_DATE_TIME, stamp);
  assertFields(read.body, input);
  return read.body;
}

/** 404 with the JSON string "Not found" (docs/api.md §1.2). */
export function assertNotFound(res: Answer, what = ''): void {
  assert.equal(res.status, 404, `${what} ${JSON.stringify(res.body)}`);
  assert.equal(res.body, 'Not found', what);
}

/**
 * An id no record has, on get, update (Id in the body and in the path) and, unless the type has no
 * delete, delete: each 404 "Not found", and no row of `tables` changed. `body` is a valid update body.
 */
export async function unknownIdIsNotFound(
  t: TestApp,
  path: string,
  tables: string[],
  body: Record<string, unknown>,
  options: { id?: number; withDelete?: boolean } = {},
): Promise<void> {
  const id = options.id ?? 987_654;
  const sends: Array<[string, () => Promise<Answer>]> = [
    ['GET', () => t.get(`${path}/${id}`)],
    ['PUT with body Id', () => t.put(path, { ...body, Id: id })],
    ['PUT with path id', () => t.put(`${path}/${id}`, body)],
  ];
  if (options.withDelete !== false) sends.push(['DELETE', () => t.delete(`${path}/${id}`)]);
  for (const [what, send] of sends) assertNotFound(await refused(t, tables, 404, send), what);
}

/**
 * DELETE of a record: 200 with `<entity> was successfully deleted.` and `Value: {Id}`; then the id is
 * unknown to get, update and delete alike (404 "Not found", nothing written).
 */
export async function deletesThenNotFound(
  t: TestApp,
  path: string,
  entity: string,
  id: number,
  tables: string[],
  updateBody: Record<string, unknown>,
): Promise<void> {
  const res = await t.delete(`${path}/${id}`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.deepEqual(Object.keys(res.body).sort(), ACTION_CONFIRMATION_KEYS);
  assertFields(res.body, { Status: 200, Message: `${entity} was successfully deleted.`, WasSuccessful: true, Value: { Id: id } });
  await unknownIdIsNotFound(t, path, tables, updateBody, { id });
}

/** A record read twice, without the fields an update always changes. */
export function withoutUpdateStamp(record: Record<string, unknown>): Record<string, unknown> {
  const { UpdatedOn: _on, IsNew: _new, UpdatedBy: _by, ...rest } = record;
  return rest;
}

/**
 * A record's GET body (plus `extra`, read-only fields the service ignores) PUT back unchanged, by path id
 * and with the Id in the body: 200 each time, and the record reads the same but for the update stamp.
 */
export async function putBackChangesNothing(t: TestApp, path: string, id: number, extra: Record<string, unknown> = {}): Promise<void> {
  const before = (await t.get(`${path}/${id}`)).body;
  for (const target of [`${path}/${id}`, path]) {
    const res = await t.put(target, { ...before, ...extra });
    assert.equal(res.status, 200, `PUT ${target}: ${JSON.stringify(res.body)}`);
    const after = (await t.get(`${path}/${id}`)).body;
    assert.deepEqual(withoutUpdateStamp(after), withoutUpdateStamp(before));
    // docs/api.md §1.1: the stamp names the acting user, and a record is new only until its first update.
    assertFields(after, { UpdatedBy: ADMIN_EMAIL, IsNew: false });
  }
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
  send: (body: Record<string, unknown>) => Promise<Answer>,
): Promise<void> {
  for (const field of fields) {
    const partial = body();
    delete partial[field];
    const res = await refused(t, tables, 400, () => send(partial));
    assert.deepEqual(errorNames(res.body), [field], field);
    assert.match(res.body.Message, new RegExp(`^${field}: `));
  }
}

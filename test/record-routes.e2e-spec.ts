import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { ALL_OPERATIONS, type RecordDefinition } from '../src/records/record-definition.js';
import { recordRoutes, recordTypesOf } from '../src/http/record-router.js';
import { createBilledInvoice, createCreditSpendingBooking } from './support/billing-fixtures.js';
import { appPerSuite, type HttpResponse } from './support/test-app.js';
import { offers, pathOf, RecordMaker } from './support/valid-records.js';

// The one record router (docs/architecture.md §1): every operation of every record type, found in the
// DI registry of record types, is sent with path ids that name no record (`1.0`, `0x3`, `abc`, `1e3`)
// and with a real one, as the full administrator. A bad id is the 404 "Not found" on every operation
// (docs/api.md §1.2); a real one gets the operation's answer. A record type added later is covered.

const BAD_IDS = ['1.0', '0x3', 'abc', '1e3'];

describe('record routes: path ids on every operation of every record type', () => {
  const t = appPerSuite();
  const failures: string[] = [];
  const ids = new Map<RecordDefinition<any>, number>();
  let definitions: RecordDefinition<any>[] = [];

  const expect = (what: string, res: HttpResponse, status: number, check?: (res: HttpResponse) => string | null) => {
    if (res.status !== status) failures.push(`${what}: ${res.status}, expected ${status}: ${res.text.slice(0, 200)}`);
    else if (check) {
      const problem = check(res);
      if (problem) failures.push(`${what}: ${problem}`);
    }
  };
  const notFound = (res: HttpResponse) => (res.body === 'Not found' ? null : `body ${res.text.slice(0, 100)}, expected "Not found"`);

  before(async () => {
    definitions = recordTypesOf(t.app).map((type) => type.definition);
    const maker = new RecordMaker(t);
    // Invoice lines and billing runs are written by billing runs only, credit use history by bookings only.
    await createBilledInvoice(t);
    await createCreditSpendingBooking(t);
    for (const definition of definitions) {
      if (offers(definition, 'create') && definition.dto) {
        const made = await maker.createValid(definition);
        ids.set(definition, made.id);
      } else {
        ids.set(definition, await maker.recordOf(definition.entity));
      }
    }
  });

  it('finds every record type of the application in the registry, each with its routes', () => {
    assert.ok(definitions.length >= 20, `${definitions.length} record types`);
    for (const definition of definitions)
      assert.ok(
        recordRoutes(definition).some((route) => route.operation === 'get'),
        definition.name,
      );
  });

  it('answers a bad path id with the 404 "Not found" on every operation a type offers', async () => {
    for (const definition of definitions) {
      const base = pathOf(definition);
      const id = ids.get(definition)!;
      const stored = (await t.get(`${base}/${id}`)).body as Record<string, unknown>;
      const offered = new Set(definition.operations ?? ALL_OPERATIONS);
      const updates = offered.has('update') && Boolean(definition.updateDto ?? definition.dto);
      for (const bad of BAD_IDS) {
        expect(`GET ${base}/${bad}`, await t.get(`${base}/${bad}`), 404, notFound);
        expect(`GET ${base}/${bad}/history`, await t.get(`${base}/${bad}/history`), 404, notFound);
        if (updates) expect(`PUT ${base}/${bad}`, await t.put(`${base}/${bad}`, stored), 404, notFound);
        if (offered.has('delete')) expect(`DELETE ${base}/${bad}`, await t.delete(`${base}/${bad}`), 404, notFound);
        if (definition.commands)
          expect(`GET ${base}/commands?id=${bad}`, await t.get(`${base}/commands?id=${encodeURIComponent(bad)}`), 404, notFound);
        // A type that offers no update or delete answers as it does for a real id: 405 when it says so, else no route.
        const absent = definition.methodNotAllowed ? 405 : 404;
        if (!updates) expect(`PUT ${base}/${bad} (not offered)`, await t.put(`${base}/${bad}`, stored), absent);
        if (!offered.has('delete')) expect(`DELETE ${base}/${bad} (not offered)`, await t.delete(`${base}/${bad}`), absent);
      }
      // Nothing was changed by any of them.
      expect(`GET ${base}/${id} after the bad ids`, await t.get(`${base}/${id}`), 200, (res) =>
        JSON.stringify(res.body) === JSON.stringify(stored) ? null : 'the record changed',
      );
    }
    assert.deepEqual(failures.splice(0), []);
  });

  it('answers a real id on every operation a type offers', async () => {
    for (const definition of definitions) {
      const base = pathOf(definition);
      const id = ids.get(definition)!;
      const offered = new Set(definition.operations ?? ALL_OPERATIONS);
      expect(`GET ${base}`, await t.get(base), 200, (res) => (Array.isArray(res.body?.Records) ? null : 'no list envelope'));
      expect(`GET ${base}?id=[${id}]`, await t.get(`${base}?id=[${id}]`), 200, (res) =>
        Array.isArray(res.body) && res.body.some((r: { Id: number }) => r.Id === id) ? null : 'the record is not in the batch',
      );
      const read = await t.get(`${base}/${id}`);
      expect(`GET ${base}/${id}`, read, 200, (res) =>
        res.body?.Id === id && res.headers.get('etag') ? null : 'not the record, or no ETag',
      );
      const etag = read.headers.get('etag');
      if (etag) expect(`GET ${base}/${id} If-None-Match`, await t.get(`${base}/${id}`, { headers: { 'if-none-match': etag } }), 304);
      expect(`GET ${base}/${id}/history`, await t.get(`${base}/${id}/history`), 200, (res) =>
        Array.isArray(res.body?.Records) ? null : 'no history envelope',
      );
      if (definition.commands) {
        expect(`GET ${base}/commands`, await t.get(`${base}/commands`), 200, (res) => (Array.isArray(res.body) ? null : 'no command list'));
        expect(`GET ${base}/commands?id=${id}`, await t.get(`${base}/commands?id=${id}`), 200, (res) =>
          Array.isArray(res.body) ? null : 'no command list',
        );
        expect(`POST ${base}/runcommand (bad id)`, await t.post(`${base}/runcommand`, { Key: 'none', Ids: ['1.0'] }), 200, (res) =>
          res.body?.WasSuccessful === false ? null : 'not refused',
        );
      }
      if (offered.has('update') && (definition.updateDto ?? definition.dto)) {
        const stored = read.body as Record<string, unknown>;
        expect(`PUT ${base}/${id}`, await t.put(`${base}/${id}`, stored), 200, (res) =>
          res.body?.WasSuccessful === true && res.headers.get('etag') ? null : 'not updated, or no ETag',
        );
        expect(`PUT ${base} (Id in the body)`, await t.put(base, { ...stored, Id: id }), 200, (res) =>
          res.body?.WasSuccessful === true ? null : 'not updated',
        );
      }
    }
    assert.deepEqual(failures.splice(0), []);
  });

  it('deletes by a real id, then answers 404 for it', async () => {
    for (const definition of [...definitions].reverse()) {
      if (!offers(definition, 'delete')) continue;
      const base = pathOf(definition);
      const id = ids.get(definition)!;
      const res = await t.delete(`${base}/${id}`);
      // A record others still refer to is refused, and stays.
      if (res.status === 400 && /cannot be deleted/.test(String(res.body?.Message))) {
        expect(`GET ${base}/${id} after a refused delete`, await t.get(`${base}/${id}`), 200);
        continue;
      }
      expect(`DELETE ${base}/${id}`, res, 200, (r) => (r.body?.WasSuccessful === true ? null : 'not deleted'));
      expect(`DELETE ${base}/${id} again`, await t.delete(`${base}/${id}`), 404, notFound);
      expect(`GET ${base}/${id} deleted`, await t.get(`${base}/${id}`), 404, notFound);
    }
    assert.deepEqual(failures.splice(0), []);
  });
});

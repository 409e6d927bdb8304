import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { operationsOf, pathOf, RecordWalker } from './support/record-walker.js';
import { appPerSuite } from './support/test-app.js';
import { RecordTypes } from '../src/records/record-types.js';

// docs/api.md §1.2–§1.3, on every registered record type (a type added later is walked too):
// - `id` with a bracketed list is batch get; any other `id`/`Id` value is the equality filter on Id,
//   answered with the list envelope (query names are case-insensitive);
// - a path id is parsed from its raw text: `/1.0`, `/0x3`, `/1e3`, `/-1`, `/0`, `/01`, `/2147483648`,
//   `/abc` name no record on any operation (404 "Not found"), and never act on the record they resemble.

describe('ids on the wire: ?Id= is a filter; malformed path ids are 404 on every operation', () => {
  const t = appPerSuite();

  it('answers ?Id=7 and ?id=7 with the list envelope filtered on Id, and ?id=[7] with the array, on every type', async () => {
    const walker = new RecordWalker(t);
    const walked: string[] = [];
    for (const definition of t.app.get(RecordTypes).definitions()) {
      if (!operationsOf(definition).includes('list')) continue;
      const found = await walker.someRecord(definition);
      if (found === undefined) continue;
      const id: number = found;
      const path = pathOf(definition);
      for (const name of ['Id', 'id', 'ID']) {
        const res = await t.get(`${path}?${name}=${id}&page=1&size=1000`);
        assert.equal(res.status, 200, `${definition.name} ?${name}=: ${res.text}`);
        assert.ok(!Array.isArray(res.body), `${definition.name} ?${name}=${id} answered a bare array`);
        assert.deepEqual(
          res.body.Records.map((r: any) => r.Id),
          [id],
          `${definition.name} ?${name}=`,
        );
        assert.equal(res.body.TotalItems, 1);
        assert.equal(res.body.CurrentPageSize, 1000);
      }
      const none = await t.get(`${path}?Id=2147483647`);
      assert.deepEqual([none.status, none.body.TotalItems], [200, 0], definition.name);
      for (const query of [`id=[${id}]`, `id=${encodeURIComponent(`[${id}]`)}`, `Id=[${id}]`, `ID=%5B${id}%5D`]) {
        const res = await t.get(`${path}?${query}`);
        assert.equal(res.status, 200, `${definition.name} ?${query}`);
        assert.ok(Array.isArray(res.body), `${definition.name} ?${query} is batch get`);
        assert.deepEqual(
          res.body.map((r: any) => r.Id),
          [id],
        );
      }
      const bad = await t.get(`${path}?Id=abc`);
      assert.equal(bad.status, 400, `${definition.name} ?Id=abc`);
      walked.push(definition.name);
    }
    assert.ok(walked.length >= 15, walked.join(', '));
  });

  it('answers a malformed path id with 404 "Not found" on get, history, update, delete and every /{id}/… route, acting on nothing', async () => {
    const walker = new RecordWalker(t);
    const walked: string[] = [];
    for (const definition of t.app.get(RecordTypes).definitions()) {
      const path = pathOf(definition);
      const operations = operationsOf(definition);
      const found = await walker.someRecord(definition);
      if (found === undefined) continue;
      const id: number = found;
      const stored = (await t.get(`${path}/${id}`)).body;
      const malformed = [
        `${id}.0`,
        `0x${id.toString(16)}`,
        `${id}e0`,
        `0${id}`,
        `+${id}`,
        `${id}%20`,
        '1.0',
        '0x3',
        'abc',
        '1e3',
        '-1',
        '0',
        '2147483648',
        '99999999999',
      ];
      const routes: Array<[string, (bad: string) => string, unknown?]> = [];
      if (operations.includes('get')) routes.push(['GET', (bad) => `${path}/${bad}`], ['GET', (bad) => `${path}/${bad}/history`]);
      if (operations.includes('update') && definition.dto) routes.push(['PUT', (bad) => `${path}/${bad}`, { ...stored, Id: undefined }]);
      if (operations.includes('delete')) routes.push(['DELETE', (bad) => `${path}/${bad}`]);
      if (definition.name === 'WebHook') {
        routes.push(
          ['GET', (bad) => `${path}/${bad}/secret`],
          ['GET', (bad) => `${path}/${bad}/deliveries`],
          ['POST', (bad) => `${path}/${bad}/test`],
          ['POST', (bad) => `${path}/${bad}/deliveries/1/redeliver`],
          ['POST', (bad) => `${path}/${id}/deliveries/${bad}/redeliver`],
        );
      }
      if (definition.name === 'User') routes.push(['POST', (bad) => `${path}/${bad}/token/refresh`, {}]);
      const before = await t.rows(definition.entity.name.toLowerCase()).catch(() => null);
      for (const [method, url, body] of routes) {
        for (const bad of malformed) {
          const res = await t.request(method, url(bad), body === undefined ? {} : { body });
          assert.equal(res.status, 404, `${method} ${url(bad)} -> ${res.status} ${res.text.slice(0, 200)}`);
          assert.equal(res.body, 'Not found', `${method} ${url(bad)}`);
        }
      }
      // Nothing was acted on: the record is there, unchanged.
      const after = await t.get(`${path}/${id}`);
      assert.equal(after.status, 200, `${definition.name} ${id} is gone`);
      assert.deepEqual(after.body, stored, `${definition.name} ${id} changed`);
      if (before) assert.deepEqual(await t.rows(definition.entity.name.toLowerCase()), before, definition.name);
      walked.push(definition.name);
    }
    assert.ok(walked.length >= 15, walked.join(', '));
  });

  it('parses the public event path id the same way', async () => {
    for (const bad of ['1.0', '0x1', '1e0', '01', 'abc', '-1', '0']) {
      const res = await t.get(`/api/public/events/${bad}`, { auth: null });
      assert.equal(res.status, 404, bad);
    }
  });
});

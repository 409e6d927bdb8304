import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { createProduct } from './support/billing-fixtures.js';
import { createBusinesses, createCoworker } from './support/fixtures.js';
import { tableRows } from './support/record-checks.js';
import { appPerSuite } from './support/test-app.js';

const PRODUCTS = '/api/billing/products';

describe('ETag, If-Match and If-None-Match', () => {
  const t = appPerSuite();
  let business: number;

  before(async () => {
    [business] = await createBusinesses(t, 'Canal Works');
  });

  const read = async (id: number) => {
    const res = await t.get(`${PRODUCTS}/${id}`);
    assert.equal(res.status, 200);
    return { record: res.body, etag: res.headers.get('etag')! };
  };
  const withTag = (tag: string) => ({ headers: { 'If-Match': tag } });

  it('GET, create and update answers carry a strong ETag that changes with every update; Version stays hidden', async () => {
    const created = await t.post(PRODUCTS, {
      BusinessId: business,
      Name: 'Desk',
      SystemProductType: 1,
      Description: 'x',
      DisplayOrder: 0,
      Price: 1,
      CurrencyId: 1,
      AvailableAs: 3,
    });
    assert.equal(created.status, 200, created.text);
    const id = created.body.Value.Id;
    const first = await read(id);
    assert.match(first.etag, /^"[^"]+"$/);
    assert.equal(created.headers.get('etag'), first.etag);
    assert.equal('Version' in first.record, false);
    assert.equal((await t.get(`${PRODUCTS}?id=[${id}]`)).body[0].Version, undefined);
    const updated = await t.put(PRODUCTS, { ...first.record, Name: 'Desk 2' });
    const second = await read(id);
    assert.notEqual(second.etag, first.etag);
    assert.equal(updated.headers.get('etag'), second.etag);
    assert.equal((await read(id)).etag, second.etag, 'reading does not change it');
  });

  it('If-None-Match that matches: 304 with the ETag and no body; otherwise the record', async () => {
    const id = await createProduct(t, business);
    const { etag } = await read(id);
    for (const tag of [etag, `W/${etag}`, `"nope", ${etag}`, '*']) {
      const res = await t.get(`${PRODUCTS}/${id}`, { headers: { 'If-None-Match': tag } });
      assert.equal(res.status, 304, tag);
      assert.equal(res.text, '');
      assert.equal(res.headers.get('etag'), etag);
    }
    const other = await t.get(`${PRODUCTS}/${id}`, { headers: { 'If-None-Match': '"nope"' } });
    assert.equal(other.status, 200);
    assert.equal(other.body.Id, id);
  });

  it('a stale If-Match on PUT (both forms) and DELETE: 412 with the current ETag, nothing written', async () => {
    const id = await createProduct(t, business);
    const { record, etag: old } = await read(id);
    await t.put(PRODUCTS, { ...record, Name: 'Changed elsewhere' });
    const { etag: current } = await read(id);
    const before = await tableRows(t, 'product');
    const attempts = [
      () => t.put(PRODUCTS, { ...record, Name: 'Mine' }, withTag(old)),
      () => t.put(`${PRODUCTS}/${id}`, { ...record, Name: 'Mine' }, withTag(old)),
      () => t.put(PRODUCTS, { ...record, Name: 'Mine' }, withTag(`W/${current}`)),
      () => t.delete(`${PRODUCTS}/${id}`, withTag(old)),
    ];
    for (const attempt of attempts) {
      const res = await attempt();
      assert.equal(res.status, 412, res.text);
      assert.equal(res.body.Status, 412);
      assert.equal(res.body.WasSuccessful, false);
      assert.match(res.body.Message, /changed since it was read/);
      assert.equal(res.headers.get('etag'), current);
    }
    assert.deepEqual(await tableRows(t, 'product'), before);
  });

  it('a current tag or * is accepted; an unknown id is still 404', async () => {
    const id = await createProduct(t, business);
    const { record, etag } = await read(id);
    assert.equal((await t.put(`${PRODUCTS}/${id}`, { ...record, Name: 'By tag' }, withTag(`"other", ${etag}`))).status, 200);
    assert.equal((await t.put(PRODUCTS, { ...record, Name: 'Any' }, withTag('*'))).status, 200);
    assert.equal((await t.put(PRODUCTS, { ...record, Id: 999999 }, withTag('*'))).status, 404);
    assert.equal((await t.delete(`${PRODUCTS}/999999`, withTag(etag))).status, 404);
    const { etag: latest } = await read(id);
    assert.equal((await t.delete(`${PRODUCTS}/${id}`, withTag(latest))).status, 200);
    assert.equal((await t.get(`${PRODUCTS}/${id}`)).status, 404);
  });

  it('parallel PUTs with the same If-Match: exactly one 200, the others 412, and the winner is stored', async () => {
    const id = await createProduct(t, business);
    const { record, etag } = await read(id);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => t.put(PRODUCTS, { ...record, Name: `Writer ${i}` }, withTag(etag))),
    );
    const winners = answers.flatMap((answer, i) => (answer.status === 200 ? [i] : []));
    assert.equal(winners.length, 1, answers.map((a) => a.status).join(' '));
    assert.ok(answers.every((answer) => answer.status === 200 || answer.status === 412));
    assert.equal((await read(id)).record.Name, `Writer ${winners[0]}`);
  });

  it('the OpenAPI document names the headers on every operation they apply to', async () => {
    const paths = (await t.get('/api/docs-json')).body.paths as Record<
      string,
      Record<string, { parameters?: Array<{ name: string; in: string }>; responses: Record<string, { headers?: Record<string, unknown> }> }>
    >;
    const headers = (operation: { parameters?: Array<{ name: string; in: string }> }) =>
      (operation.parameters ?? []).filter((p) => p.in === 'header').map((p) => p.name);
    let posts = 0;
    for (const [path, item] of Object.entries(paths)) {
      if (item.post) {
        assert.equal(headers(item.post).includes('Idempotency-Key'), path !== '/api/token', path);
        if (path !== '/api/token') {
          posts++;
          assert.ok(item.post.responses['200'].headers?.['Idempotent-Replayed'], path);
          assert.ok(item.post.responses['409'] && item.post.responses['422'], path);
        }
      }
      for (const method of ['put', 'delete'])
        if (item[method]) assert.ok(headers(item[method]).includes('If-Match') && item[method].responses['412'], `${method} ${path}`);
    }
    assert.ok(posts > 10);
    assert.ok(headers(paths['/api/billing/products/{id}'].get).includes('If-None-Match'));
    assert.ok(paths['/api/billing/products/{id}'].get.responses['304']);
    assert.ok(paths['/api/billing/products'].post.responses['200'].headers?.ETag);
    assert.ok(paths['/api/billing/products/{id}'].put.responses['200'].headers?.ETag);
  });

  it("a sale's stock change moves the product's ETag", async () => {
    const id = await createProduct(t, business, { TrackStock: true, CurrentStock: 4 });
    const { etag } = await read(id);
    const customer = await createCoworker(t, business);
    assert.equal((await t.post('/api/billing/coworkerproducts', { CoworkerId: customer, ProductId: id })).status, 200);
    const after = await read(id);
    assert.notEqual(after.etag, etag);
    assert.equal(after.record.CurrentStock, 3);
  });
});

describe('boolean strings in JSON bodies', () => {
  const t = appPerSuite();
  let business: number;

  before(async () => {
    [business] = await createBusinesses(t, 'Canal Works');
  });

  it('"true" and "false" in any case are the booleans; any other value is a 400 naming the field, nothing written', async () => {
    const id = await createProduct(t, business, { Visible: 'FALSE', TrackStock: 'True', CurrentStock: 2 });
    const stored = (await t.get(`${PRODUCTS}/${id}`)).body;
    assert.equal(stored.Visible, false);
    assert.equal(stored.TrackStock, true);
    assert.equal((await t.put(PRODUCTS, { ...stored, Archived: 'true' })).status, 200);
    assert.equal((await t.get(`${PRODUCTS}/${id}`)).body.Archived, true);
    const before = await tableRows(t, 'product');
    for (const bad of ['yes', '1', 1, 'true ', '']) {
      const res = await t.put(PRODUCTS, { ...stored, Archived: bad });
      assert.equal(res.status, 400, JSON.stringify(bad));
      assert.equal(res.body.Errors[0].PropertyName, 'Archived');
    }
    assert.deepEqual(await tableRows(t, 'product'), before);
  });
});

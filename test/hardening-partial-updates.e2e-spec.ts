import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { WireRecord } from '../src/records/record-definition.js';
import { createBusiness, createCoworker } from './support/fixtures.js';
import { fieldsOf, operationsOf, pathOf, RecordWalker } from './support/record-walker.js';
import { appPerSuite } from './support/test-app.js';
import { RecordTypes } from '../src/records/record-types.js';

// docs/api.md §1.2: on the source document's record types (requiredOnUpdate) required fields stay
// required on update; on every other type an absent required field keeps its stored value, a present
// one must be valid (null is refused), and an explicit null of an optional field clears it — in JSON
// and form-encoded alike. Walks every registered type, those added later too.

/** The record without what every update changes. */
const kept = (record: WireRecord) => {
  const { UpdatedOn: _on, UpdatedBy: _by, IsNew: _new, SystemId: _system, ...rest } = record;
  return rest;
};

describe("partial updates of the platform's other record types", () => {
  const t = appPerSuite();

  it('keeps every absent field of a non-source type, in JSON and form-encoded; a source type still requires its fields', async () => {
    const walker = new RecordWalker(t);
    const partial: string[] = [];
    const strict: string[] = [];
    for (const definition of t.app.get(RecordTypes).definitions()) {
      if (!definition.dto || !operationsOf(definition).includes('update')) continue;
      const path = pathOf(definition);
      const found = await walker.someRecord(definition);
      if (found === undefined) continue;
      const id: number = found;
      const before = (await t.get(`${path}/${id}`)).body;
      const required = fieldsOf(definition.updateDto ?? definition.dto)
        .filter((f) => f.required)
        .map((f) => f.name);
      if (definition.requiredOnUpdate) {
        if (!required.length) continue;
        const res = await t.put(`${path}/${id}`, { SystemId: 'partial' });
        assert.equal(res.status, 400, `${definition.name}: ${res.text.slice(0, 200)}`);
        assert.ok(
          res.body.Errors.some((e: any) => required.includes(e.PropertyName)),
          definition.name,
        );
        assert.deepEqual((await t.get(`${path}/${id}`)).body, before, `${definition.name} changed`);
        strict.push(definition.name);
        continue;
      }
      const json = await t.put(`${path}/${id}`, { SystemId: 'partial json' });
      assert.equal(json.status, 200, `${definition.name} JSON: ${json.text.slice(0, 300)}`);
      const afterJson = (await t.get(`${path}/${id}`)).body;
      assert.equal(afterJson.SystemId, 'partial json', definition.name);
      assert.deepEqual(kept(afterJson), kept(before), `${definition.name}: an absent field changed`);
      const form = await t.request('PUT', `${path}/${id}`, { form: { SystemId: 'partial form' } });
      assert.equal(form.status, 200, `${definition.name} form: ${form.text.slice(0, 300)}`);
      const afterForm = (await t.get(`${path}/${id}`)).body;
      assert.equal(afterForm.SystemId, 'partial form', definition.name);
      assert.deepEqual(kept(afterForm), kept(before), `${definition.name}: an absent field changed (form)`);
      // Present, a required field must be valid: an explicit null never clears it — refused naming the
      // field, or (a hook, docs/api.md §7.1; a customer's BusinessId, read from its lists) kept as absent.
      for (const field of required) {
        const res = await t.put(`${path}/${id}`, { [field]: null });
        assert.ok(res.status === 400 || res.status === 200, `${definition.name}.${field} null: ${res.text.slice(0, 200)}`);
        if (res.status === 400) assert.equal(res.body.Errors[0].PropertyName, field);
        const { SystemId: _s, ...still } = kept((await t.get(`${path}/${id}`)).body);
        const { SystemId: _b, ...was } = kept(before);
        assert.deepEqual(still, was, `${definition.name}.${field} null changed it`);
      }
      partial.push(definition.name);
    }
    assert.ok(partial.length >= 10, partial.join(', '));
    assert.deepEqual(
      strict.sort(),
      ['CoworkerInvoicePaymentToken', 'Invoice', 'Product', 'ProductBookingCredit', 'SurveyRun', 'User']
        .filter((n) => strict.includes(n))
        .sort(),
    );
    assert.ok(strict.includes('Product') && strict.includes('Invoice'), strict.join(', '));
  });

  it('updates a customer from FullName and Email alone, form-encoded as a real client sends it; null clears an optional field', async () => {
    const business = await createBusiness(t);
    const id = await createCoworker(t, business, { City: 'Bath', CompanyName: 'Canal Co' });
    const res = await t.request('PUT', `/api/spaces/coworkers/${id}`, { form: { FullName: 'Grace Hopper', Email: 'grace@example.com' } });
    assert.equal(res.status, 200, res.text);
    const read = (await t.get(`/api/spaces/coworkers/${id}`)).body;
    assert.deepEqual(
      [read.FullName, read.Email, read.BusinessId, read.City, read.CompanyName],
      ['Grace Hopper', 'grace@example.com', business, 'Bath', 'Canal Co'],
    );
    const json = await t.put('/api/spaces/coworkers', { Id: id, FullName: 'Grace B. Hopper', City: null });
    assert.equal(json.status, 200, json.text);
    const after = (await t.get(`/api/spaces/coworkers/${id}`)).body;
    assert.deepEqual([after.FullName, after.City, after.CompanyName, after.BusinessId], ['Grace B. Hopper', null, 'Canal Co', business]);
    const bad = await t.put(`/api/spaces/coworkers/${id}`, { Email: 'not an email' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.Errors[0].PropertyName, 'Email');
  });
});

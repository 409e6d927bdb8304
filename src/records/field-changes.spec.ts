import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RecordDefinition } from './record-definition.js';
import { fieldChanges } from './field-changes.js';

const definition = {
  name: 'Thing',
  reads: { CurrencyCode: { from: () => Object, on: 'CurrencyId', column: 'Code' } },
  computed: { SoldOut: () => false },
} as unknown as RecordDefinition<any>;
const common = {
  Id: 1,
  UniqueId: 'u',
  CreatedOn: 'c',
  UpdatedOn: 'u1',
  UpdatedBy: 'a@b',
  IsNew: true,
  ToStringText: 'x',
  LocalizationDetails: null,
  CustomFields: null,
};

describe('fieldChanges', () => {
  it('a create lists every stored field that is set, and no machinery, looked-up or derived field', () => {
    const after = {
      ...common,
      Name: 'Desk',
      Price: 0,
      Archived: false,
      Notes: null,
      Tariffs: [],
      Products: [3],
      CurrencyCode: 'GBP',
      SoldOut: false,
    };
    assert.deepEqual(fieldChanges(definition, 'Create', null, after), [
      { Field: 'Name', From: null, To: 'Desk' },
      { Field: 'Price', From: null, To: 0 },
      { Field: 'Archived', From: null, To: false },
      { Field: 'Products', From: null, To: [3] },
    ]);
  });

  it('an update lists the fields whose values differ, lists compared by value', () => {
    const before = { ...common, Name: 'Desk', Price: 10, Tariffs: [1, 2], Notes: null };
    const after = { ...common, UpdatedOn: 'u2', IsNew: false, Name: 'Desk', Price: 12.5, Tariffs: [1, 2], Notes: 'now' };
    assert.deepEqual(fieldChanges(definition, 'Update', before, after), [
      { Field: 'Price', From: 10, To: 12.5 },
      { Field: 'Notes', From: null, To: 'now' },
    ]);
  });

  it('a delete lists nothing', () => {
    assert.deepEqual(fieldChanges(definition, 'Delete', { ...common, Name: 'Desk' }, null, { Password: 'x' }), []);
  });

  it('write-only fields the request gave are named with null values; absent or null ones are not', () => {
    const after = { ...common, Email: 'a@b' };
    assert.deepEqual(fieldChanges(definition, 'Update', after, after, { Password: 'secret words', TwoFactorSecret: null, Email: 'a@b' }), [
      { Field: 'Password', From: null, To: null },
    ]);
    assert.deepEqual(fieldChanges(definition, 'Create', null, after, { Secret: 'whsec_x', Password: undefined }), [
      { Field: 'Email', From: null, To: 'a@b' },
      { Field: 'Secret', From: null, To: null },
    ]);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RecordValidationException } from './errors.js';
import { parseListQuery, type ListSchema } from './list-query.js';

const schema: ListSchema = {
  entityName: 'Product',
  fields: [
    { name: 'Id', kind: 'int' },
    { name: 'Name', kind: 'text' },
    { name: 'Price', kind: 'money' },
    { name: 'Archived', kind: 'bool' },
    { name: 'BusinessId', kind: 'int' },
    { name: 'CreatedOn', kind: 'datetime' },
    { name: 'Tariffs', kind: 'idList' },
  ],
  navigations: { Business: 'BusinessId' },
};

const refusal = (query: Record<string, unknown>, property: string) =>
  assert.throws(
    () => parseListQuery(query, schema),
    (error: unknown) => {
      assert.ok(error instanceof RecordValidationException);
      assert.equal(error.errors[0].PropertyName, property);
      return true;
    },
  );

describe('parseListQuery', () => {
  it('defaults: page 1, size 25, ascending Id, no filters', () => {
    assert.deepEqual(parseListQuery({}, schema), { page: 1, size: 25, orderBy: 'Id', direction: 1, filters: [], ids: null });
  });

  it('clamps size to 1..1000 and page to at least 1', () => {
    assert.equal(parseListQuery({ size: '0' }, schema).size, 1);
    assert.equal(parseListQuery({ size: '100000' }, schema).size, 1000);
    assert.equal(parseListQuery({ page: '0' }, schema).page, 1);
  });

  it('reads parameter names case-insensitively and keeps the field spelling of the schema', () => {
    const q = parseListQuery({ PAGE: '3', Size: '10', ORDERBY: 'price', DIR: 'Descending' }, schema);
    assert.deepEqual([q.page, q.size, q.orderBy, q.direction], [3, 10, 'Price', -1]);
  });

  it('accepts every spelling of dir', () => {
    for (const dir of ['1', '0', 'asc', 'ASC', 'Ascending']) assert.equal(parseListQuery({ dir }, schema).direction, 1);
    for (const dir of ['-1', 'desc', 'Descending']) assert.equal(parseListQuery({ dir }, schema).direction, -1);
    refusal({ dir: 'up' }, 'dir');
  });

  it('refuses an unknown orderBy, or one on an id list', () => {
    refusal({ orderBy: 'Nope' }, 'orderBy');
    refusal({ orderBy: 'Tariffs' }, 'orderBy');
    refusal({ orderBy: 'Name; DROP TABLE product' }, 'orderBy');
  });

  it('refuses non-numeric paging', () => {
    refusal({ page: 'two' }, 'page');
    refusal({ size: '1e3' }, 'size');
  });

  it('turns {Entity}_{Field} into typed filters: text contains, others equal', () => {
    const q = parseListQuery({ product_name: 'Desk', Product_Price: '12.5', Product_Archived: 'false', Product_Business: '3' }, schema);
    assert.deepEqual(q.filters, [
      { field: 'Name', kind: 'text', op: 'contains', value: 'Desk' },
      { field: 'Price', kind: 'money', op: 'eq', value: 12.5 },
      { field: 'Archived', kind: 'bool', op: 'eq', value: false },
      { field: 'BusinessId', kind: 'int', op: 'eq', value: 3 },
    ]);
  });

  it('turns from_/to_ into inclusive ranges; a day as upper bound covers the whole day', () => {
    const q = parseListQuery(
      { from_Product_Price: '1', to_Product_CreatedOn: '2025-01-31', from_Product_CreatedOn: '2025-01-01T08:00' },
      schema,
    );
    assert.deepEqual(q.filters[0], { field: 'Price', kind: 'money', op: 'gte', value: 1 });
    assert.equal((q.filters[1].value as Date).toISOString(), '2025-01-31T23:59:59.999Z');
    assert.equal(q.filters[1].op, 'lte');
    assert.equal((q.filters[2].value as Date).toISOString(), '2025-01-01T08:00:00.000Z');
  });

  it('refuses filters of the wrong type, unknown fields of its entity, and ranges on text', () => {
    refusal({ Product_Price: 'cheap' }, 'Product_Price');
    refusal({ Product_Archived: 'maybe' }, 'Product_Archived');
    refusal({ from_Product_CreatedOn: '2025-02-30' }, 'from_Product_CreatedOn');
    refusal({ Product_Colour: 'red' }, 'Product_Colour');
    refusal({ from_Product_Name: 'a' }, 'from_Product_Name');
  });

  it('ignores parameters that belong to no filter of this record type', () => {
    assert.deepEqual(parseListQuery({ _: '123', Invoice_Name: 'x', callback: 'y' }, schema).filters, []);
  });

  it('keeps text values as values: SQL in a filter is just text to match', () => {
    const q = parseListQuery({ Product_Name: "x' OR '1'='1" }, schema);
    assert.equal(q.filters[0].value, "x' OR '1'='1");
  });

  it('reads batch ids in brackets, takes any other id value as the Id filter, and refuses malformed ones', () => {
    assert.deepEqual(parseListQuery({ id: '[1,2,3]' }, schema).ids, [1, 2, 3]);
    assert.deepEqual(parseListQuery({ ID: ' [ 4 , 5 ] ' }, schema).ids, [4, 5]);
    const filtered = parseListQuery({ Id: '7' }, schema);
    assert.equal(filtered.ids, null);
    assert.deepEqual(filtered.filters, [{ field: 'Id', kind: 'int', op: 'eq', value: 7 }]);
    refusal({ id: 'abc' }, 'id');
    assert.deepEqual(parseListQuery({ id: '[]' }, schema).ids, []);
    refusal({ id: '[1,a]' }, 'id');
    refusal({ id: '[0]' }, 'id');
    refusal({ id: '[2147483648]' }, 'id');
  });

  it('takes the last of a repeated parameter', () => {
    assert.equal(parseListQuery({ page: ['2', '4'] }, schema).page, 4);
  });
});

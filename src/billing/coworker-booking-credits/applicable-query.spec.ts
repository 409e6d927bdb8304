import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RecordValidationException } from '../../records/errors.js';
import { parseApplicableQuery } from './applicable-query.js';

/** The PropertyNames of the 400 a query is refused with. */
function refusal(query: Record<string, unknown>): string[] {
  try {
    parseApplicableQuery(query);
  } catch (error) {
    assert.ok(error instanceof RecordValidationException);
    return error.errors.map((e) => e.PropertyName);
  }
  assert.fail(`accepted ${JSON.stringify(query)}`);
}

describe('applicable credits query', () => {
  it('reads the customer and the one use', () => {
    assert.deepEqual(parseApplicableQuery({ coworkerId: '7', resourceTypeId: '3' }), { coworkerId: 7, use: { resourceTypeId: 3 } });
    assert.deepEqual(parseApplicableQuery({ coworkerId: '7', eventCategoryId: '4' }), { coworkerId: 7, use: { eventCategoryId: 4 } });
    assert.deepEqual(parseApplicableQuery({ coworkerId: '7', productId: '5' }), { coworkerId: 7, use: { productId: 5 } });
    assert.deepEqual(parseApplicableQuery({ coworkerId: '7', passId: '6' }), { coworkerId: 7, use: { passId: 6 } });
    assert.deepEqual(parseApplicableQuery({ coworkerId: '7', charge: 'true' }), { coworkerId: 7, use: { charge: true } });
  });

  it('parameter names are case-insensitive; paging and filters are left to the list; charge=false asks nothing', () => {
    assert.deepEqual(parseApplicableQuery({ CoworkerID: '7', PRODUCTID: '5', page: '2', size: '3' }), {
      coworkerId: 7,
      use: { productId: 5 },
    });
    assert.deepEqual(parseApplicableQuery({ coworkerId: '7', charge: 'false', passId: '6' }), { coworkerId: 7, use: { passId: 6 } });
    assert.deepEqual(parseApplicableQuery({ coworkerId: ['1', '7'], charge: 'TRUE' }), { coworkerId: 7, use: { charge: true } });
  });

  it('coworkerId missing or not an id: 400 naming it', () => {
    assert.deepEqual(refusal({ productId: '5' }), ['coworkerId']);
    assert.deepEqual(refusal({ coworkerId: '', productId: '5' }), ['coworkerId']);
    for (const bad of ['0', '-1', 'abc', '1.5', '2147483648'])
      assert.deepEqual(refusal({ coworkerId: bad, productId: '5' }), ['coworkerId'], bad);
  });

  it('no use, or more than one: 400', () => {
    assert.deepEqual(refusal({ coworkerId: '7' }), ['resourceTypeId|eventCategoryId|productId|passId|charge']);
    assert.deepEqual(refusal({ coworkerId: '7', charge: 'false' }), ['resourceTypeId|eventCategoryId|productId|passId|charge']);
    assert.deepEqual(refusal({ coworkerId: '7', resourceTypeId: '1', productId: '2', charge: 'true' }), ['productId', 'charge']);
  });

  it('a use that is not an id, or a charge that is not a boolean: 400 naming it', () => {
    assert.deepEqual(refusal({ coworkerId: '7', resourceTypeId: 'x' }), ['resourceTypeId']);
    assert.deepEqual(refusal({ coworkerId: '7', eventCategoryId: '0' }), ['eventCategoryId']);
    assert.deepEqual(refusal({ coworkerId: '7', passId: '' }), ['passId']);
    assert.deepEqual(refusal({ coworkerId: '7', charge: 'yes' }), ['charge']);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RecordValidationException } from '../../records/errors.js';
import { parsePublicEventsQuery } from './public-events-query.js';

const refusal = (query: Record<string, unknown>, property: string) =>
  assert.throws(
    () => parsePublicEventsQuery(query),
    (error: unknown) => {
      assert.ok(error instanceof RecordValidationException);
      assert.equal(error.errors[0].PropertyName, property);
      return true;
    },
  );

describe('parsePublicEventsQuery', () => {
  it('defaults: coming events, page 1, 25 a page, no search, every business', () => {
    assert.deepEqual(parsePublicEventsQuery({}), { pastEvents: false, page: 1, size: 25, search: null, businessId: null });
  });

  it('reads every parameter, names case-insensitively, ignoring others', () => {
    assert.deepEqual(parsePublicEventsQuery({ PastEvents: 'TRUE', PAGE: '3', Top: '10', search: '  Robot  ', BusinessID: '7', _: '123' }), {
      pastEvents: true,
      page: 3,
      size: 10,
      search: 'Robot',
      businessId: 7,
    });
    assert.equal(parsePublicEventsQuery({ pastEvents: '0' }).pastEvents, false);
    assert.equal(parsePublicEventsQuery({ search: '   ' }).search, null);
    assert.equal(parsePublicEventsQuery({ top: ['5', '6'] }).size, 6);
  });

  it('clamps top to 1..1000 and page to at least 1', () => {
    assert.equal(parsePublicEventsQuery({ top: '0' }).size, 1);
    assert.equal(parsePublicEventsQuery({ top: '5000' }).size, 1000);
    assert.equal(parsePublicEventsQuery({ page: '-2' }).page, 1);
  });

  it('refuses values it cannot read, naming the parameter', () => {
    refusal({ top: 'abc' }, 'top');
    refusal({ page: '1.5' }, 'page');
    refusal({ pastEvents: 'maybe' }, 'pastEvents');
    refusal({ businessId: 'x' }, 'businessId');
    refusal({ businessId: '0' }, 'businessId');
    refusal({ businessId: '2147483648' }, 'businessId');
    refusal({ search: 'x'.repeat(256) }, 'search');
  });
});

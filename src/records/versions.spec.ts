import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { etagOf, expectedVersion, ifMatchAccepts, ifNoneMatchMatches, VERSION } from './versions.js';
import { WriteScope } from '../persistence/write-scope.js';

describe('versions', () => {
  const etag = etagOf('abc', 3);

  it('If-Match compares strongly: weak tags never match, * matches any', () => {
    assert.equal(ifMatchAccepts(etag, etag), true);
    assert.equal(ifMatchAccepts(`"other", ${etag}`, etag), true);
    assert.equal(ifMatchAccepts(`W/${etag}`, etag), false);
    assert.equal(ifMatchAccepts(etagOf('abc', 2), etag), false);
    assert.equal(ifMatchAccepts('*', etag), true);
  });

  it('If-None-Match compares weakly', () => {
    assert.equal(ifNoneMatchMatches(`W/${etag}`, etag), true);
    assert.equal(ifNoneMatchMatches('"x"', etag), false);
  });

  it('an update without If-Match is unconditional; a stale tag is 412 with the current ETag', () => {
    const record = { UniqueId: 'abc', [VERSION]: 3 };
    assert.equal(expectedVersion(new WriteScope(), record), null);
    const scope = new WriteScope();
    scope.ifMatch = etag;
    assert.equal(expectedVersion(scope, record), 3);
    scope.ifMatch = etagOf('abc', 2);
    assert.throws(
      () => expectedVersion(scope, record),
      (error: { getStatus(): number; headers: Record<string, string> }) => error.getStatus() === 412 && error.headers.ETag === etag,
    );
  });
});

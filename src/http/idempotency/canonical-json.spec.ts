import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { canonicalJson } from './canonical-json.js';

describe('canonicalJson', () => {
  it('is the same for the same parsed JSON, whatever the key order', () => {
    assert.equal(canonicalJson(JSON.parse('{"b": [1, {"d": 1, "c": 2}], "a": null}')), canonicalJson({ a: null, b: [1, { c: 2, d: 1 }] }));
  });

  it('tells different bodies apart', () => {
    assert.notEqual(canonicalJson({ a: 1 }), canonicalJson({ a: '1' }));
    assert.notEqual(canonicalJson([1, 2]), canonicalJson([2, 1]));
    assert.notEqual(canonicalJson(undefined), canonicalJson({}));
  });
});

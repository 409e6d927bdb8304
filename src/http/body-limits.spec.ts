import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_BODY_DEPTH, MAX_BODY_NODES, parseJsonBody, withinBodyLimits } from './body-limits.js';

const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
const array = (elements: number, element = '0') => `[${Array(elements).fill(element).join(',')}]`;

describe('withinBodyLimits', () => {
  it('counts levels of objects and arrays alike', () => {
    assert.equal(withinBodyLimits(nested(MAX_BODY_DEPTH)), true);
    assert.equal(withinBodyLimits(nested(MAX_BODY_DEPTH + 1)), false);
    assert.equal(withinBodyLimits(`${'{"a":'.repeat(MAX_BODY_DEPTH + 1)}1${'}'.repeat(MAX_BODY_DEPTH + 1)}`), false);
  });

  it('counts keys and array elements, empty arrays holding none', () => {
    assert.equal(withinBodyLimits(array(MAX_BODY_NODES)), true);
    assert.equal(withinBodyLimits(array(MAX_BODY_NODES + 1)), false);
    assert.equal(withinBodyLimits(`{"a":${array(MAX_BODY_NODES - 1)}}`), true);
    assert.equal(withinBodyLimits(`{"a":${array(MAX_BODY_NODES)}}`), false);
    assert.equal(withinBodyLimits(array(MAX_BODY_NODES, '[]')), true);
    assert.equal(withinBodyLimits(array(MAX_BODY_NODES / 2, '[1]')), true);
    assert.equal(withinBodyLimits(array(MAX_BODY_NODES / 2 + 1, '[1]')), false);
  });

  it('ignores brackets, colons, commas and escaped quotes inside strings', () => {
    const text = JSON.stringify({ a: `${'[{:,'.repeat(20_000)}\\"[[[` });
    assert.equal(withinBodyLimits(text), true);
    assert.equal(withinBodyLimits(JSON.stringify([`\\`, nested(40)])), true);
  });
});

describe('parseJsonBody', () => {
  it('drops prototype keys at every level and refuses other charsets', () => {
    const parsed = parseJsonBody('{"__proto__":{"x":1},"a":[{"constructor":{"prototype":{}}}]}', 'application/json') as Record<string, any>;
    assert.equal(Object.hasOwn(parsed, '__proto__'), false);
    assert.deepEqual(parsed.a, [{}]);
    assert.throws(
      () => parseJsonBody('{}', 'application/json; charset=latin1'),
      (e: any) => e.getStatus() === 415,
    );
    assert.throws(
      () => parseJsonBody('{', 'application/json'),
      (e: any) => e.getStatus() === 400,
    );
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RoundRobinQueue } from './round-robin-queue.js';

/** Everything the queue holds, in the order `take` gives it. */
function drain<T>(queue: RoundRobinQueue<T>): T[] {
  const taken: T[] = [];
  for (let item = queue.take(); item !== undefined; item = queue.take()) taken.push(item);
  return taken;
}

describe('fair queue', () => {
  it('serves one owner first in, first out', () => {
    const queue = new RoundRobinQueue<string>();
    for (const item of ['a1', 'a2', 'a3']) queue.add('a', item);
    assert.equal(queue.size, 3);
    assert.deepEqual(drain(queue), ['a1', 'a2', 'a3']);
    assert.equal(queue.size, 0);
    assert.equal(queue.take(), undefined);
  });

  it('serves owners round robin, one item each, in the order they started waiting', () => {
    const queue = new RoundRobinQueue<string>();
    for (const item of ['a1', 'a2', 'a3', 'a4']) queue.add('a', item);
    queue.add('b', 'b1');
    queue.add('c', 'c1');
    queue.add('b', 'b2');
    assert.deepEqual(drain(queue), ['a1', 'b1', 'c1', 'a2', 'b2', 'a3', 'a4']);
  });

  it("an owner that starts waiting while a big owner's item is served comes next, before the big owner's 999 others", () => {
    const queue = new RoundRobinQueue<string>();
    for (let i = 1; i <= 1000; i++) queue.add('big', `big${i}`);
    assert.equal(queue.take(), 'big1');
    queue.add('small', 'small1');
    assert.equal(queue.take(), 'small1');
    assert.equal(queue.take(), 'big2');
    assert.equal(queue.size, 998);
  });

  it('several newcomers while one is served each come before its next item, in the order they came', () => {
    const queue = new RoundRobinQueue<string>();
    queue.add('big', 'big1');
    queue.add('big', 'big2');
    assert.equal(queue.take(), 'big1');
    queue.add('b', 'b1');
    queue.add('c', 'c1');
    queue.add('b', 'b2');
    assert.deepEqual(drain(queue), ['b1', 'c1', 'big2', 'b2']);
  });

  it('an owner served last whose line emptied waits behind the others when it adds again', () => {
    const queue = new RoundRobinQueue<string>();
    queue.add('a', 'a1');
    queue.add('b', 'b1');
    queue.add('b', 'b2');
    assert.equal(queue.take(), 'a1');
    queue.add('a', 'a2');
    queue.add('c', 'c1');
    assert.deepEqual(drain(queue), ['b1', 'c1', 'a2', 'b2']);
  });
});

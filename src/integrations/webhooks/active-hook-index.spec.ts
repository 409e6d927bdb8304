import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setImmediate as turn } from 'node:timers/promises';
import { performance } from 'node:perf_hooks';
import { ActiveHookIndex, HOOK_INDEX_LEASE_MS } from './active-hook-index.js';
import type { WebhooksRepository } from './webhooks.repository.js';

/** A repository whose readings of the active hooks the test answers, one at a time. */
function hooksRead() {
  const asked: Array<(actions: Map<number, Set<number>> | Error) => void> = [];
  const counted = { readings: 0 };
  const repository = {
    activeActions: () =>
      ++counted.readings &&
      new Promise<Map<number, Set<number>>>((resolve, reject) =>
        asked.push((answer) => (answer instanceof Error ? reject(answer) : resolve(answer))),
      ),
  } as unknown as WebhooksRepository;
  return {
    repository,
    asked,
    /** How many readings were begun. */
    get readings() {
      return counted.readings;
    },
    async answer(actions: Map<number, Set<number>> | Error) {
      asked.shift()!(actions);
      await turn();
    },
  };
}

class ClockedIndex extends ActiveHookIndex {
  clock = 0;
  protected override now(): number {
    return this.clock;
  }
}

describe('ActiveHookIndex', () => {
  it('answers "none" only from a reading younger than the lease, and only for businesses and actions it holds no hook of', async () => {
    const read = hooksRead();
    const index = new ClockedIndex(read.repository);
    assert.equal(index.surelyNone(1, [74]), false, 'nothing read yet: ask the database');
    assert.equal(read.readings, 1, 'and a reading is begun');
    assert.equal(index.surelyNone(1, [74]), false);
    assert.equal(read.readings, 1, 'one reading at a time');
    await read.answer(new Map([[2, new Set([74])]]));
    assert.equal(index.surelyNone(1, [74]), true);
    assert.equal(index.surelyNone(2, [75, 76]), true);
    assert.equal(index.surelyNone(2, [75, 74]), false);
    assert.equal(read.readings, 1, 'a young reading is not read again');

    index.clock = HOOK_INDEX_LEASE_MS / 2;
    assert.equal(index.surelyNone(1, [74]), true, 'past half its lease a reading still answers');
    assert.equal(read.readings, 2, 'while a new one is read');
    index.clock = HOOK_INDEX_LEASE_MS;
    assert.equal(index.surelyNone(1, [74]), false, 'at the end of its lease it answers no more');
    await read.answer(new Map());
    assert.equal(index.surelyNone(2, [74]), true, 'the new reading answers');
  });

  it('forgets its reading at a hook write, keeps none begun before it, and answers the write only after the lease', async () => {
    const read = hooksRead();
    const index = new ClockedIndex(read.repository);
    index.surelyNone(1, [74]);
    await read.answer(new Map());
    assert.equal(index.surelyNone(1, [74]), true);

    const started = performance.now();
    const written = index.hookWritten();
    assert.equal(index.surelyNone(1, [74]), false, 'the reading is forgotten at once');
    assert.equal(read.asked.length, 1);
    const second = index.hookWritten();
    // The reading begun before the second write (which the first begun) comes back without the new hook.
    await read.answer(new Map());
    assert.equal(index.surelyNone(1, [74]), false, 'a reading begun before a hook write is not kept');
    await Promise.all([written, second]);
    assert.ok(performance.now() - started >= HOOK_INDEX_LEASE_MS - 1, 'the write waited out the lease');
    await read.answer(new Map([[1, new Set([74])]]));
    assert.equal(index.surelyNone(1, [74]), false, 'the hook written is known');
    assert.equal(index.surelyNone(1, [75]), true, 'from a reading begun after the writes, which is kept');
  });

  it('a failed reading leaves the database to answer', async () => {
    const read = hooksRead();
    const index = new ClockedIndex(read.repository);
    index.surelyNone(1, [74]);
    await read.answer(new Error('the database is away'));
    assert.equal(index.surelyNone(1, [74]), false);
    assert.equal(read.readings, 2, 'and it is read again');
  });
});

import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { AnswerDeadlines } from './answer-deadlines.js';

describe('answer deadlines', () => {
  it('expires each unanswered subject once, in order, after its period, and never an answered one', async () => {
    const expired: string[] = [];
    const deadlines = new AnswerDeadlines<string>(40, (subject) => expired.push(subject));
    const a = deadlines.start('a');
    await sleep(10);
    const b = deadlines.start('b');
    const c = deadlines.start('c');
    deadlines.cancel(a);
    deadlines.cancel(c);
    deadlines.cancel(c);
    await sleep(20);
    const d = deadlines.start('d');
    assert.deepEqual(expired, []);
    await sleep(60);
    assert.deepEqual(expired, ['b', 'd']);
    deadlines.cancel(b);
    deadlines.cancel(d);
    await sleep(50);
    assert.deepEqual(expired, ['b', 'd']);
  });

  it('lets an expiry start a second period, which expires in its turn', async () => {
    const seen: Array<[string, number]> = [];
    const deadlines: AnswerDeadlines<{ name: string; round: number }> = new AnswerDeadlines(20, (subject) => {
      seen.push([subject.name, subject.round]);
      if (subject.round === 1) deadlines.start({ name: subject.name, round: 2 });
    });
    deadlines.start({ name: 'x', round: 1 });
    await sleep(80);
    assert.deepEqual(seen, [
      ['x', 1],
      ['x', 2],
    ]);
  });

  it('sets one timer for many requests answered in time, and none once nothing waits', async () => {
    const deadlines = new AnswerDeadlines<number>(20, () => assert.fail('nothing was left unanswered'));
    const timer = () => (deadlines as unknown as { timer: unknown }).timer;
    deadlines.cancel(deadlines.start(0));
    const first = timer();
    for (let i = 1; i < 1000; i++) deadlines.cancel(deadlines.start(i));
    assert.equal(timer(), first);
    await sleep(40);
    assert.equal(timer(), null);
  });
});

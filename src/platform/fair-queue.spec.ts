import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ClientBusyError, FairQueue, ServiceBusyError } from './fair-queue.js';

/** A gate the test opens: work held on it runs until `open()`. */
function gate(): { held: Promise<void>; open: () => void } {
  let open!: () => void;
  const held = new Promise<void>((resolve) => (open = resolve));
  return { held, open };
}

const always = () => true;

describe('a fair queue', () => {
  it('serves waiting clients round robin, one piece each, whatever order they arrived in', async () => {
    const queue = new FairQueue({ concurrency: 1, perClientRunning: 1, perClientWaiting: 16, laneWaiting: 64 });
    const first = gate();
    const order: string[] = [];
    const holding = queue.run({ client: 'holder', wanted: always }, () => first.held);
    const sent = [
      ...['a1', 'a2', 'a3', 'a4'].map((name) => ({ client: 'a', name })),
      ...['b1', 'b2'].map((name) => ({ client: 'b', name })),
      { client: 'c', name: 'c1' },
    ].map(({ client, name }) => queue.run({ client, wanted: always }, async () => void order.push(name)));
    assert.equal(queue.pendingCount, 7);
    first.open();
    await Promise.all([holding, ...sent]);
    assert.deepEqual(order, ['a1', 'b1', 'c1', 'a2', 'b2', 'a3', 'a4']);
  });

  it('serves lanes in turn, then the clients within each lane in turn', async () => {
    const queue = new FairQueue({ concurrency: 1, perClientRunning: 1, perClientWaiting: 16, laneWaiting: 64 });
    const first = gate();
    const order: string[] = [];
    const holding = queue.run({ client: 'holder', wanted: always }, () => first.held);
    const flood = ['f1', 'f2', 'f3', 'f4', 'f5'].map((client) =>
      queue.run({ client, wanted: always }, async () => void order.push(client)),
    );
    const known = ['k1', 'k2'].map((client) => queue.run({ lane: 'known', client, wanted: always }, async () => void order.push(client)));
    first.open();
    await Promise.all([holding, ...flood, ...known]);
    assert.deepEqual(order, ['f1', 'k1', 'f2', 'k2', 'f3', 'f4', 'f5']);
  });

  it('refuses a client beyond its share with ClientBusyError, and anyone with ServiceBusyError once the lane is full', async () => {
    const queue = new FairQueue({
      concurrency: 1,
      perClientRunning: 1,
      perClientWaiting: 2,
      laneWaiting: 3,
      lanes: { roomy: { laneWaiting: 10, perClientWaiting: 10 } },
    });
    const first = gate();
    const holding = queue.run({ client: 'holder', wanted: always }, () => first.held);
    const work = async () => 'done';
    const waiting = [queue.run({ client: 'a', wanted: always }, work), queue.run({ client: 'a', wanted: always }, work)];
    await assert.rejects(queue.run({ client: 'a', wanted: always }, work), ClientBusyError);
    waiting.push(queue.run({ client: 'b', wanted: always }, work));
    await assert.rejects(queue.run({ client: 'c', wanted: always }, work), ServiceBusyError);
    // Another lane has room of its own (and limits of its own).
    waiting.push(...Array.from({ length: 3 }, () => queue.run({ lane: 'roomy', client: 'a', wanted: always }, work)));
    first.open();
    await holding;
    assert.deepEqual(await Promise.all(waiting), Array(6).fill('done'));
    assert.equal(queue.pendingCount + queue.activeCount, 0);
  });

  it('drops work whose request was abandoned while it waited, and never runs it', async () => {
    const queue = new FairQueue({ concurrency: 1, perClientRunning: 1, perClientWaiting: 4, laneWaiting: 8 });
    const first = gate();
    const holding = queue.run({ client: 'holder', wanted: always }, () => first.held);
    let wanted = true;
    let ran = false;
    const abandoned = queue.run({ client: 'a', wanted: () => wanted }, async () => void (ran = true));
    const kept = queue.run({ client: 'b', wanted: always }, async () => 'kept');
    wanted = false;
    first.open();
    await assert.rejects(abandoned, ServiceBusyError);
    assert.equal(await kept, 'kept');
    assert.equal(ran, false);
    await holding;
    await assert.rejects(
      queue.run({ client: 'c', wanted: () => false }, async () => 'late'),
      ServiceBusyError,
    );
  });

  it('runs at most perClientRunning of one client at once, while others use the rest', async () => {
    const queue = new FairQueue({ concurrency: 3, perClientRunning: 1, perClientWaiting: 8, laneWaiting: 8 });
    let mostOfA = 0;
    let runningOfA = 0;
    const gates = [gate(), gate(), gate()];
    const ofA = gates.map(({ held }) =>
      queue.run({ client: 'a', wanted: always }, async () => {
        mostOfA = Math.max(mostOfA, ++runningOfA);
        await held;
        runningOfA--;
      }),
    );
    const ofB = queue.run({ client: 'b', wanted: always }, async () => 'b ran');
    assert.equal(await ofB, 'b ran');
    for (const { open } of gates) open();
    await Promise.all(ofA);
    assert.equal(mostOfA, 1);
  });

  it('starts work that waited through `resume`, holding its place until then', async () => {
    const resumed: Array<() => void> = [];
    const queue = new FairQueue({ concurrency: 1, perClientRunning: 1, perClientWaiting: 4, laneWaiting: 8 }, (start) =>
      resumed.push(start),
    );
    const first = gate();
    const holding = queue.run({ client: 'holder', wanted: always }, () => first.held);
    const waited = queue.run({ client: 'a', wanted: always }, async () => 'waited');
    first.open();
    await holding;
    assert.equal(resumed.length, 1);
    // Its place is held: a newcomer waits rather than starting before it.
    const newcomer = queue.run({ client: 'b', wanted: always }, async () => 'newcomer');
    assert.equal(queue.pendingCount, 1);
    resumed.shift()!();
    assert.equal(await waited, 'waited');
    resumed.shift()!();
    assert.equal(await newcomer, 'newcomer');
  });
});

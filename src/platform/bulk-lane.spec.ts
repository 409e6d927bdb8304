import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, Socket } from 'node:net';
import { describe, it } from 'node:test';
import { bulkTurn } from './bulk-lane.js';

/** Busy for `ms` on this thread, as a print's reads or a download's send are. */
function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe('bulk lane', () => {
  it('resumes waiting steps in order, one per turn of the event loop', async () => {
    let turn = 0;
    let counting = true;
    const count = () => {
      turn++;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    const seen: Array<[string, number]> = [];
    await Promise.all(
      ['a', 'b', 'c', 'd'].map(async (name) => {
        await bulkTurn();
        seen.push([name, turn]);
      }),
    );
    counting = false;
    assert.deepEqual(
      seen.map(([name]) => name),
      ['a', 'b', 'c', 'd'],
    );
    const turns = seen.map(([, at]) => at);
    assert.equal(new Set(turns).size, 4, `two steps ran in one turn: ${JSON.stringify(seen)}`);
  });

  it('lets a request that arrives during a step in before the next step', async () => {
    const server = createServer();
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as { port: number };
    const client = new Socket();
    client.connect(port, '127.0.0.1');
    const [accepted] = (await once(server, 'connection')) as [Socket];
    await once(client, 'connect');
    try {
      const order: string[] = [];
      accepted.on('data', () => order.push('request'));
      const steps = [1, 2, 3].map(async (n) => {
        await bulkTurn();
        order.push(`step ${n}`);
        // The request arrives while the first step holds the thread.
        if (n === 1) client.write('GET');
        busy(20);
      });
      await Promise.all(steps);
      await new Promise((resolve) => setTimeout(resolve, 20));
      assert.deepEqual(order, ['step 1', 'request', 'step 2', 'step 3']);
    } finally {
      client.destroy();
      accepted.destroy();
      server.close();
    }
  });
});

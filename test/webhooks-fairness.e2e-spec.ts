import assert from 'node:assert/strict';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createBusiness, createCoworker, create } from './support/fixtures.js';
import { appPerSuite } from './support/test-app.js';
import { startReceiver, type Receiver } from './support/webhook-receiver.js';

// docs/api.md §7.4: one business's slow or dead receivers never delay another business's deliveries past
// the 5 seconds of the first attempt (attempts in flight are bounded per hook and per business).

const HOOKS = '/api/sys/webhooks';
const COWORKER_CREATE = 3;

/**
 * A TCP server that accepts connections, reads what comes and never answers (a dead receiver). `open()`
 * counts the requests it holds: open connections that carried a request (an HTTP client may also hold
 * idle connections, which carry none).
 */
async function startSilentServer(): Promise<{ url: string; open: () => number; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const holding = new Set<Socket>();
  const server: TcpServer = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on('data', () => holding.add(socket));
    socket.on('close', () => {
      sockets.delete(socket);
      holding.delete(socket);
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    open: () => holding.size,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** An HTTP server that answers 200 after `delayMs` (a slow receiver); counts what it answered. */
async function startSlowServer(delayMs: number): Promise<{ url: string; answered: () => number; close: () => Promise<void> }> {
  let answered = 0;
  const sockets = new Set<Socket>();
  const server: HttpServer = createHttpServer((request, response) => {
    request.resume();
    setTimeout(() => {
      answered++;
      response.writeHead(200).end('ok');
    }, delayMs).unref();
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    answered: () => answered,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe("webhook deliveries of one business are not held up by another business's receivers", () => {
  const t = appPerSuite({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_MAX_CONSECUTIVE_FAILURES: '100' });
  let silent: Awaited<ReturnType<typeof startSilentServer>>;
  let slow: Awaited<ReturnType<typeof startSlowServer>>;
  let healthy: Receiver;
  before(async () => {
    silent = await startSilentServer();
    slow = await startSlowServer(3000);
    healthy = await startReceiver();
  });
  after(async () => {
    await silent.close();
    await slow.close();
    await healthy.close();
  });

  it('four never-answering hooks and a slow one with a backlog in B: a change in A is delivered within 5 s', async () => {
    const [a, b] = [await createBusiness(t, { Name: 'Quiet Quarter' }), await createBusiness(t, { Name: 'Busy Basin' })];
    for (let i = 0; i < 4; i++)
      await create(t, HOOKS, { BusinessId: b, Name: `dead ${i}`, Action: COWORKER_CREATE, URL: `${silent.url}/dead-${i}` });
    await create(t, HOOKS, { BusinessId: b, Name: 'slow', Action: COWORKER_CREATE, URL: `${slow.url}/slow` });
    await create(t, HOOKS, { BusinessId: a, Name: 'healthy', Action: COWORKER_CREATE, URL: `${healthy.url}/a` });

    // B's backlog: 12 changes, 60 deliveries, all due before A's change.
    for (let i = 0; i < 12; i++) await createCoworker(t, b, { FullName: `Busy ${i}` });
    // B's attempts are under way: its dead receivers hold connections open.
    const started = Date.now();
    while (silent.open() < 4) {
      assert.ok(Date.now() - started < 10_000, `only ${silent.open()} attempts to B's dead receivers started`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));

    const committed = Date.now();
    await createCoworker(t, a, { FullName: 'Quiet one' });
    const [delivery] = await healthy.waitFor('/a', 1, 15_000);
    const tookMs = Date.now() - committed;
    assert.ok(tookMs <= 5000, `A's delivery took ${tookMs} ms (B had ${silent.open()} attempts hanging)`);
    assert.equal(JSON.parse(delivery.body)[0].FullName, 'Quiet one');

    // B never holds more than its bound of attempts at once, and its hooks take turns: once the dead
    // receivers' attempts time out (10 s), the slow hook that had no turn yet goes first.
    // (A connection whose attempt just timed out may be seen open a moment longer than its attempt.)
    const inFlight = async () =>
      silent.open() <= 4 ? silent.open() : (await new Promise((resolve) => setTimeout(resolve, 200)), silent.open());
    assert.ok((await inFlight()) <= 4, `${silent.open()} attempts of B in flight at once`);
    const waiting = Date.now();
    while (slow.answered() < 1) {
      assert.ok(Date.now() - waiting < 15_000, 'the slow hook of B got no delivery');
      assert.ok((await inFlight()) <= 4, `${silent.open()} attempts of B in flight at once`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
});

import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One POST a receiver got. */
export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** How a receiver answers the n-th request (1-based) to a path: a status, or never. */
export type Answer = (path: string, nth: number) => number | 'hang';

export interface Receiver {
  url: string;
  received: Received[];
  /** What arrived at one path. */
  at(path: string): Received[];
  /** Waits until `count` requests arrived at `path` (fails after `withinMs`). */
  waitFor(path: string, count: number, withinMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

/** An HTTP server on 127.0.0.1 that records what webhooks POST to it and answers as told (200 by default). */
export async function startReceiver(answer: Answer = () => 200): Promise<Receiver> {
  const received: Received[] = [];
  const counts = new Map<string, number>();
  const sockets = new Set<Socket>();
  const hanging = new Set<ServerResponse>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      received.push({ path, headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      const nth = (counts.get(path) ?? 0) + 1;
      counts.set(path, nth);
      const status = answer(path, nth);
      if (status === 'hang') {
        hanging.add(response);
        return;
      }
      response.writeHead(status, { 'content-type': 'text/plain' }).end(status >= 300 ? `refused with ${status}` : 'ok');
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const at = (path: string) => received.filter((r) => r.path === path);
  return {
    url,
    received,
    at,
    async waitFor(path, count, withinMs = 15_000) {
      const start = Date.now();
      while (at(path).length < count) {
        if (Date.now() - start > withinMs) throw new Error(`${path}: ${at(path).length} of ${count} deliveries within ${withinMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return at(path);
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

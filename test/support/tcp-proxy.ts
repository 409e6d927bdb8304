// A TCP proxy in front of the database, so a test can take "the database" away and bring it back
// without touching the shared MariaDB server.
import { once } from 'node:events';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { freePort } from './service.js';
import { freshMySqlDatabase, MYSQL_SERVER_URL } from './test-app.js';

export type ProxyMode = 'forward' | 'blackhole';

export class TcpProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();

  constructor(
    readonly port: number,
    private readonly target: { host: string; port: number },
  ) {}

  /**
   * Listens again. `forward` passes bytes to the target; `blackhole` accepts connections and never
   * answers (a database that hangs rather than refuses).
   */
  async start(mode: ProxyMode = 'forward'): Promise<void> {
    const server = createServer((client) => {
      this.track(client);
      if (mode === 'blackhole') return;
      const upstream = connect(this.target.port, this.target.host);
      this.track(upstream);
      client.pipe(upstream).pipe(client);
      const close = () => {
        client.destroy();
        upstream.destroy();
      };
      client.on('error', close).on('close', close);
      upstream.on('error', close).on('close', close);
    });
    server.listen(this.port, '127.0.0.1');
    await once(server, 'listening');
    this.server = server;
  }

  /** The database "stops": open connections are cut and new ones refused. */
  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private track(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => undefined);
  }
}

/**
 * A fresh database on the MariaDB test server, reached through a TcpProxy of its own, so a test can
 * cut the service off from its database: the database, the started proxy and the URL that goes through it.
 */
export async function proxiedMySqlDatabase(): Promise<{
  database: Awaited<ReturnType<typeof freshMySqlDatabase>>;
  proxy: TcpProxy;
  url: string;
}> {
  const database = await freshMySqlDatabase();
  const server = new URL(MYSQL_SERVER_URL);
  const proxy = new TcpProxy(await freePort(), { host: server.hostname, port: Number(server.port || 3306) });
  await proxy.start();
  const url = new URL(database.url);
  url.hostname = '127.0.0.1';
  url.port = String(proxy.port);
  return { database, proxy, url: url.toString() };
}

// A redis-server of the test's own on a free loopback port (never the machine's shared one on 6379),
// so a test can stop (SIGSTOP), resume (SIGCONT) or kill it.
import { spawn, type ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { freePort, sleep } from './service.js';

export interface RedisServer {
  port: number;
  url: string;
  child: ChildProcess;
  /** SIGSTOP: the process holds its connections open and answers nothing (a stalled server). */
  pause(): void;
  /** SIGCONT. */
  resume(): void;
  /** A client of the test's own (connect it with `await client.ping()`). */
  client(): Redis;
  stop(): Promise<void>;
}

export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  const child = spawn('redis-server', ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // An interrupted test process still takes its server with it.
  const kill = () => child.kill('SIGKILL');
  process.once('exit', kill);
  const url = `redis://127.0.0.1:${port}`;
  const client = () => new Redis(url, { maxRetriesPerRequest: 1, retryStrategy: () => null, lazyConnect: false });
  for (let waited = 0; ; waited += 100) {
    const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    probe.on('error', () => undefined);
    const up = await probe
      .connect()
      .then(() => probe.ping())
      .then(
        (pong) => pong === 'PONG',
        () => false,
      );
    probe.disconnect();
    if (up) break;
    if (waited > 10_000 || child.exitCode !== null) throw new Error(`redis-server did not start on port ${port}`);
    await sleep(100);
  }
  return {
    port,
    url,
    child,
    pause: () => child.kill('SIGSTOP'),
    resume: () => child.kill('SIGCONT'),
    client,
    stop: async () => {
      process.off('exit', kill);
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGCONT');
      child.kill('SIGKILL');
      await exited;
    },
  };
}

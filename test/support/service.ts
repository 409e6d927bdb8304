// The built service as production runs it: a child process started with the Dockerfile's command.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { runtimeEnvironment } from '../../src/runtime-settings.js';

/** The repository root (tests run the compiled files under dist/). */
export const ROOT = join(import.meta.dirname, '..', '..', '..');

/** The start command: the Dockerfile's CMD must be exactly this (test/dockerfile.spec.ts checks it). */
export const START_COMMAND = ['node', 'dist/src/main.js'] as const;

/** A free loopback TCP port (the OS picks it). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Whether a process of this id is still running (signal 0 only checks). */
export const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

export interface Service {
  name: string;
  port: number;
  url: string;
  child: ChildProcess;
  /** Everything the process wrote (JSON log lines), for failure messages. */
  output(): string;
  /** Resolves with the exit code (null when killed by a signal) once the process has ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM and wait for the exit. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Starts `node dist/src/main.js` as the image does (its ENV: the runtime settings of src/runtime-settings.ts,
 * NODE_ENV=production), then the given environment, on a free port.
 */
export async function startService(
  name: string,
  env: Record<string, string>,
  options: { waitForHealth?: boolean; timeoutMs?: number } = {},
): Promise<Service> {
  const port = Number(env.PORT ?? (await freePort()));
  const [command, ...args] = START_COMMAND;
  const child = spawn(command === 'node' ? process.execPath : command, args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...runtimeEnvironment(), NODE_ENV: 'production', LOG_LEVEL: 'warn', ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  const service: Service = {
    name,
    port,
    url: `http://127.0.0.1:${port}`,
    child,
    output: () => output,
    exited,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
  if (options.waitForHealth !== false) {
    // A service that never got healthy is stopped, or its process would outlive the test file and hold it open.
    await waitForHealth(service, options.timeoutMs ?? 60_000).catch(async (error: unknown) => {
      await service.stop();
      throw error;
    });
  }
  return service;
}

/** Polls GET /health until it answers 200. */
export async function waitForHealth(service: Service, timeoutMs = 60_000): Promise<number> {
  const start = Date.now();
  for (;;) {
    const { exitCode, signalCode } = service.child;
    // Ended by a signal (an abort) too: signalCode, with exitCode null.
    if (exitCode !== null || signalCode !== null)
      throw new Error(`${service.name} exited with ${exitCode ?? signalCode}:\n${service.output()}`);
    try {
      const res = await fetch(`${service.url}/health`, { signal: AbortSignal.timeout(2000) });
      if (res.status === 200) return Date.now() - start;
    } catch {
      /* not listening yet */
    }
    if (Date.now() - start > timeoutMs) throw new Error(`${service.name} not healthy within ${timeoutMs} ms:\n${service.output()}`);
    await sleep(200);
  }
}

import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runtimeEnvironment, RUNTIME_SETTINGS } from '../src/runtime-settings.js';
import { freshMySqlDatabase, onMySql, TEST_JWT_SECRET } from './support/test-app.js';
import { freePort, isAlive, ROOT, sleep, startService, waitForHealth, type Service } from './support/service.js';

// The memory settings belong to the service: started the README's ways without NODE_OPTIONS or
// MALLOC_ARENA_MAX, the process that serves runs with the heap sizes and arena count of
// src/runtime-settings.ts; an operator's own values are kept.

/** The heap limit V8 reports in a process started with these heap flags, MiB. */
function heapLimitWith(flags: string): number {
  const result = spawnSync(process.execPath, [...flags.split(' '), '-p', 'Math.round(require("v8").getHeapStatistics().heap_size_limit / 2 ** 20)'], { encoding: 'utf8' });
  return Number(result.stdout.trim());
}

/**
 * The 'listening' log line of a service's output. The logger writes it asynchronously, so on a busy
 * machine it may reach the pipe a little after /health first answers: it is waited for (10 s at most).
 */
async function listeningLine(output: () => string): Promise<{ pid: number; heapLimitMb: number; mallocArenaMax: string | null }> {
  const line = () => output().split('\n').find((text) => text.includes('"listening"'));
  for (const start = Date.now(); !line() && Date.now() - start < 10_000;) await sleep(50);
  assert.ok(line(), `a listening line in:\n${output()}`);
  return JSON.parse(line()!);
}

const childrenOf = (pid: number) => readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
const environOf = (pid: number) => Object.fromEntries(readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean).map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]));

describe('runtime settings (heap cap, malloc arenas)', () => {
  let dir: string;
  let database: { url: string; drop: () => Promise<void> };
  let env: Record<string, string>;
  const expectedHeapLimit = heapLimitWith(runtimeEnvironment().NODE_OPTIONS);

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cw-runtime-'));
    database = onMySql ? await freshMySqlDatabase() : { url: `sqlite:${join(dir, 'db.sqlite')}`, drop: async () => undefined };
    env = { DATABASE_URL: database.url, JWT_SECRET: TEST_JWT_SECRET, LOG_LEVEL: 'info' };
  });
  after(async () => {
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('node dist/src/main.js without them: the serving process has them; SIGTERM reaches it and the exit code comes back', async () => {
    const service = await startService('plain', env);
    try {
      const listening = await listeningLine(() => service.output());
      assert.equal(listening.heapLimitMb, expectedHeapLimit);
      assert.equal(listening.mallocArenaMax, String(RUNTIME_SETTINGS.mallocArenaMax));
      // The started process stays small and only waits; its one child serves.
      const [server] = childrenOf(service.child.pid!);
      assert.equal(listening.pid, server);
      assert.equal(environOf(server).MALLOC_ARENA_MAX, String(RUNTIME_SETTINGS.mallocArenaMax));
      assert.equal(environOf(server).MALLOC_MMAP_THRESHOLD_, String(RUNTIME_SETTINGS.mallocMmapThresholdBytes));
      assert.deepEqual(await service.stop(), { code: 0, signal: null });
      assert.equal(isAlive(server), false);
    } finally {
      await service.stop();
    }
  });

  it('npm run start:prod: the same', async () => {
    const port = await freePort();
    const npm = spawn('npm', ['run', 'start:prod'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? dir, NODE_ENV: 'production', ...env, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    npm.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    npm.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<void>((resolve) => npm.once('exit', () => resolve()));
    const service: Service = { name: 'npm', port, url: `http://127.0.0.1:${port}`, child: npm, output: () => output, exited: exited.then(() => ({ code: npm.exitCode, signal: npm.signalCode })), stop: async () => ({ code: null, signal: null }) };
    try {
      await waitForHealth(service);
      const listening = await listeningLine(() => output);
      assert.equal(listening.heapLimitMb, expectedHeapLimit);
      assert.equal(listening.mallocArenaMax, String(RUNTIME_SETTINGS.mallocArenaMax));
    } finally {
      process.kill(-npm.pid!, 'SIGTERM');
      await exited;
    }
  });

  it("an operator's own heap sizes and arena count are kept, and then nothing is relaunched", async () => {
    const own = '--max-old-space-size=300 --max-semi-space-size=8';
    const service = await startService('own', { ...env, NODE_OPTIONS: own, MALLOC_ARENA_MAX: '2' });
    try {
      const listening = await listeningLine(() => service.output());
      assert.equal(listening.pid, service.child.pid);
      assert.equal(listening.heapLimitMb, heapLimitWith(own));
      assert.equal(listening.mallocArenaMax, '2');
    } finally {
      await service.stop();
    }
  });

  it('should the started process be killed outright, the serving one shuts down by itself', async () => {
    const service = await startService('orphan', env);
    const [server] = childrenOf(service.child.pid!);
    service.child.kill('SIGKILL');
    await service.exited;
    for (let i = 0; i < 100 && isAlive(server); i++) await sleep(100);
    assert.equal(isAlive(server), false, 'the serving process exited');
  });
});

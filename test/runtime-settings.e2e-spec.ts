import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runtimeEnvironment, RUNTIME_SETTINGS } from '../src/runtime-settings.js';
import { freshMySqlDatabase, onMySql, TEST_JWT_SECRET } from './support/test-app.js';
import { freePort, ROOT, sleep, START_COMMAND, startService, waitForHealth, type Service } from './support/service.js';

// The memory settings are given where the service is started (src/runtime-settings.ts): the image's ENV,
// the npm scripts the README and docs/operations.md start it with. Each way, ONE process serves, with the
// heap sizes and glibc settings (an operator's own values kept); started without them, it serves and says
// which are missing, rather than relaunching itself.

/** The heap limit V8 reports in a process started with these heap flags, MiB. */
function heapLimitWith(flags: string): number {
  const result = spawnSync(
    process.execPath,
    [...flags.split(' '), '-p', 'Math.round(require("v8").getHeapStatistics().heap_size_limit / 2 ** 20)'],
    { encoding: 'utf8' },
  );
  return Number(result.stdout.trim());
}

/**
 * A log line of a service's output, by its message. The logger writes asynchronously, so on a busy
 * machine a line may reach the pipe a little after /health first answers: it is waited for (10 s at most).
 */
async function logLine(output: () => string, message: RegExp): Promise<Record<string, any>> {
  const line = () =>
    output()
      .split('\n')
      .find((text) => message.test(text));
  for (const start = Date.now(); !line() && Date.now() - start < 10_000;) await sleep(50);
  assert.ok(line(), `a line matching ${message} in:\n${output()}`);
  return JSON.parse(line()!);
}
const listeningLine = (output: () => string) => logLine(output, /"listening"/);

const childrenOf = (pid: number) =>
  readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
const environOf = (pid: number) =>
  Object.fromEntries(
    readFileSync(`/proc/${pid}/environ`, 'utf8')
      .split('\0')
      .filter(Boolean)
      .map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]),
  );
const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

describe('runtime settings (heap sizes, malloc arenas): one process, started with them', () => {
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

  /** `npm run start:prod` in a process group of its own, with `extra` in its environment. */
  async function startNpm(extra: Record<string, string>): Promise<{ service: Service; stop: () => Promise<void> }> {
    const port = await freePort();
    const npm = spawn('npm', ['run', 'start:prod'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? dir, NODE_ENV: 'production', ...env, ...extra, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    npm.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    npm.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<void>((resolve) => npm.once('exit', () => resolve()));
    const service: Service = {
      name: 'npm',
      port,
      url: `http://127.0.0.1:${port}`,
      child: npm,
      output: () => output,
      exited: exited.then(() => ({ code: npm.exitCode, signal: npm.signalCode })),
      stop: async () => ({ code: null, signal: null }),
    };
    await waitForHealth(service);
    return {
      service,
      stop: async () => {
        process.kill(-npm.pid!, 'SIGTERM');
        await exited;
      },
    };
  }

  it("the image's way (its command and ENV): the started process serves, with the settings, and warns of nothing", async () => {
    const service = await startService('image', env);
    try {
      const listening = await listeningLine(() => service.output());
      assert.equal(listening.pid, service.child.pid, 'no relaunch: the started process serves');
      assert.equal(listening.heapLimitMb, expectedHeapLimit);
      assert.equal(listening.mallocArenaMax, String(RUNTIME_SETTINGS.mallocArenaMax));
      assert.equal(environOf(service.child.pid!).MALLOC_MMAP_THRESHOLD_, String(RUNTIME_SETTINGS.mallocMmapThresholdBytes));
      assert.doesNotMatch(service.output(), /Started without/);
      assert.deepEqual(await service.stop(), { code: 0, signal: null });
    } finally {
      await service.stop();
    }
  });

  it("npm run start:prod: the node process npm starts serves with the settings; an operator's own are kept", async () => {
    for (const [extra, heapLimitMb, arenas] of [
      [{}, expectedHeapLimit, String(RUNTIME_SETTINGS.mallocArenaMax)],
      [
        { NODE_OPTIONS: '--max-old-space-size=300 --max-semi-space-size=8', MALLOC_ARENA_MAX: '2' },
        heapLimitWith('--max-old-space-size=300 --max-semi-space-size=8'),
        '2',
      ],
    ] as const) {
      const { service, stop } = await startNpm(extra);
      try {
        const listening = await listeningLine(() => service.output());
        assert.deepEqual(childrenOf(service.child.pid!), [listening.pid], "npm's one child is the service (the shell exec'd it)");
        assert.equal(listening.heapLimitMb, heapLimitMb);
        assert.equal(listening.mallocArenaMax, arenas);
        assert.equal(environOf(listening.pid).MALLOC_MMAP_THRESHOLD_, String(RUNTIME_SETTINGS.mallocMmapThresholdBytes));
        assert.doesNotMatch(service.output(), /Started without/);
      } finally {
        await stop();
      }
    }
  });

  it('node dist/src/main.js without them: it serves all the same, as one process, and says which are missing', async () => {
    const service = await startService('plain', { ...env, NODE_OPTIONS: '', MALLOC_ARENA_MAX: '', MALLOC_MMAP_THRESHOLD_: '' });
    try {
      const listening = await listeningLine(() => service.output());
      assert.equal(listening.pid, service.child.pid);
      const warning = await logLine(() => service.output(), /Started without/);
      assert.equal(warning.level, 40, 'a warning');
      for (const setting of ['--max-old-space-size=192', '--max-semi-space-size=32', 'MALLOC_ARENA_MAX=1', 'MALLOC_MMAP_THRESHOLD_=131072'])
        assert.ok(warning.msg.includes(setting), setting);
      assert.deepEqual(await service.stop(), { code: 0, signal: null });
    } finally {
      await service.stop();
    }
  });

  it("the start scripts (start, start:prod) give the same values, each with an operator's own first, and exec the start command", () => {
    const { NODE_OPTIONS, ...variables } = runtimeEnvironment();
    for (const name of ['start', 'start:prod']) {
      const script = scripts[name];
      assert.ok(script.includes(`exec env NODE_OPTIONS="${NODE_OPTIONS} \${NODE_OPTIONS:-}"`), `${name}: ${script}`);
      for (const [variable, value] of Object.entries(variables))
        assert.ok(script.includes(` ${variable}=\${${variable}:-${value}} `), `${name}: ${variable}`);
      assert.ok(script.endsWith(` ${START_COMMAND.join(' ')}`), `${name} ends with the start command`);
    }
  });
});

// The process settings that keep one instance within its memory budget (250 MB resident under load),
// defined once here and applied however the service is started: V8 and glibc read them only when a
// process starts, so an entry point started without them runs the service as a child process that has
// them (see startWithRuntimeSettings). The Dockerfile's ENV sets the same values, so the image starts
// with them directly (test/dockerfile.spec.ts checks they match).
import { spawn } from 'node:child_process';
import { constants } from 'node:os';

export const RUNTIME_SETTINGS = {
  /** V8's old-space cap, MiB: under load the old space would otherwise grow lazily well past what the service needs. */
  maxOldSpaceSizeMb: 192,
  /**
   * V8's young-generation semi-space, MiB (Node's default is 16). With 50 requests in flight, a 16 MiB
   * nursery is collected while most of their objects are still live, so they are copied and promoted,
   * and the capped old space then fills with them: `npm run bench` on MariaDB measured 270 → 180 µs of
   * CPU per GET by id and a p99 3.5× lower with 32, for about 30 MB more resident (64 went past the
   * 250 MB budget and was slower).
   */
  maxSemiSpaceSizeMb: 32,
  /**
   * glibc malloc arenas: with one, each libuv pool thread that ran a password hash does not keep its
   * 16 MiB scrypt buffer in an arena of its own (about 35 MB that logins never gave back).
   */
  mallocArenaMax: 1,
  /**
   * glibc's mmap threshold, bytes: blocks from 128 KiB up get pages of their own, returned when freed.
   * Left to glibc, the threshold rises with each such block freed and large buffers then stay in the heap:
   * `npm run bench:memory` measured idle 208–209 → 194–198 MB and highest 251–252 → 240–242 MB with it
   * (docs/operations.md, "Memory and GC"). Not worth a relaunch of its own: a process that has everything
   * else runs without it.
   */
  mallocMmapThresholdBytes: 131_072,
} as const;

/** The V8 flags of the settings, each with the pattern that finds an operator's own value (either spelling). */
const V8_FLAGS = [
  { pattern: /^--max[-_]old[-_]space[-_]size(=|$)/, flag: `--max-old-space-size=${RUNTIME_SETTINGS.maxOldSpaceSizeMb}` },
  { pattern: /^--max[-_]semi[-_]space[-_]size(=|$)/, flag: `--max-semi-space-size=${RUNTIME_SETTINGS.maxSemiSpaceSizeMb}` },
] as const;

/** The environment that starts a Node process with the settings (the Dockerfile's ENV). */
export function runtimeEnvironment(): { NODE_OPTIONS: string; MALLOC_ARENA_MAX: string; MALLOC_MMAP_THRESHOLD_: string } {
  return {
    NODE_OPTIONS: V8_FLAGS.map(({ flag }) => flag).join(' '),
    MALLOC_ARENA_MAX: String(RUNTIME_SETTINGS.mallocArenaMax),
    MALLOC_MMAP_THRESHOLD_: String(RUNTIME_SETTINGS.mallocMmapThresholdBytes),
  };
}

const isSet = (value: string | undefined) => value !== undefined && value !== '';

/**
 * What a process started with `execArgv` and `env` lacks: the Node flags and environment variables to
 * add, or null when it has everything but perhaps the mmap threshold. An operator's own values are kept.
 */
export function missingSettings(execArgv: readonly string[], env: NodeJS.ProcessEnv): { execArgv: string[]; env: Record<string, string> } | null {
  const given = [...execArgv, ...(env.NODE_OPTIONS ?? '').split(/\s+/)];
  const flags = V8_FLAGS.filter(({ pattern }) => !given.some((flag) => pattern.test(flag))).map(({ flag }) => flag);
  if (!flags.length && isSet(env.MALLOC_ARENA_MAX)) return null;
  const { NODE_OPTIONS: _flags, ...variables } = runtimeEnvironment();
  return { execArgv: flags, env: Object.fromEntries(Object.entries(variables).filter(([name]) => !isSet(env[name]))) };
}

const FORWARDED_SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;

/**
 * Returns false when this process already runs with the settings: the caller then starts the service.
 * Otherwise runs this same script again as a child process with them and returns true; this process
 * then only waits: it forwards SIGTERM, SIGINT and SIGHUP to the child and exits as the child does
 * (same code, or same signal). The child shares stdin, stdout and stderr. It runs in a process group
 * of its own, so a terminal's Ctrl-C reaches it once (forwarded), not twice; should this process die
 * without forwarding (SIGKILL), the child sees its channel close and shuts down as on SIGTERM.
 */
export function startWithRuntimeSettings(): boolean {
  if (process.env.RUNTIME_SETTINGS_CHILD === '1') {
    process.channel?.unref();
    process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
    return false;
  }
  const missing = missingSettings(process.execArgv, process.env);
  if (!missing) return false;
  const child = spawn(process.execPath, [...process.execArgv, ...missing.execArgv, ...process.argv.slice(1)], {
    env: { ...process.env, ...missing.env, RUNTIME_SETTINGS_CHILD: '1' },
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    detached: true,
  });
  for (const signal of FORWARDED_SIGNALS) process.on(signal, () => child.kill(signal));
  child.once('error', (error) => {
    console.error(`Could not start the service: ${error.message}`);
    process.exit(1);
  });
  child.once('exit', (code, signal) => {
    if (signal) {
      for (const forwarded of FORWARDED_SIGNALS) process.removeAllListeners(forwarded);
      process.kill(process.pid, signal);
      // A signal this process ignores or cannot receive the same way: report it as a shell would.
      setTimeout(() => process.exit(128 + (constants.signals[signal] ?? 0)), 100).unref();
      return;
    }
    process.exit(code ?? 1);
  });
  return true;
}

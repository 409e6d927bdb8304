// The process settings that keep one instance within its memory budget (250 MB resident under load),
// defined once here. V8 and glibc read them only when a process starts, so they are set where the
// process is started: the image's ENV, the `start` and `start:prod` scripts of package.json, and the
// tests' start (test/support/service.ts); test/dockerfile.spec.ts and src/runtime-settings.spec.ts check
// that those match these values. The service runs as one process: a process started without them is
// not relaunched (a second Node process held ~43 MB, docs/operations.md "Memory and GC"), it logs which
// are missing (settingsWarning) and serves.

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
   * (docs/operations.md, "Memory and GC").
   */
  mallocMmapThresholdBytes: 131_072,
} as const;

/** The V8 flags of the settings, each with the pattern that finds an operator's own value (either spelling). */
const V8_FLAGS = [
  { pattern: /^--max[-_]old[-_]space[-_]size(=|$)/, flag: `--max-old-space-size=${RUNTIME_SETTINGS.maxOldSpaceSizeMb}` },
  { pattern: /^--max[-_]semi[-_]space[-_]size(=|$)/, flag: `--max-semi-space-size=${RUNTIME_SETTINGS.maxSemiSpaceSizeMb}` },
] as const;

/** The environment that starts a Node process with the settings (the Dockerfile's ENV, the tests' start). */
export function runtimeEnvironment(): { NODE_OPTIONS: string; MALLOC_ARENA_MAX: string; MALLOC_MMAP_THRESHOLD_: string } {
  return {
    NODE_OPTIONS: V8_FLAGS.map(({ flag }) => flag).join(' '),
    MALLOC_ARENA_MAX: String(RUNTIME_SETTINGS.mallocArenaMax),
    MALLOC_MMAP_THRESHOLD_: String(RUNTIME_SETTINGS.mallocMmapThresholdBytes),
  };
}

const isSet = (value: string | undefined) => value !== undefined && value !== '';

/**
 * The settings a process started with `execArgv` and `env` lacks: Node flags and environment variables,
 * as they would be given (empty when it has them all, or an operator's own values). The glibc variables
 * count only where glibc reads them (`glibc`: Linux).
 */
export function missingSettings(execArgv: readonly string[], env: NodeJS.ProcessEnv, glibc = process.platform === 'linux'): string[] {
  const given = [...execArgv, ...(env.NODE_OPTIONS ?? '').split(/\s+/)];
  const flags = V8_FLAGS.filter(({ pattern }) => !given.some((flag) => pattern.test(flag))).map(({ flag }) => flag);
  const { NODE_OPTIONS: _flags, ...variables } = runtimeEnvironment();
  const unset = glibc
    ? Object.entries(variables)
        .filter(([name]) => !isSet(env[name]))
        .map(([name, value]) => `${name}=${value}`)
    : [];
  return [...flags, ...unset];
}

/** The warning the service logs when it was started without some of the settings; null when it has them. */
export function settingsWarning(execArgv: readonly string[], env: NodeJS.ProcessEnv, glibc?: boolean): string | null {
  const missing = missingSettings(execArgv, env, glibc);
  if (!missing.length) return null;
  return `Started without ${missing.join(' ')}: memory may exceed the 250 MB budget. Start it with \`npm start\`, \`npm run start:prod\` or the image, which set them (docs/operations.md, "Memory and GC").`;
}

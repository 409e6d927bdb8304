import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { missingSettings, runtimeEnvironment, RUNTIME_SETTINGS } from './runtime-settings.js';

describe('missingSettings', () => {
  const heapFlag = `--max-old-space-size=${RUNTIME_SETTINGS.maxOldSpaceSizeMb}`;
  const nurseryFlag = `--max-semi-space-size=${RUNTIME_SETTINGS.maxSemiSpaceSizeMb}`;
  const arenas = String(RUNTIME_SETTINGS.mallocArenaMax);
  const mmap = String(RUNTIME_SETTINGS.mallocMmapThresholdBytes);

  it('a process started with none gets them all: the heap sizes as Node flags, the arena count in its environment', () => {
    assert.deepEqual(missingSettings([], {}), { execArgv: [heapFlag, nurseryFlag], env: { MALLOC_ARENA_MAX: arenas, MALLOC_MMAP_THRESHOLD_: mmap } });
  });

  it("nothing is missing with the image's environment", () => {
    assert.equal(missingSettings([], runtimeEnvironment()), null);
  });

  it("an operator's own heap sizes are kept, from NODE_OPTIONS or the command line, in either spelling", () => {
    for (const [execArgv, env] of [
      [[], { NODE_OPTIONS: '--enable-source-maps --max-old-space-size=512' }],
      [['--max_old_space_size=512'], {}],
    ] as const) {
      assert.deepEqual(missingSettings(execArgv, env), { execArgv: [nurseryFlag], env: { MALLOC_ARENA_MAX: arenas, MALLOC_MMAP_THRESHOLD_: mmap } });
    }
    assert.deepEqual(missingSettings(['--max_semi_space_size=8'], { NODE_OPTIONS: '--max-old-space-size=512' }), { execArgv: [], env: { MALLOC_ARENA_MAX: arenas, MALLOC_MMAP_THRESHOLD_: mmap } });
  });

  it("an operator's own arena count is kept; an empty one counts as unset", () => {
    assert.deepEqual(missingSettings([], { MALLOC_ARENA_MAX: '4' }), { execArgv: [heapFlag, nurseryFlag], env: { MALLOC_MMAP_THRESHOLD_: mmap } });
    assert.deepEqual(missingSettings([], { MALLOC_ARENA_MAX: '' }), { execArgv: [heapFlag, nurseryFlag], env: { MALLOC_ARENA_MAX: arenas, MALLOC_MMAP_THRESHOLD_: mmap } });
  });

  it('the mmap threshold goes with a relaunch, and an operator\'s own is kept; alone it is not worth one', () => {
    assert.deepEqual(missingSettings([], { MALLOC_MMAP_THRESHOLD_: '65536' }), { execArgv: [heapFlag, nurseryFlag], env: { MALLOC_ARENA_MAX: arenas } });
    assert.equal(missingSettings(['--max-old-space-size=192', '--max-semi-space-size=32'], { MALLOC_ARENA_MAX: '1' }), null);
  });

  it('other Node flags are not taken for a heap size', () => {
    assert.deepEqual(missingSettings(['--max-semi-space-size-x=16'], { NODE_OPTIONS: '--max-old-space-size-percentage=50', MALLOC_ARENA_MAX: '1', MALLOC_MMAP_THRESHOLD_: '65536' }), { execArgv: [heapFlag, nurseryFlag], env: {} });
  });
});

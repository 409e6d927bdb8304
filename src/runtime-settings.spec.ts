import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { missingSettings, runtimeEnvironment, RUNTIME_SETTINGS } from './runtime-settings.js';

describe('missingSettings', () => {
  const heapFlag = `--max-old-space-size=${RUNTIME_SETTINGS.maxOldSpaceSizeMb}`;
  const nurseryFlag = `--max-semi-space-size=${RUNTIME_SETTINGS.maxSemiSpaceSizeMb}`;
  const arenas = String(RUNTIME_SETTINGS.mallocArenaMax);

  it('a process started with none gets them all: the heap sizes as Node flags, the arena count in its environment', () => {
    assert.deepEqual(missingSettings([], {}), { execArgv: [heapFlag, nurseryFlag], env: { MALLOC_ARENA_MAX: arenas } });
  });

  it("nothing is missing with the image's environment", () => {
    assert.equal(missingSettings([], runtimeEnvironment()), null);
  });

  it("an operator's own heap sizes are kept, from NODE_OPTIONS or the command line, in either spelling", () => {
    for (const [execArgv, env] of [
      [[], { NODE_OPTIONS: '--enable-source-maps --max-old-space-size=512' }],
      [['--max_old_space_size=512'], {}],
    ] as const) {
      assert.deepEqual(missingSettings(execArgv, env), { execArgv: [nurseryFlag], env: { MALLOC_ARENA_MAX: arenas } });
    }
    assert.deepEqual(missingSettings(['--max_semi_space_size=8'], { NODE_OPTIONS: '--max-old-space-size=512' }), { execArgv: [], env: { MALLOC_ARENA_MAX: arenas } });
  });

  it("an operator's own arena count is kept; an empty one counts as unset", () => {
    assert.deepEqual(missingSettings([], { MALLOC_ARENA_MAX: '4' }), { execArgv: [heapFlag, nurseryFlag], env: {} });
    assert.deepEqual(missingSettings([], { MALLOC_ARENA_MAX: '' }), { execArgv: [heapFlag, nurseryFlag], env: { MALLOC_ARENA_MAX: arenas } });
  });

  it('other Node flags are not taken for a heap size', () => {
    assert.deepEqual(missingSettings(['--max-semi-space-size-x=16'], { NODE_OPTIONS: '--max-old-space-size-percentage=50', MALLOC_ARENA_MAX: '1' }), { execArgv: [heapFlag, nurseryFlag], env: {} });
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { missingSettings, runtimeEnvironment, RUNTIME_SETTINGS, settingsWarning } from './runtime-settings.js';

describe('missingSettings', () => {
  const heapFlag = `--max-old-space-size=${RUNTIME_SETTINGS.maxOldSpaceSizeMb}`;
  const nurseryFlag = `--max-semi-space-size=${RUNTIME_SETTINGS.maxSemiSpaceSizeMb}`;
  const arenas = `MALLOC_ARENA_MAX=${RUNTIME_SETTINGS.mallocArenaMax}`;
  const mmap = `MALLOC_MMAP_THRESHOLD_=${RUNTIME_SETTINGS.mallocMmapThresholdBytes}`;

  it('a process started with none lacks them all: the heap sizes as Node flags, the glibc variables', () => {
    assert.deepEqual(missingSettings([], {}, true), [heapFlag, nurseryFlag, arenas, mmap]);
  });

  it("nothing is missing with the image's environment, and no warning is logged", () => {
    assert.deepEqual(missingSettings([], runtimeEnvironment(), true), []);
    assert.equal(settingsWarning([], runtimeEnvironment(), true), null);
  });

  it("an operator's own heap sizes count, from NODE_OPTIONS or the command line, in either spelling", () => {
    for (const [execArgv, env] of [
      [[], { NODE_OPTIONS: '--enable-source-maps --max-old-space-size=512' }],
      [['--max_old_space_size=512'], {}],
    ] as const) {
      assert.deepEqual(missingSettings(execArgv, env, true), [nurseryFlag, arenas, mmap]);
    }
    assert.deepEqual(missingSettings(['--max_semi_space_size=8'], { NODE_OPTIONS: '--max-old-space-size=512' }, true), [arenas, mmap]);
  });

  it("an operator's own glibc values count; an empty one counts as unset; without glibc they are not asked for", () => {
    assert.deepEqual(missingSettings([heapFlag, nurseryFlag], { MALLOC_ARENA_MAX: '4', MALLOC_MMAP_THRESHOLD_: '' }, true), [mmap]);
    assert.deepEqual(missingSettings([heapFlag, nurseryFlag], {}, false), []);
  });

  it('other Node flags are not taken for a heap size', () => {
    assert.deepEqual(
      missingSettings(
        ['--max-semi-space-size-x=16'],
        { NODE_OPTIONS: '--max-old-space-size-percentage=50', MALLOC_ARENA_MAX: '1', MALLOC_MMAP_THRESHOLD_: '65536' },
        true,
      ),
      [heapFlag, nurseryFlag],
    );
  });

  it('the warning names what is missing and how to start with it', () => {
    const warning = settingsWarning([heapFlag, nurseryFlag], { MALLOC_MMAP_THRESHOLD_: '1' }, true);
    assert.match(warning ?? '', /^Started without MALLOC_ARENA_MAX=1: .*npm start/);
  });
});

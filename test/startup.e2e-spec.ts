import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';

const main = join(import.meta.dirname, '..', 'src', 'main.js');

describe('start-up', () => {
  it('a bad configuration value stops start-up with a message naming the variable', () => {
    const result = spawnSync(process.execPath, [main], {
      env: { ...process.env, PORT: 'not-a-port', DATABASE_URL: 'sqlite::memory:' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    assert.equal(result.status, 1);
    assert.match(result.stderr, /Configuration error: PORT must be an integer/);
  });
});

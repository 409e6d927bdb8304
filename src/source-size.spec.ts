import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

// Compiled layout: dist/src/this-file.js; the sources are read from the repository's src/.
const src = join(import.meta.dirname, '..', '..', 'src');

/**
 * A source file longer than this holds more than one idea (docs/architecture.md, "The house in one page"):
 * split it along a seam. Specs are exempt: a table of cases is long by nature.
 */
const MAX_LINES = 400;

describe('source files', () => {
  it(`no source file of src/ is longer than ${MAX_LINES} lines (Prettier-formatted)`, () => {
    const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter(
      (file) => file.endsWith('.ts') && !file.endsWith('.spec.ts'),
    );
    assert.ok(files.length > 100, `the scan reads the sources (${files.length} files)`);
    const long = files
      .map((file) => ({ file, lines: readFileSync(join(src, file), 'utf8').trimEnd().split('\n').length }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    assert.deepEqual(long, []);
  });
});

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

// Compiled layout: dist/src/records/this-file.js; the sources are read from the repository's src/.
const src = join(import.meta.dirname, '..', '..', '..', 'src');

/** A change-log entry written by hand: the record machinery's own call, or the change log's. */
const WRITES_HISTORY = /\.recordChange\s*\(|\bchangeLog\s*\.\s*write\s*\(/;

describe("the door for a domain rule's own writes", () => {
  it('no file outside the record machinery (src/records/) writes a change-log entry by hand', () => {
    const found: string[] = [];
    for (const file of readdirSync(src, { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.ts') && !name.endsWith('.spec.ts'))
      .map((name) => name.split('\\').join('/'))) {
      if (file.startsWith('records/')) continue;
      readFileSync(join(src, file), 'utf8')
        .split('\n')
        .forEach((line, index) => {
          if (WRITES_HISTORY.test(line)) found.push(`src/${file}:${index + 1}: ${line.trim()}`);
        });
    }
    assert.deepEqual(
      found,
      [],
      `write through RecordService's door (createRecorded, updateRecorded, changeRecorded, removeRecorded):\n${found.join('\n')}`,
    );
  });

  it('the pattern finds a change recorded by hand', () => {
    assert.ok(WRITES_HISTORY.test("await this.records.recordChange(tx, actor, 'Update', id, before);"));
    assert.ok(WRITES_HISTORY.test('await this.changeLog.write(tx, change, request);'));
    assert.ok(!WRITES_HISTORY.test('this.changeLog.listen({ name, onChange })'));
  });
});

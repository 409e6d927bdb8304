import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createStamp, updateStamp, updateStampParameters, updateStampSql } from './audit-stamp.js';

// Compiled layout: dist/src/records/this-file.js; the sources are read from the repository's src/.
const src = join(import.meta.dirname, '..', '..', '..', 'src');

/**
 * A stamp written by hand: IsNew given a value (an object's field or an UPDATE's SET), or UpdatedBy
 * bound in an UPDATE. Read-only lists of the stamp's column names, and `IsNew: null` templates, are not.
 */
const BUILDS_STAMP = [/\bIsNew['"`)}\]]*\s*(?::|=)\s*(true|false|[01?])/, /\bUpdatedBy['"`)}\]]*\s*=\s*\?/];

/**
 * Where a stamp may be built: the module that makes it, and the migrations with their seed helper,
 * which write the schema of their day and must not change with the code.
 */
const MAY_STAMP = [/^records\/audit-stamp\.ts$/, /^database\/migrations\//, /^database\/migration-helpers\.ts$/, /\.spec\.ts$/];

describe('the audit stamp', () => {
  it('is built in records/audit-stamp.ts only', () => {
    const found: string[] = [];
    for (const file of readdirSync(src, { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.ts'))
      .map((name) => name.split('\\').join('/'))) {
      if (MAY_STAMP.some((allowed) => allowed.test(file))) continue;
      readFileSync(join(src, file), 'utf8')
        .split('\n')
        .forEach((line, index) => {
          if (BUILDS_STAMP.some((pattern) => pattern.test(line))) found.push(`src/${file}:${index + 1}: ${line.trim()}`);
        });
    }
    assert.deepEqual(found, [], `use createStamp/updateStamp (or updateStampSql in a repository):\n${found.join('\n')}`);
  });

  it('the patterns find a stamp written by hand', () => {
    assert.ok(BUILDS_STAMP.some((pattern) => pattern.test('{ UpdatedOn: now, UpdatedBy: actor?.email ?? null, IsNew: false }')));
    assert.ok(
      BUILDS_STAMP.some((pattern) =>
        pattern.test("SET ${q('Version')} = ${q('Version')} + 1, ${q('UpdatedOn')} = ?, ${q('UpdatedBy')} = ?, ${q('IsNew')} = 0"),
      ),
    );
    assert.ok(!BUILDS_STAMP.some((pattern) => pattern.test('@BoolColumn() IsNew: boolean;')));
    assert.ok(
      !BUILDS_STAMP.some((pattern) => pattern.test('const updated = { ...written, UpdatedOn: null, UpdatedBy: null, IsNew: null };')),
    );
  });

  it('stamps a new record and a change with who and when', () => {
    const now = new Date('2026-01-02T03:04:05.000Z');
    const created = createStamp({ email: 'a@b.c' } as never, now);
    assert.match(created.UniqueId, /^[0-9a-f-]{36}$/);
    assert.deepEqual({ ...created, UniqueId: 'u' }, { UniqueId: 'u', CreatedOn: now, UpdatedOn: now, UpdatedBy: 'a@b.c', IsNew: true });
    assert.equal(createStamp(null, now, 'chosen').UniqueId, 'chosen');
    assert.notEqual(createStamp(null).UniqueId, createStamp(null).UniqueId);
    assert.deepEqual(updateStamp('x@y.z', now), { UpdatedOn: now, UpdatedBy: 'x@y.z', IsNew: false });
    assert.deepEqual(updateStamp(undefined, now), { UpdatedOn: now, UpdatedBy: null, IsNew: false });
    assert.equal(
      updateStampSql((name) => `"${name}"`),
      '"Version" = "Version" + 1, "UpdatedOn" = ?, "UpdatedBy" = ?, "IsNew" = 0',
    );
    assert.deepEqual(
      updateStampParameters((date) => date.toISOString(), 'x@y.z', now),
      ['2026-01-02T03:04:05.000Z', 'x@y.z'],
    );
  });
});

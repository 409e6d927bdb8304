import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { generateSqlSnapshots, SQL_SNAPSHOT_DIR } from './sql-snapshots.js';

// Compiled layout: dist/src/this-file.js, so the repository's root is two folders up.
const root = join(import.meta.dirname, '..', '..');
const RUN = 'run `npm run sql:snapshots` and commit docs/sql';

describe('SQL snapshots (docs/sql)', () => {
  it('hold the SQL every record type runs now, on SQLite and MySQL', async () => {
    const generated = await generateSqlSnapshots();
    assert.ok(generated.size > 0);
    for (const [path, text] of generated) {
      const file = join(root, path);
      assert.ok(existsSync(file), `${path} is missing: ${RUN}`);
      assert.equal(readFileSync(file, 'utf8'), text, `${path} differs from the SQL the code runs: ${RUN}`);
    }
    const committed = readdirSync(join(root, SQL_SNAPSHOT_DIR), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.sql'))
      .map((file) => join(SQL_SNAPSHOT_DIR, file));
    for (const path of committed)
      assert.ok(generated.has(path), `${path} belongs to no record type and is not guarantees.sql or repositories.sql: ${RUN}`);
  });
});

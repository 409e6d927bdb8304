// npm run sql:snapshots: writes the SQL each record type runs to docs/sql/<dialect>/<Type>.sql, so a
// reviewer sees a query change in the diff (docs/architecture.md, "SQL snapshots").
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { generateSqlSnapshots, SQL_SNAPSHOT_DIR } from '../src/sql-snapshots.js';

const root = process.cwd();
const files = await generateSqlSnapshots();
// Snapshots of record types that no longer exist go too.
for (const dialect of readdirSync(join(root, SQL_SNAPSHOT_DIR), { withFileTypes: true }).filter((entry) => entry.isDirectory())) {
  for (const file of readdirSync(join(root, SQL_SNAPSHOT_DIR, dialect.name))) {
    const path = join(SQL_SNAPSHOT_DIR, dialect.name, file);
    if (!files.has(path)) rmSync(join(root, path));
  }
}
for (const [path, text] of files) {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}
console.log(`${files.size} SQL snapshots written to ${SQL_SNAPSHOT_DIR}/`);

import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { routesDocument, routeTable, ROUTES_DOC } from './route-table.js';

// Compiled layout: dist/src/this-file.js, so the repository's root is two folders up.
const root = join(import.meta.dirname, '..', '..');

describe('docs/routes.md', () => {
  it('lists every route the code declares now, with its permission and file', () => {
    const rows = routeTable(root);
    assert.ok(
      rows.some(
        (row) =>
          row.method === 'POST' &&
          row.path === '/api/billing/products' &&
          row.permission === 'Product-Create' &&
          row.file.startsWith('src/billing/products/'),
      ),
    );
    assert.ok(rows.some((row) => row.method === 'POST' && row.path === '/api/token' && row.permission === 'public'));
    assert.ok(
      rows.every((row) => row.file !== '?'),
      `routes without a file: ${rows
        .filter((row) => row.file === '?')
        .map((row) => row.path)
        .join(', ')}`,
    );
    const file = join(root, ROUTES_DOC);
    assert.ok(existsSync(file), `${ROUTES_DOC} is missing: run \`npm run docs:routes\` and commit it`);
    assert.equal(
      readFileSync(file, 'utf8'),
      routesDocument(rows),
      `${ROUTES_DOC} is out of date: run \`npm run docs:routes\` and commit it`,
    );
  });
});

// npm run docs:routes: writes docs/routes.md, every route with its permission and the file that
// declares it, from the record router's table and the controllers (docs/architecture.md §1, "Routes").
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { routesDocument, routeTable, ROUTES_DOC } from '../src/route-table.js';

const root = process.cwd();
const rows = routeTable(root);
writeFileSync(join(root, ROUTES_DOC), routesDocument(rows));
console.log(`${rows.length} routes written to ${ROUTES_DOC}`);

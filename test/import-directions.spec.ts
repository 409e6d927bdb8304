import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

// The folders of src/ are layered by dependency (docs/architecture.md §6): a folder imports only
// folders of its own layer or of a lower one, entities included, and no two folders import each other.
// Read from the compiled dist/src, whose import lines are what runs.

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../src');

/** The composition root: the files directly in src/ (app.module, server, main, route table, …). */
const ROOT = '(src)';

/** The layers, lowest first: each top folder of src/ lies in exactly one. */
const LAYERS: readonly (readonly string[])[] = [
  // The data layer: drivers, their connections, the database's errors and the façade over them
  // (`Database`, the write scope). It imports no other folder.
  ['persistence'],
  // What every layer above runs on: logging, outage logs, queues and lanes, deadlines, thread
  // priorities, who acts (principal, access); and the configuration.
  ['platform', 'config'],
  // The record engine: definitions, plan, repository, write flow, wire mapping, service, change log,
  // commands, validation, and the errors and envelopes it answers with.
  ['records'],
  // HTTP: the error writer, bodies, headers, the write interceptor and idempotency, the record router
  // and its pipes, the OpenAPI documents.
  ['http'],
  ['database', 'observability', 'auth', 'downloads', 'health'],
  // The records every area references: businesses, their countries, currencies and tax rates.
  ['kernel'],
  // The customers (coworkers, their teams and logins): what every area bills, books or invites. A
  // coworker's TariffId starts its contracts through CustomerPlans, which billing provides.
  ['customers'],
  // What customers are billed: the record types of products, contracts, invoices and their runs.
  ['billing'],
  ['spaces', 'content'],
  ['public'],
  ['integrations'],
  ['utils', ROOT],
];

/** Imports that still run back down-to-up, as `file → target`; empty once the layers hold. */
const KNOWN_VIOLATIONS: ReadonlySet<string> = new Set<string>([]);

/**
 * The layers inside packages, lowest first, by part: a sub-folder, or a file directly in the package.
 * A part imports only parts of lower layers, never one of its own layer, so no two parts import each
 * other. A part that takes part in no import between parts may be left out.
 */
const PACKAGE_LAYERS: Readonly<Record<string, readonly (readonly string[])[]>> = {
  // The interface, the unit of work (Tx) and what both drivers share; the transactions' bookkeeping;
  // the drivers (which never import each other) and the write scope; the file that picks a driver;
  // the façade over it.
  persistence: [
    ['driver.js', 'database-errors.js', 'request-timeout.js', 'tx.js'],
    ['transaction-steps.js'],
    ['sqlite', 'mysql', 'write-scope.js'],
    ['open-driver.js'],
    ['database.js'],
  ],
  // The queues, logs and priorities stand alone; the list lane runs on the bulk lane and the fair queue.
  platform: [
    [
      'access.js',
      'answer-deadlines.js',
      'bulk-lane.js',
      'fair-queue.js',
      'idle-priority.js',
      'logging.js',
      'outage-log.js',
      'principal.js',
      'round-robin-queue.js',
      'unavailable-log.js',
    ],
    ['list-lane.js'],
  ],
  records: [
    // The vocabulary: column helpers, wire values, field changes, the registry, definitions, rules, events.
    [
      'columns.js',
      'wire-values.js',
      'field-changes.js',
      'record-types.js',
      'page-query.js',
      'audit-stamp.js',
      'record-definition.js',
      'record-rules.js',
      'record-events.js',
    ],
    ['envelopes.js', 'record-plan.js', 'record.entity.js', 'record-links.repository.js'],
    ['errors.js', 'id-lists.js'],
    ['validation', 'versions.js'],
    ['list-query.js', 'commands', 'listed-references.js', 'record.repository.js', 'record-wire.js', 'same-business.js'],
    ['change-log', 'record-sql.js', 'record-writes.js'],
    ['record-door.js'],
    ['record.service.js'],
    ['record.module.js'],
  ],
  http: [
    [
      'http-exception.filter.js',
      'body-limits.js',
      'form-body.js',
      'http-headers.js',
      'openapi.js',
      'openapi-safe-writes.js',
      'record-id.pipe.js',
      'route-context.js',
    ],
    ['idempotency', 'json-body.js', 'openapi-commands.js', 'openapi-document.js', 'record-body.pipe.js'],
    ['write.interceptor.js'],
    ['record-router.js'],
  ],
  // The coworker entity, which logins and teams name; the customer's row lock they share; the logins and
  // teams; the coworker record type, whose read fields and rules look at both.
  customers: [['coworker.entity.js'], ['customer-rows.repository.js'], ['users', 'teams'], ['coworkers']],
  // The billing types by what they name (docs/architecture.md §6). A lower part that needs a higher one
  // declares what it needs and the higher part provides it: the invoices' InvoiceBooks, the ledger
  // entries' EntrySettlement (both settlement's), the credits' CreditUses (the use histories').
  billing: [
    ['tariffs', 'time-passes', 'invoice-issuance.repository.js'],
    ['products', 'invoice-issuance.js', 'invoice-pdf'],
    ['product-booking-credits', 'invoices'],
    ['coworker-invoices'],
    ['coworker-invoice-lines'],
    ['due-items'],
    ['coworker-contracts'],
    ['contract-products', 'coworker-booking-credits'],
    ['coworker-booking-credit-use-histories'],
    ['coworker-time-passes'],
    ['coworker-products'],
    ['coworker-ledger-entries'],
    // Settlement above the runs: deleting an invoice releases what it billed through the runs' due-item sources.
    ['billing-runs'],
    ['settlement'],
    ['charges', 'coworker-invoice-payment-tokens', 'einvoices'],
  ],
};

const layerOf = new Map(LAYERS.flatMap((areas, layer) => areas.map((area) => [area, layer] as const)));

function compiledFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return compiledFiles(path);
    return entry.name.endsWith('.js') && !entry.name.endsWith('.spec.js') ? [path] : [];
  });
}

/** The top folder of src/ a file lies in; the files directly in src/ are the composition root. */
function areaOf(file: string): string {
  const parts = relative(SRC, file).split(sep);
  return parts.length === 1 ? ROOT : parts[0];
}

interface Import {
  file: string;
  target: string;
  from: string;
  to: string;
}

/** Every relative import of the compiled service (static, re-export and dynamic), entities included. */
function imports(): Import[] {
  const found: Import[] = [];
  const pattern = /^(?:import|export)\s[^'"]*?['"](\.{1,2}\/[^'"]+)['"]|\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/gm;
  for (const file of compiledFiles(SRC)) {
    for (const [, staticTarget, dynamicTarget] of readFileSync(file, 'utf8').matchAll(pattern)) {
      const target = staticTarget ?? dynamicTarget;
      found.push({ file: relative(SRC, file), target, from: areaOf(file), to: areaOf(resolve(dirname(file), target)) });
    }
  }
  return found;
}

/** Area → areas it imports. */
function areaGraph(all: Import[]): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const { from, to } of all) {
    if (from === to) continue;
    if (!graph.has(from)) graph.set(from, new Set());
    graph.get(from)!.add(to);
  }
  return graph;
}

/** The strongly connected groups of more than one area (Tarjan), each as its sorted names. */
function cycles(graph: Map<string, Set<string>>): string[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[] = [];
  const visit = (area: string) => {
    index.set(area, index.size);
    low.set(area, index.get(area)!);
    stack.push(area);
    for (const next of graph.get(area) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(area, Math.min(low.get(area)!, low.get(next)!));
      } else if (stack.includes(next)) {
        low.set(area, Math.min(low.get(area)!, index.get(next)!));
      }
    }
    if (low.get(area) !== index.get(area)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      group.push(member);
    } while (member !== area);
    if (group.length > 1) found.push(group.sort().join(','));
  };
  for (const area of graph.keys()) if (!index.has(area)) visit(area);
  return found;
}

const describeLayer = (area: string) => `${area} (layer ${layerOf.get(area)}: ${LAYERS[layerOf.get(area)!]?.join(', ')})`;

/** The part of a package a file lies in: its sub-folder, or its own name directly in the package. */
const partOf = (pkg: string, file: string) => relative(join(SRC, pkg), file).split(sep)[0];

describe('import directions', () => {
  const all = imports();
  /** The imports between two parts of one package, by part. */
  const partImports = (pkg: string) =>
    all
      .filter(({ from, to }) => from === pkg && to === pkg)
      .map(({ file, target }) => ({
        file,
        target,
        from: partOf(pkg, join(SRC, file)),
        to: partOf(pkg, resolve(dirname(join(SRC, file)), target)),
      }))
      .filter(({ from, to }) => from !== to);

  it('reads the import lines, entity imports included', () => {
    assert.ok(
      all.some(({ target }) => target.endsWith('.entity.js')),
      'entity imports are counted',
    );
    assert.ok(
      all.some(({ from, to }) => from === 'spaces' && to === 'billing'),
      'the scan reads the import lines (spaces imports billing)',
    );
  });

  it('every top folder of src/ lies in a declared layer', () => {
    const undeclared = [...new Set(all.flatMap(({ from, to }) => [from, to]))].filter((area) => !layerOf.has(area));
    assert.deepEqual(undeclared, [], `folders of src/ in no layer of test/import-directions.spec.ts: ${undeclared.join(', ')}`);
  });

  it('no import runs to a higher layer, entities included', () => {
    const upward = all
      .filter(({ from, to }) => layerOf.has(from) && layerOf.has(to) && layerOf.get(to)! > layerOf.get(from)!)
      .filter(({ file, target }) => !KNOWN_VIOLATIONS.has(`${file} → ${target}`))
      .map(({ file, target, from, to }) => `${file} → ${target}: ${describeLayer(from)} imports ${describeLayer(to)}`);
    assert.deepEqual(upward, [], `imports that run up the layers:\n${upward.join('\n')}`);
  });

  it('the folders of src/ import each other one way', () => {
    assert.deepEqual(cycles(areaGraph(all)), []);
  });

  for (const [pkg, layers] of Object.entries(PACKAGE_LAYERS)) {
    const layerOfPart = new Map(layers.flatMap((parts, layer) => parts.map((part) => [part, layer] as const)));
    it(`inside src/${pkg}/, imports run down its layers only`, () => {
      const inside = partImports(pkg);
      assert.ok(inside.length > 0, `the scan reads the imports between the parts of src/${pkg}/`);
      const undeclared = [...new Set(inside.flatMap(({ from, to }) => [from, to]))].filter((part) => !layerOfPart.has(part));
      assert.deepEqual(undeclared, [], `parts of src/${pkg}/ in no layer of PACKAGE_LAYERS.${pkg}: ${undeclared.join(', ')}`);
      const wrong = inside
        .filter(({ from, to }) => layerOfPart.get(to)! >= layerOfPart.get(from)!)
        .map(({ file, target }) => `${file} → ${target}`);
      assert.deepEqual(wrong, [], `imports inside src/${pkg}/ that run up or across its layers:\n${wrong.join('\n')}`);
    });
  }

  it('src/persistence/ imports nothing of the service above it (no HTTP, records or configuration)', () => {
    const out = all
      .filter(({ from, to }) => from === 'persistence' && to !== 'persistence')
      .map(({ file, target }) => `${file} → ${target}`);
    assert.deepEqual(out, [], `the data layer imports from above:\n${out.join('\n')}`);
  });
});

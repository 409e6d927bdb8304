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
  // The data layer: drivers, their connections and the database's errors. It imports no other folder.
  ['persistence'],
  ['common', 'config'],
  ['database', 'observability', 'auth', 'downloads', 'health'],
  // The records every area references: businesses, their countries, currencies and tax rates.
  ['kernel'],
  // Customers (coworkers, teams, their logins) and what they are billed: one group of record types
  // that reference each other (a coworker's tariff starts a contract, a contract names its coworker).
  ['billing'],
  ['spaces', 'content'],
  ['public'],
  ['integrations'],
  ['utils', ROOT],
];

/** Imports that still run back down-to-up, as `file → target`; empty once the layers hold. */
const KNOWN_VIOLATIONS: ReadonlySet<string> = new Set<string>([]);

/**
 * Inside src/persistence/, lowest first: the interface and what both drivers share, then the two
 * drivers (which never import each other), then the one file that picks a driver.
 */
const PERSISTENCE_LAYERS: readonly (readonly string[])[] = [
  ['driver.js', 'database-errors.js', 'request-timeout.js', 'transaction-steps.js'],
  ['sqlite', 'mysql'],
  ['open-driver.js'],
];

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

interface Import { file: string; target: string; from: string; to: string }

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

const persistenceLayerOf = new Map(PERSISTENCE_LAYERS.flatMap((parts, layer) => parts.map((part) => [part, layer] as const)));
/** The part of src/persistence/ a file lies in: its sub-folder, or its own name directly in the folder. */
const persistencePart = (file: string) => relative(join(SRC, 'persistence'), file).split(sep)[0];

describe('import directions', () => {
  const all = imports();

  it('reads the import lines, entity imports included', () => {
    assert.ok(all.some(({ target }) => target.endsWith('.entity.js')), 'entity imports are counted');
    assert.ok(all.some(({ from, to }) => from === 'spaces' && to === 'billing'), 'the scan reads the import lines (spaces imports billing)');
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

  it('inside src/persistence/, imports run down its layers only, and the two drivers never import each other', () => {
    const inside = all
      .filter(({ from, to }) => from === 'persistence' && to === 'persistence')
      .map(({ file, target }) => ({ file, target, from: persistencePart(join(SRC, file)), to: persistencePart(resolve(dirname(join(SRC, file)), target)) }));
    assert.ok(inside.some(({ from }) => from === 'mysql'), 'the scan reads src/persistence/ (the MySQL driver imports the interface)');
    const undeclared = [...new Set(inside.flatMap(({ from, to }) => [from, to]))].filter((part) => !persistenceLayerOf.has(part));
    assert.deepEqual(undeclared, [], `parts of src/persistence/ in no layer of PERSISTENCE_LAYERS: ${undeclared.join(', ')}`);
    const wrong = inside
      .filter(({ from, to }) => from !== to && persistenceLayerOf.get(to)! >= persistenceLayerOf.get(from)!)
      .map(({ file, target }) => `${file} → ${target}`);
    assert.deepEqual(wrong, [], `imports inside src/persistence/ that run up or across:\n${wrong.join('\n')}`);
  });

  it('src/persistence/ imports nothing of the service above it (no HTTP, records or configuration)', () => {
    const out = all.filter(({ from, to }) => from === 'persistence' && to !== 'persistence').map(({ file, target }) => `${file} → ${target}`);
    assert.deepEqual(out, [], `the data layer imports from above:\n${out.join('\n')}`);
  });
});

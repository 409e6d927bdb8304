import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

// The folders of src/ depend on each other one way (docs/architecture.md): record areas may share
// entities, but their modules, services and repositories do not import each other in a circle. Read
// from the compiled dist/src, whose import lines are what runs.

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../src');

/** Cycles known and not yet broken, as the sorted names of the folders in them. */
const KNOWN_CYCLES: ReadonlySet<string> = new Set<string>([]);

function compiledFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return compiledFiles(path);
    return entry.name.endsWith('.js') && !entry.name.endsWith('.spec.js') ? [path] : [];
  });
}

/** The top folder of src/ a file lies in (a file directly in src/ stands for itself). */
const areaOf = (file: string) => relative(SRC, file).split(sep)[0].replace(/\.js$/, '');

/** Area → areas it imports, leaving out imports of entities (shared by design). */
function areaImports(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of compiledFiles(SRC)) {
    for (const [, target] of readFileSync(file, 'utf8').matchAll(/^(?:import|export)\s[^'"]*?['"](\.{1,2}\/[^'"]+)['"]/gm)) {
      if (target.endsWith('.entity.js')) continue;
      const from = areaOf(file);
      const to = areaOf(resolve(dirname(file), target));
      if (from === to) continue;
      if (!graph.has(from)) graph.set(from, new Set());
      graph.get(from)!.add(to);
    }
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

describe('import directions', () => {
  it('the folders of src/ import each other one way, entities aside', () => {
    const graph = areaImports();
    assert.ok(graph.get('spaces')?.has('billing'), 'the scan reads the import lines (spaces imports billing)');
    assert.deepEqual(cycles(graph).filter((cycle) => !KNOWN_CYCLES.has(cycle)), []);
  });
});

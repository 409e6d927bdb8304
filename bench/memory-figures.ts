// The memory targets of issue #51 (docs/performance.md, "Figures of 2026-11-29"): the service's whole
// process tree under load within 1.3× of the bare server's resident memory in the same run, and under
// 250 MB (docs/operations.md, "Memory and GC").
import type { Measure } from './harness.js';

export const MEMORY_RATIO_TARGET = 1.3;
export const MEMORY_BUDGET_MB = 250;

interface Row {
  case: string;
  baseline: string;
  readmeSettings?: boolean;
  ours: Measure;
  bare: Measure;
}

export interface MemoryFigures {
  /** Highest RSS of the service's process tree (the image's way), of the bare server, over the cases they both ran. */
  serviceMb: number;
  bareMb: number;
  ratio: number;
  /** Highest RSS of the README's way (npm and the service it runs), when a case ran on it. */
  readmeMb: number | null;
  met: boolean;
}

/** The figures and the line that prints them; null when no case ran against the bare server. */
export function memoryFigures(rows: Row[]): { figures: MemoryFigures; line: string } | null {
  const vsBare = rows.filter((row) => row.baseline === 'bare' && !row.readmeSettings);
  if (!vsBare.length) return null;
  const highest = (measures: Measure[]) => Math.max(...measures.map((m) => m.rssMb ?? 0));
  const serviceMb = highest(vsBare.map((row) => row.ours));
  const bareMb = highest(vsBare.map((row) => row.bare));
  const readme = rows.filter((row) => row.readmeSettings);
  const readmeMb = readme.length ? highest(readme.map((row) => row.ours)) : null;
  const ratio = serviceMb / Math.max(1, bareMb);
  const met = ratio <= MEMORY_RATIO_TARGET && serviceMb < MEMORY_BUDGET_MB;
  const line =
    `memory under load, highest RSS of the process tree over ${vsBare.length} cases: service ${serviceMb} MB, bare server ${bareMb} MB, ratio ${ratio.toFixed(2)}` +
    ` (targets ≤ ${MEMORY_RATIO_TARGET}× and < ${MEMORY_BUDGET_MB} MB: ${met ? 'met' : 'NOT met'})` +
    (readmeMb === null ? '' : ` | started the README's way (npm and the service): ${readmeMb} MB`);
  return { figures: { serviceMb, bareMb, ratio, readmeMb, met }, line };
}

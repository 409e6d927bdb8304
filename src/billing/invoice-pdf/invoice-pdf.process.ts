import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { setPriority } from 'node:os';
import { zipSync } from 'fflate';
import { renderInvoicePdf, type PdfDocumentInput } from './invoice-pdf.js';

/**
 * A job for the PDF process: the documents to render, in order; with `zipNames` (one file name each), one
 * zip holding them under those names instead (made here too: its CRC pass over every byte would otherwise
 * hold up the request thread for a long batch).
 */
export interface PdfJob {
  id: number;
  documents: PdfDocumentInput[];
  zipNames?: string[];
}

export type PdfJobResult = { id: number; pdfs: Uint8Array[] } | { id: number; error: string };

/**
 * Every thread of this process (its V8 helper threads included, which its garbage collections use) gets
 * the idle scheduling class, SCHED_IDLE, where Linux offers it (util-linux's `chrt`), else nice 19
 * (docs/settlement.md, "The PDF and its download"). Threads made later inherit it. A request the service
 * has to answer then preempts a PDF at once on a core they share; and as this is a process of its own,
 * no lock the service's thread needs (the allocator's, with MALLOC_ARENA_MAX=1, or a message port's) can be
 * held by a PDF thread that waits for the CPU.
 */
export function lowerPriority(): 'idle' | 'nice' | 'default' {
  if (process.platform !== 'linux') return 'default';
  if (spawnSync('chrt', ['--all-tasks', '--idle', '--pid', '0', String(process.pid)], { stdio: 'ignore' }).status === 0) return 'idle';
  let lowered = false;
  try {
    for (const task of readdirSync('/proc/self/task')) {
      setPriority(Number(task), 19);
      lowered = true;
    }
  } catch {
    /* not allowed here */
  }
  return lowered ? 'nice' : 'default';
}

/** Renders what the service sends (invoice-pdf.renderer.ts), one job at a time, until the service goes. */
function serve(): void {
  lowerPriority();
  process.on('disconnect', () => process.exit(0));
  process.on('message', (job: PdfJob) => {
    void (async () => {
      let result: PdfJobResult;
      try {
        const pdfs: Uint8Array[] = [];
        for (const document of job.documents) pdfs.push(await renderInvoicePdf(document));
        // PDFs are compressed already: a zip stores them as they are.
        result = job.zipNames
          ? { id: job.id, pdfs: [zipSync(Object.fromEntries(job.zipNames.map((name, i) => [name, [pdfs[i], { level: 0 }] as [Uint8Array, { level: 0 }]])))] }
          : { id: job.id, pdfs };
      } catch (error) {
        result = { id: job.id, error: error instanceof Error ? error.message : String(error) };
      }
      process.send!(result);
    })();
  });
}

if (process.send) serve();

import { zipSync } from 'fflate';
import { runAtIdlePriority } from '../../common/idle-priority.js';
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
 * Renders what the service sends (invoice-pdf.renderer.ts), one job at a time, until the service goes.
 * At the idle scheduling class: a request the service has to answer preempts a PDF at once on a core they
 * share; and as this is a process of its own, no lock the service's thread needs (the allocator's, with
 * MALLOC_ARENA_MAX=1, or a message port's) can be held by a PDF thread that waits for the CPU.
 */
function serve(): void {
  runAtIdlePriority();
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

import { zipSync } from 'fflate';
import { runAtIdlePriority } from '../../platform/idle-priority.js';
import type { PdfDocumentInput } from './invoice-pdf-content.js';
import { renderInvoicePdf } from './invoice-pdf.js';

/**
 * One step of a print for the PDF process: the PDF of one document, or one zip of PDFs made already,
 * each under its file name (made here too: its CRC pass over every byte would otherwise hold up the
 * request thread for a long batch). A print is sent step by step (invoice-pdf.renderer.ts), so the
 * process holds one document at a time and the steps of other businesses' prints come in between.
 */
export type PdfStep = { id: number; document: PdfDocumentInput } | { id: number; zip: Array<[name: string, pdf: Uint8Array]> };

export type PdfStepResult = { id: number; bytes: Uint8Array } | { id: number; error: string };

/**
 * Does what the service sends (invoice-pdf.renderer.ts), one step at a time, until the service goes.
 * At the idle scheduling class: a request the service has to answer preempts a PDF at once on a core they
 * share; and as this is a process of its own, no lock the service's thread needs (the allocator's, with
 * MALLOC_ARENA_MAX=1, or a message port's) can be held by a PDF thread that waits for the CPU.
 */
function serve(): void {
  runAtIdlePriority();
  process.on('disconnect', () => process.exit(0));
  process.on('message', (step: PdfStep) => {
    void (async () => {
      let result: PdfStepResult;
      try {
        // PDFs are compressed already: a zip stores them as they are.
        const bytes =
          'zip' in step
            ? zipSync(Object.fromEntries(step.zip.map(([name, pdf]) => [name, [pdf, { level: 0 }] as [Uint8Array, { level: 0 }]])))
            : await renderInvoicePdf(step.document);
        result = { id: step.id, bytes };
      } catch (error) {
        result = { id: step.id, error: error instanceof Error ? error.message : String(error) };
      }
      process.send!(result);
    })();
  });
}

if (process.send) serve();

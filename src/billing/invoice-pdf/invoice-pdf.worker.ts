import { parentPort } from 'node:worker_threads';
import { renderInvoicePdf, type PdfDocumentInput } from './invoice-pdf.js';

/** A job for the PDF thread: the documents to render, in order. */
export interface PdfJob {
  id: number;
  documents: PdfDocumentInput[];
}

export type PdfJobResult = { id: number; pdfs: Uint8Array[] } | { id: number; error: string };

// The thread of InvoicePdfRenderer (invoice-pdf.renderer.ts): renders what it is sent, one job at a time.
parentPort!.on('message', (job: PdfJob) => {
  void (async () => {
    try {
      const pdfs: Uint8Array[] = [];
      for (const document of job.documents) pdfs.push(await renderInvoicePdf(document));
      // Copied, not transferred: a small Buffer may share its memory with others.
      parentPort!.postMessage({ id: job.id, pdfs } satisfies PdfJobResult);
    } catch (error) {
      parentPort!.postMessage({ id: job.id, error: error instanceof Error ? error.message : String(error) } satisfies PdfJobResult);
    }
  })();
});

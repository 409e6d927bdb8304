import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { zipSync } from 'fflate';
import { renderInvoicePdf, type PdfDocumentInput } from './invoice-pdf.js';

/**
 * A job for the PDF thread: the documents to render, in order; with `zipNames` (one file name each), one
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
 * This thread's id to the kernel (Linux: /proc/thread-self is /proc/<pid>/task/<tid>); null elsewhere.
 * Linux keeps a nice value per thread, so setPriority(tid) lowers this thread's alone.
 */
function threadId(): number | null {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) && tid > 0 ? tid : null;
  } catch {
    return null;
  }
}

// The PDFs are made at the lowest nice value (19; docs/settlement.md, "The PDF and its download"): on a
// machine whose cores are all busy, and above all in a service given one core, the scheduler then gives
// the request thread the CPU first, and this thread what is left over (bench: the GETs' median latency
// while PDFs are made went from ~10 ms to ~6 ms). Not SCHED_IDLE: tried, a thread that may then wait
// indefinitely behind the machine's other work held up the request thread (a longer p99). A platform
// where a thread's priority cannot be set keeps the default.
const tid = threadId();
if (tid !== null) {
  try {
    setPriority(tid, 19);
  } catch {
    /* not allowed here: the default priority */
  }
}

// The thread of InvoicePdfRenderer (invoice-pdf.renderer.ts): renders what it is sent, one job at a time.
parentPort!.on('message', (job: PdfJob) => {
  void (async () => {
    try {
      const pdfs: Uint8Array[] = [];
      for (const document of job.documents) pdfs.push(await renderInvoicePdf(document));
      if (job.zipNames) {
        // PDFs are compressed already: stored as they are.
        const entries = Object.fromEntries(job.zipNames.map((name, i) => [name, [pdfs[i], { level: 0 }] as [Uint8Array, { level: 0 }]]));
        parentPort!.postMessage({ id: job.id, pdfs: [zipSync(entries)] } satisfies PdfJobResult);
        return;
      }
      // Copied, not transferred: a small Buffer may share its memory with others.
      parentPort!.postMessage({ id: job.id, pdfs } satisfies PdfJobResult);
    } catch (error) {
      parentPort!.postMessage({ id: job.id, error: error instanceof Error ? error.message : String(error) } satisfies PdfJobResult);
    }
  })();
});

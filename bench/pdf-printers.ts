// The printers of the PDF bench (bench/pdf.ts), in a process of their own: their requests, answers and
// downloads are handled apart from the event loop that times the GETs, so the GETs' latency is the service's.
import { runAtIdlePriority } from '../src/platform/idle-priority.js';

export interface PrintersJob {
  base: string;
  headers: Record<string, string>;
  invoice: number;
  printers: number;
  /** The invoice each printer prints, in turn (printer i: invoices[i % length]); `invoice` for all when absent. */
  invoices?: number[];
  /**
   * Prints started per second, at a steady pace (a back office's), whatever the time each takes, instead of
   * `printers` loops printing as fast as they are answered.
   */
  rate?: number;
  /** Date.now() at which the printers stop (each ends the print it is making). */
  until: number;
  /** Spin on the CPU until then instead of printing (a control of the PDF bench, BENCH_PDF_CONTROL=spin). */
  spin?: boolean;
}

async function json(base: string, headers: Record<string, string>, path: string, body: unknown): Promise<any> {
  const res = await fetch(base + path, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const parsed = (await res.json()) as any;
  if (res.status !== 200 || parsed.WasSuccessful === false) throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(parsed)}`);
  return parsed;
}

/** Paced prints in flight at most (see printLoops). */
const MAX_IN_FLIGHT = 8;

/** One print and its download: the milliseconds it took. */
async function printOnce(base: string, headers: Record<string, string>, invoice: number): Promise<number> {
  const began = performance.now();
  const answer = await json(base, headers, '/api/billing/coworkerinvoices/runcommand', { Key: 'COWORKER_INVOICE_PRINT', Ids: [invoice] });
  const pdf = await fetch(base + String(answer.RedirectURL));
  const bytes = await pdf.arrayBuffer();
  if (pdf.status !== 200 || bytes.byteLength < 1000 || !Buffer.from(bytes.slice(0, 5)).equals(Buffer.from('%PDF-')))
    throw new Error(`download: ${pdf.status}`);
  return performance.now() - began;
}

/** What the printers did: the milliseconds of each print, and the invoice each printed. */
export interface Printed {
  times: number[];
  invoices: number[];
}

/** Prints and downloads in `printers` loops (or at `rate` a second) until `until`. */
export async function printLoops({ base, headers, invoice, printers, invoices, rate, until, spin }: PrintersJob): Promise<Printed> {
  const printed: Printed = { times: [], invoices: [] };
  if (spin) {
    while (Date.now() < until) {
      // Only user-space work: no system call but the clock's (vDSO), no allocation.
    }
    return printed;
  }
  const record = async (which: number) => {
    const ms = await printOnce(base, headers, which);
    printed.times.push(ms);
    printed.invoices.push(which);
  };
  if (rate) {
    // Open loop: print i starts at start + i/rate, whether or not the earlier ones were answered, but
    // never more than MAX_IN_FLIGHT at once: a user keeps only their newest 10 stored files
    // (docs/performance.md, "Printing: bounded and fair"), so an eleventh print would delete a link not yet
    // downloaded. Then the pace slips, and the PDFs/s made say so.
    const started = new Set<Promise<void>>();
    const start = performance.now();
    for (let i = 0; Date.now() < until; i++) {
      const wait = start + (i * 1000) / rate - performance.now();
      if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
      while (started.size >= MAX_IN_FLIGHT) await Promise.race(started);
      const one: Promise<void> = record(invoice).finally(() => started.delete(one));
      started.add(one);
    }
    await Promise.all(started);
    return printed;
  }
  await Promise.all(
    Array.from({ length: printers }, async (_, i) => {
      const which = invoices?.length ? invoices[i % invoices.length] : invoice;
      while (Date.now() < until) await record(which);
    }),
  );
  return printed;
}

// Started by bench/pdf.ts with the job as its one message; answers the times, then ends.
if (process.send) {
  runAtIdlePriority();
  process.once('message', (job: PrintersJob) => {
    printLoops(job).then(
      (printed) => process.send!(printed, () => process.exit(0)),
      (error: unknown) => process.send!({ error: String(error) }, () => process.exit(1)),
    );
  });
}

// The printers of the PDF bench (bench/pdf.ts), in a process of their own: their requests, answers and
// downloads are handled apart from the event loop that times the GETs, so the GETs' latency is the service's.
import { runAtIdlePriority } from '../src/common/idle-priority.js';

export interface PrintersJob {
  base: string;
  headers: Record<string, string>;
  invoice: number;
  printers: number;
  /** Date.now() at which the printers stop (each ends the print it is making). */
  until: number;
  /** Spin on the CPU until then instead of printing (a control of the PDF bench, BENCH_PDF_CONTROL=spin). */
  spin?: boolean;
}

async function json(base: string, headers: Record<string, string>, path: string, body: unknown): Promise<any> {
  const res = await fetch(base + path, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const parsed = (await res.json()) as any;
  if (res.status !== 200 || parsed.WasSuccessful === false) throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(parsed)}`);
  return parsed;
}

/** Prints and downloads the invoice in `printers` loops until `until`; the milliseconds of each. */
export async function printLoops({ base, headers, invoice, printers, until, spin }: PrintersJob): Promise<number[]> {
  const times: number[] = [];
  if (spin) {
    while (Date.now() < until) {
      // Only user-space work: no system call but the clock's (vDSO), no allocation.
    }
    return times;
  }
  await Promise.all(Array.from({ length: printers }, async () => {
    while (Date.now() < until) {
      const began = performance.now();
      const answer = await json(base, headers, '/api/billing/coworkerinvoices/runcommand', { Key: 'COWORKER_INVOICE_PRINT', Ids: [invoice] });
      const pdf = await fetch(base + String(answer.RedirectURL));
      const bytes = await pdf.arrayBuffer();
      if (pdf.status !== 200 || bytes.byteLength < 1000 || !Buffer.from(bytes.slice(0, 5)).equals(Buffer.from('%PDF-'))) throw new Error(`download: ${pdf.status}`);
      times.push(performance.now() - began);
    }
  }));
  return times;
}

// Started by bench/pdf.ts with the job as its one message; answers the times, then ends.
if (process.send) {
  runAtIdlePriority();
  process.once('message', (job: PrintersJob) => {
    printLoops(job).then(
      (times) => process.send!({ times }, () => process.exit(0)),
      (error: unknown) => process.send!({ error: String(error) }, () => process.exit(1)),
    );
  });
}

// The invoice PDF under load (docs/settlement.md, docs/performance.md): PDFs per second of a 20-line invoice
// printed through the service (COWORKER_INVOICE_PRINT and the download), and the latency of GET by id with
// and without PDFs being made at the same time. The GETs are sent at a steady rate well below what the
// service can answer (not as fast as it answers, which would measure its queue), each timed from the moment
// it was due to be sent; so a request thread held up by PDF work shows as a longer p99, and the ratio of the
// two p99s says whether making PDFs gets in the way of answering requests (the target: ≤ 1.5×).
//
// BENCH_PDF_CONTROL=spin runs a control instead: in the slices that would print, a process only spins on the
// service's core in the idle scheduling class (no PDF, no request, no system call), so the ratio shows what a
// core kept busy costs GET by id on this machine by itself (docs/performance.md, "Figures of 2026-11-27,
// the third session").
import { Agent } from 'node:http';
import { readFileSync } from 'node:fs';
import { fork, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { childProcesses, cpuMicros, DURATION, median, ROUNDS, type Case } from './harness.js';
import type { Printed, PrintersJob } from './pdf-printers.js';
import { latencyOf, medianLatency, percentile, probe, type Latency } from './probe.js';

const PRINTERS = Number(process.env.BENCH_PDF_CONCURRENCY ?? 4);
/** GETs per second while measuring their latency. */
const PROBE_RATE = Number(process.env.BENCH_PDF_PROBE_RATE ?? 200);
/** PDFs started per second while GET by id is timed: a back office's pace (0: PRINTERS loops as fast as answered). */
const PRINT_RATE = Number(process.env.BENCH_PDF_PRINT_RATE ?? 10);
export const PDF_P99_TARGET = 1.5;

export const PDF_CONTROL = ((): 'spin' | undefined => {
  const control = process.env.BENCH_PDF_CONTROL;
  if (!control) return undefined;
  if (control !== 'spin') throw new Error(`BENCH_PDF_CONTROL is 'spin' or unset, not '${control}'`);
  return control;
})();

export interface PdfFigures {
  /** Prints and downloads per second, PRINTERS at a time, nothing else running. */
  pdfsPerSecond: number;
  /** Milliseconds of a print and its download, median. */
  printMedianMs: number;
  /**
   * Served in turn: business 1's printers and business 2's (3 and 1 of the 4), their PDFs/s per printer and
   * median milliseconds. Served first come first served, each printer would get as many; in strict turns
   * (when the PDF process is what they wait for), business 2's one printer gets as many as business 1's three.
   */
  turns: { perPrinter: [number, number]; printers: [number, number]; medianMs: [number, number] };
  /** PDFs started per second while GET by id is timed (null: PRINTERS loops as fast as answered). */
  printRate: number | null;
  /** GET by id at PROBE_RATE per second: the medians over the rounds. */
  getAlone: Latency;
  getWhilePrinting: Latency;
  /** The median over the rounds of (p99 while printing ÷ p99 alone), each round measuring both. */
  p99Ratio: number;
  rounds: Array<{ alone: Latency; whilePrinting: Latency; pdfsPerSecond: number }>;
  pdfsPerSecondUnderGets: number;
  probeRate: number;
  printers: number;
  /** CPU milliseconds per PDF (print + download) of the service's request thread, and of its other threads and its PDF process. */
  requestThreadCpuMsPerPdf?: number;
  otherThreadsCpuMsPerPdf?: number;
}

/** User + system CPU time of a process's child processes (the PDF process) so far, in µs. */
const childrenCpuMicros = (pid: number): number => childProcesses(pid).reduce((sum, child) => sum + cpuMicros(child), 0);

/** User + system CPU time of a process's main thread (the request thread) so far, in µs. */
function mainThreadCpuMicros(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return 0;
  }
}

export async function json(base: string, headers: Record<string, string>, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(base + path, {
    method,
    headers: { ...headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const parsed = (await res.json()) as any;
  if (res.status !== 200 || parsed.WasSuccessful === false) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(parsed)}`);
  return parsed;
}

/** An invoice of 20 lines made by a billing run: a monthly contract that started 20 months ago. */
async function twentyLineInvoice(base: string, headers: Record<string, string>, business = 1): Promise<number> {
  const tariff = (
    await json(base, headers, 'POST', '/api/billing/tariffs', { BusinessId: business, Name: 'Bench desk', Price: 199.99, CurrencyId: 1 })
  ).Value.Id;
  const customer = (
    await json(base, headers, 'POST', '/api/spaces/coworkers', {
      BusinessId: business,
      FullName: 'Zoë Šťastná Дмитрий Ανδρέας',
      Email: `pdf.${business}.${Date.now()}@bench.example`,
      Address: 'Ulica Łódzka 5',
      City: 'Kraków',
    })
  ).Value.Id;
  const start = new Date();
  start.setUTCMonth(start.getUTCMonth() - 19, 1);
  await json(base, headers, 'POST', '/api/billing/coworkercontracts', {
    CoworkerId: customer,
    TariffId: tariff,
    StartDate: start.toISOString().slice(0, 10),
    BillingDay: 1,
  });
  const run = await json(base, headers, 'POST', '/api/spaces/coworkers/runcommand', { Key: 'COWORKER_BILL_RUN', Ids: [customer] });
  const invoice = run.Value[0].Id as number;
  const lines = await json(
    base,
    headers,
    'GET',
    `/api/billing/coworkerinvoicelines?CoworkerInvoiceLine_CoworkerInvoice=${invoice}&size=100`,
  );
  if (lines.Records.length !== 20) throw new Error(`the bench invoice has ${lines.Records.length} lines, not 20`);
  return invoice;
}

/**
 * Prints and downloads the invoice in `PRINTERS` loops until `until`, in a process of their own
 * (bench/pdf-printers.ts) at the idle scheduling class (src/platform/idle-priority.ts): they share the bench's core
 * with the loop that times the GETs, and must not delay it (nor share its heap, its collector's threads or
 * its allocator), so that the latencies measured are the service's. With V8 on one thread, as the PDF
 * process (invoice-pdf.renderer.ts): idle-class helper threads still delay others' wake-ups on a VM
 * (docs/performance.md, "Figures of 2026-11-27"). The times of each print. With `spin`, the process only
 * spins until `until`, moved to `spin.core` (a control: BENCH_PDF_CONTROL=spin).
 */
function printLoops(
  base: string,
  headers: Record<string, string>,
  invoice: number,
  until: number,
  spin?: { core?: number },
  pace: Pick<PrintersJob, 'invoices' | 'rate'> = {},
): Promise<Printed> {
  return new Promise((resolve, reject) => {
    const printers = fork(fileURLToPath(new URL('./pdf-printers.js', import.meta.url)), [], {
      execArgv: ['--single-threaded'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      serialization: 'advanced',
    });
    if (spin?.core !== undefined && printers.pid)
      spawnSync('taskset', ['--all-tasks', '--pid', '--cpu-list', String(spin.core), String(printers.pid)], { stdio: 'ignore' });
    printers.once('message', (result: Printed | { error: string }) =>
      'times' in result ? resolve(result) : reject(new Error(result.error)),
    );
    printers.once('error', reject);
    printers.once('exit', (code) => reject(new Error(`the printers stopped (exit code ${code})`)));
    printers.send({ base, headers, invoice, printers: PRINTERS, until, spin: spin !== undefined, ...pace } satisfies PrintersJob);
  });
}

/** Seconds of each slice of the measurement, alternately with and without PDFs being made. */
const SLICE_SECONDS = Number(process.env.BENCH_PDF_SLICE ?? 2);

/** With `spin` (the control BENCH_PDF_CONTROL=spin), the printing slices only spin on `spin.core`. */
export async function pdfBench(
  base: string,
  headers: Record<string, string>,
  getCase: Case,
  servingPid?: number,
  spin?: { core?: number },
): Promise<PdfFigures> {
  const invoice = await twentyLineInvoice(base, headers);
  // Another business's 20-line invoice: at full throughput one printer prints it beside three printing
  // `invoice`, to see the PDF process serve the two businesses in turn (docs/performance.md, "Printing: bounded and fair").
  const other = await twentyLineInvoice(base, headers, 2);
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  try {
    // Warm-up: the PDF process starts and parses its fonts; the GET path is compiled.
    await printLoops(base, headers, invoice, Date.now() + 2000);
    await probe(agent, base, getCase, 2, PROBE_RATE);
    const cpuBefore = servingPid ? [mainThreadCpuMicros(servingPid), cpuMicros(servingPid) + childrenCpuMicros(servingPid)] : undefined;
    const alone = await printLoops(base, headers, invoice, Date.now() + DURATION * 1000, undefined, {
      invoices: [invoice, invoice, invoice, other],
    });
    const cpu =
      servingPid && cpuBefore
        ? [mainThreadCpuMicros(servingPid) - cpuBefore[0], cpuMicros(servingPid) + childrenCpuMicros(servingPid) - cpuBefore[1]]
        : undefined;
    // GET latency with and without PDFs being made, in short slices taken in turns (ROUNDS × 2 × DURATION
    // seconds in all): on a shared machine the other processes' bursts then fall on both sides alike,
    // where two long windows one after the other would compare two different moments of the machine.
    const rounds: PdfFigures['rounds'] = [];
    const slicesPerRound = Math.max(1, Math.round(DURATION / SLICE_SECONDS));
    for (let round = 0; round < ROUNDS; round++) {
      const pools = { alone: { latencies: [] as number[], failed: 0 }, printing: { latencies: [] as number[], failed: 0 } };
      let printed = 0;
      let printingSeconds = 0;
      for (let slice = 0; slice < 2 * slicesPerRound; slice++) {
        if ((slice + round) % 2 === 0) {
          const got = await probe(agent, base, getCase, SLICE_SECONDS, PROBE_RATE);
          pools.alone.latencies.push(...got.latencies);
          pools.alone.failed += got.failed;
        } else {
          const began = Date.now();
          const printing = printLoops(base, headers, invoice, began + SLICE_SECONDS * 1000, spin, PRINT_RATE ? { rate: PRINT_RATE } : {});
          // The printers are under way before the first GET; the GETs stop before the last prints end.
          await new Promise((resolve) => setTimeout(resolve, 200));
          const got = await probe(agent, base, getCase, SLICE_SECONDS - 0.2, PROBE_RATE);
          pools.printing.latencies.push(...got.latencies);
          pools.printing.failed += got.failed;
          printed += (await printing).times.length;
          printingSeconds += (Date.now() - began) / 1000;
        }
      }
      rounds.push({
        alone: latencyOf(pools.alone.latencies, pools.alone.failed),
        whilePrinting: latencyOf(pools.printing.latencies, pools.printing.failed),
        pdfsPerSecond: printed / printingSeconds,
      });
    }
    const sorted = [...alone.times].sort((a, b) => a - b);
    const printersOf = (which: number) => [invoice, invoice, invoice, other].slice(0, PRINTERS).filter((one) => one === which).length || 1;
    const perPrinter = (which: number) => alone.invoices.filter((one) => one === which).length / DURATION / printersOf(which);
    const medianOf = (which: number) => median(alone.times.filter((_, i) => alone.invoices[i] === which));
    return {
      pdfsPerSecond: alone.times.length / DURATION,
      printMedianMs: percentile(sorted, 50),
      turns: {
        perPrinter: [perPrinter(invoice), perPrinter(other)],
        printers: [printersOf(invoice), printersOf(other)],
        medianMs: [medianOf(invoice), medianOf(other)],
      },
      printRate: PRINT_RATE || null,
      getAlone: medianLatency(rounds.map((r) => r.alone)),
      getWhilePrinting: medianLatency(rounds.map((r) => r.whilePrinting)),
      p99Ratio: median(rounds.map((r) => r.whilePrinting.p99 / Math.max(0.01, r.alone.p99))),
      rounds,
      pdfsPerSecondUnderGets: median(rounds.map((r) => r.pdfsPerSecond)),
      probeRate: PROBE_RATE,
      printers: PRINTERS,
      ...(cpu && alone.times.length
        ? {
            requestThreadCpuMsPerPdf: cpu[0] / 1000 / alone.times.length,
            otherThreadsCpuMsPerPdf: (cpu[1] - cpu[0]) / 1000 / alone.times.length,
          }
        : {}),
    };
  } finally {
    agent.destroy();
  }
}

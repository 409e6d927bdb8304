// The invoice PDF under load (docs/settlement.md): PDFs per second of a 20-line invoice printed through
// the service (COWORKER_INVOICE_PRINT and the download), and the p99 of GET by id with and without PDFs
// being made at the same time (the PDFs are made on a worker thread, off the requests' thread).
import { DURATION, load, type Case, type Measure } from './harness.js';

const PRINTERS = Number(process.env.BENCH_PDF_CONCURRENCY ?? 4);

export interface PdfFigures {
  pdfsPerSecond: number;
  /** Milliseconds of a print and its download, median. */
  printMedianMs: number;
  getAlone: Measure;
  getWhilePrinting: Measure;
  pdfsPerSecondUnderGets: number;
}

async function json(base: string, headers: Record<string, string>, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(base + path, { method, headers: { ...headers, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const parsed = (await res.json()) as any;
  if (res.status !== 200 || parsed.WasSuccessful === false) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(parsed)}`);
  return parsed;
}

/** An invoice of 20 lines made by a billing run: a monthly contract that started 20 months ago. */
async function twentyLineInvoice(base: string, headers: Record<string, string>): Promise<number> {
  const tariff = (await json(base, headers, 'POST', '/api/billing/tariffs', { BusinessId: 1, Name: 'Bench desk', Price: 199.99, CurrencyId: 1 })).Value.Id;
  const customer = (await json(base, headers, 'POST', '/api/spaces/coworkers', { BusinessId: 1, FullName: 'Zoë Šťastná Дмитрий Ανδρέας', Email: `pdf.${Date.now()}@bench.example`, Address: 'Ulica Łódzka 5', City: 'Kraków' })).Value.Id;
  const start = new Date();
  start.setUTCMonth(start.getUTCMonth() - 19, 1);
  await json(base, headers, 'POST', '/api/billing/coworkercontracts', { CoworkerId: customer, TariffId: tariff, StartDate: start.toISOString().slice(0, 10), BillingDay: 1 });
  const run = await json(base, headers, 'POST', '/api/spaces/coworkers/runcommand', { Key: 'COWORKER_BILL_RUN', Ids: [customer] });
  return run.Value[0].Id as number;
}

/** Prints and downloads the invoice in `PRINTERS` loops until `until`; the times of each. */
async function printLoops(base: string, headers: Record<string, string>, invoice: number, until: number): Promise<number[]> {
  const times: number[] = [];
  await Promise.all(Array.from({ length: PRINTERS }, async () => {
    while (Date.now() < until) {
      const began = performance.now();
      const answer = await json(base, headers, 'POST', '/api/billing/coworkerinvoices/runcommand', { Key: 'COWORKER_INVOICE_PRINT', Ids: [invoice] });
      const pdf = await fetch(base + String(answer.RedirectURL));
      if (pdf.status !== 200 || (await pdf.arrayBuffer()).byteLength < 1000) throw new Error(`download: ${pdf.status}`);
      times.push(performance.now() - began);
    }
  }));
  return times;
}

export async function pdfBench(base: string, headers: Record<string, string>, getCase: Case, servingPid?: number): Promise<PdfFigures> {
  const invoice = await twentyLineInvoice(base, headers);
  await printLoops(base, headers, invoice, Date.now() + 2000);
  const alone = await printLoops(base, headers, invoice, Date.now() + DURATION * 1000);
  const getAlone = await load(base, getCase, DURATION, servingPid);
  const printing = printLoops(base, headers, invoice, Date.now() + DURATION * 1000);
  const getWhilePrinting = await load(base, getCase, DURATION, servingPid);
  const underGets = await printing;
  const sorted = [...alone].sort((a, b) => a - b);
  return {
    pdfsPerSecond: alone.length / DURATION,
    printMedianMs: sorted[Math.floor(sorted.length / 2)] ?? 0,
    getAlone,
    getWhilePrinting,
    pdfsPerSecondUnderGets: underGets.length / DURATION,
  };
}

// E-invoices (docs/einvoices.md): documents per second of a 20-line invoice exported as EN 16931 through the
// service, COWORKER_INVOICE_EXPORT_EN16931 and the download, a few exports at a time, in UBL (made on the
// request thread) and in Factur-X (the invoice PDF with its CII, made in the PDF process). Cases
// "e-invoice export UBL" and "e-invoice export Factur-X" of `npm run bench` (BENCH_CASES selects them).
import { DURATION, median, ROUNDS, selectCases } from './harness.js';
import { json } from './pdf.js';

const EXPORTERS = Number(process.env.BENCH_EINVOICE_CONCURRENCY ?? 4);

export const E_INVOICE_CASES = [
  { name: 'e-invoice export UBL', format: 'UBL' },
  { name: 'e-invoice export Factur-X', format: 'FACTURX' },
] as const;

export interface EInvoiceFigures {
  case: string;
  /** Exports and downloads per second, EXPORTERS at a time: the median over the rounds. */
  documentsPerSecond: number;
  /** Milliseconds of one export and its download, median. */
  medianMs: number;
  rounds: number[];
}

/** A 20-line invoice of business 1 made by a billing run (a monthly contract that started 20 months ago), with what EN 16931 needs. */
async function twentyLineInvoice(base: string, headers: Record<string, string>): Promise<number> {
  const business = await json(base, headers, 'GET', '/api/sys/businesses/1');
  await json(base, headers, 'PUT', '/api/sys/businesses/1', {
    ...business,
    TaxIDNumber: 'DE123456789',
    LegalRegistrationNumber: 'HRB 1',
    BankAccountIban: 'DE89370400440532013000',
    BankAccountBic: 'COBADEFFXXX',
  });
  const rate = (
    await json(base, headers, 'POST', '/api/sys/taxrates', { BusinessId: 1, Name: 'Bench VAT', Rate: 19, VatCategoryCode: 'S' })
  ).Value.Id;
  const tariff = (
    await json(base, headers, 'POST', '/api/billing/tariffs', {
      BusinessId: 1,
      Name: 'Bench desk',
      Price: 199.99,
      CurrencyId: 1,
      TaxRateId: rate,
    })
  ).Value.Id;
  const customer = (
    await json(base, headers, 'POST', '/api/spaces/coworkers', {
      BusinessId: 1,
      FullName: 'Zoë Šťastná',
      CompanyName: 'Bench Buyer GmbH',
      Email: `einvoice.${Date.now()}@bench.example`,
      Address: 'Ulica Łódzka 5',
      City: 'Kraków',
      CountryId: 1,
      TaxIDNumber: 'PL1234567890',
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
  const invoice = (await json(base, headers, 'POST', '/api/spaces/coworkers/runcommand', { Key: 'COWORKER_BILL_RUN', Ids: [customer] }))
    .Value[0].Id as number;
  const lines = await json(
    base,
    headers,
    'GET',
    `/api/billing/coworkerinvoicelines?CoworkerInvoiceLine_CoworkerInvoice=${invoice}&size=100`,
  );
  if (lines.Records.length !== 20) throw new Error(`the bench invoice has ${lines.Records.length} lines, not 20`);
  return invoice;
}

/** Exports and downloads the invoice in EXPORTERS loops for `seconds`: the time of each. */
async function exportLoops(
  base: string,
  headers: Record<string, string>,
  invoice: number,
  format: string,
  seconds: number,
): Promise<number[]> {
  const times: number[] = [];
  const until = performance.now() + seconds * 1000;
  const loop = async () => {
    while (performance.now() < until) {
      const started = performance.now();
      const answer = await json(base, headers, 'POST', '/api/billing/coworkerinvoices/runcommand', {
        Key: 'COWORKER_INVOICE_EXPORT_EN16931',
        Ids: [invoice],
        Parameters: [{ Name: 'Format', Value: format }],
      });
      const file = await fetch(base + answer.RedirectURL);
      if (file.status !== 200) throw new Error(`download: ${file.status}`);
      await file.arrayBuffer();
      times.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: EXPORTERS }, loop));
  return times;
}

/** The selected e-invoice cases, measured against the service at `base`; nothing when none is selected. */
export async function eInvoiceBench(base: string, headers: Record<string, string>): Promise<EInvoiceFigures[]> {
  const selected = selectCases([...E_INVOICE_CASES]);
  if (!selected.length) return [];
  const invoice = await twentyLineInvoice(base, headers);
  const figures: EInvoiceFigures[] = [];
  for (const c of selected) {
    await exportLoops(base, headers, invoice, c.format, 2);
    const rounds: number[] = [];
    const times: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const measured = await exportLoops(base, headers, invoice, c.format, DURATION);
      rounds.push(measured.length / DURATION);
      times.push(...measured);
    }
    const row = { case: c.name, documentsPerSecond: median(rounds), medianMs: median(times), rounds };
    figures.push(row);
    console.log(
      `${c.name}: ${row.documentsPerSecond.toFixed(1)} documents/s of a 20-line invoice (export + download, ${EXPORTERS} at a time, median ${row.medianMs.toFixed(0)} ms each)`,
    );
  }
  return figures;
}

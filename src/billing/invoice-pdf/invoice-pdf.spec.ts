import assert from 'node:assert/strict';
import { execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import * as fontkit from 'fontkit';
import { formatAmount, formatDate, formatUnitPrice, settlementRows, type PdfDocumentInput, type PdfLine } from './invoice-pdf-content.js';
import { renderInvoicePdf } from './invoice-pdf.js';
import { InvoicePdfRenderer } from './invoice-pdf.renderer.js';

/** The text pdftotext (poppler-utils) finds in a PDF, its layout kept. */
export function pdfText(pdf: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'invoice-pdf-'));
  const file = join(dir, 'invoice.pdf');
  writeFileSync(file, pdf);
  return execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
}

/** pdfinfo's fields of a PDF. */
function pdfInfo(pdf: Buffer): Record<string, string> {
  const dir = mkdtempSync(join(tmpdir(), 'invoice-pdf-'));
  const file = join(dir, 'invoice.pdf');
  writeFileSync(file, pdf);
  const info: Record<string, string> = {};
  for (const line of execFileSync('pdfinfo', [file], { encoding: 'utf8' }).split('\n')) {
    const at = line.indexOf(':');
    if (at > 0) info[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return info;
}

export function sampleInvoice(lineCount = 3): PdfDocumentInput {
  const lines: PdfLine[] = Array.from({ length: lineCount }, (_, i) => ({
    Description: i === 0 ? 'Hot desk membership — Ζεύς Μάρτιος' : `Meeting room booking #${i + 1}`,
    PeriodFrom: '2025-03-01T00:00:00Z',
    PeriodTo: '2025-03-31T00:00:00Z',
    Quantity: i + 1,
    UnitPrice: 100.5,
    TaxRate: 20,
    SubTotal: 100.5 * (i + 1),
    TaxAmount: 20.1 * (i + 1),
    TotalAmount: 120.6 * (i + 1),
  }));
  const total = lines.reduce((sum, line) => sum + Math.round(line.TotalAmount! * 100), 0) / 100;
  const tax = lines.reduce((sum, line) => sum + Math.round(line.TaxAmount! * 100), 0) / 100;
  return {
    invoice: {
      InvoiceNumber: '1042',
      CreatedOn: '2025-04-01T09:00:00Z',
      DueDate: '2025-04-15T00:00:00Z',
      InvoiceFromDate: '2025-03-01T00:00:00Z',
      InvoiceToDate: '2025-03-31T00:00:00Z',
      CurrencyCode: 'EUR',
      BillToName: 'Zoë Šťastná Ανδρέας Дмитрий',
      BillToAddress: 'Ulica Łódzka 5',
      BillToCity: 'Kraków',
      BillToPostCode: '30-001',
      BillToCountryName: 'Poland',
      BillToTaxIDNumber: 'PL123',
      TotalAmount: total,
      TaxAmount: tax,
      PaidAmount: 100,
      DueAmount: Math.round((total - 100) * 100) / 100,
      Void: false,
      CreditNote: false,
    },
    lines,
    business: { Name: 'Café Coworking Łódź', Address: '1 Main St', City: 'Łódź', PostCode: '90-001', Email: 'billing@cafe.example' },
  };
}

describe('invoice PDF', () => {
  it('formats amounts with exactly two decimals (a unit price keeps up to four) and dates as day, month, year', () => {
    assert.equal(formatAmount(1234.5), '1,234.50');
    assert.equal(formatAmount(-0.1234), '-0.12');
    assert.equal(formatAmount(794.84), '794.84');
    assert.equal(formatAmount(0.005), '0.01');
    assert.equal(formatAmount(-0.005), '-0.01');
    assert.equal(formatAmount(null), '0.00');
    assert.equal(formatUnitPrice(12.3456), '12.3456');
    assert.equal(formatUnitPrice(12.5), '12.50');
    assert.equal(formatDate('2025-03-31T00:00:00Z'), '31 Mar 2025');
  });

  it('prints the rows that explain the amount due, each credit note by number, adding up to it in cents', async () => {
    const input = sampleInvoice(1);
    // 120.60 total: credited 20.60 and 30.00, paid 50.00 of which 10.00 refunded, 20.00 due.
    Object.assign(input.invoice, {
      TotalAmount: 120.6,
      TaxAmount: 20.1,
      PaidAmount: 50,
      RefundedAmount: 10,
      DueAmount: 20,
      CreditNotes: [
        { InvoiceNumber: '1043', TotalAmount: -20.6 },
        { InvoiceNumber: '1044', TotalAmount: -30 },
      ],
    });
    const rows = settlementRows(input.invoice);
    assert.deepEqual(
      rows.map((row) => row.label),
      ['Credit note 1043', 'Credit note 1044', 'Paid', 'Refunded', 'Refunds not due again'],
    );
    assert.equal(12060n + rows.reduce((sum, row) => sum + row.cents, 0n), 2000n);
    const text = pdfText(await renderInvoicePdf(input));
    for (const expected of [
      'Credit note 1043',
      '-20.60 EUR',
      'Credit note 1044',
      '-30.00 EUR',
      'Paid',
      '-50.00 EUR',
      'Refunded',
      '10.00 EUR',
      '-10.00 EUR',
      'Amount due',
      '20.00 EUR',
    ]) {
      assert.ok(text.includes(expected), `${expected} in:\n${text}`);
    }
  });

  it('is an A4 PDF whose text holds the business, number, bill-to (accents, Greek, Cyrillic), every line and the totals', async () => {
    const input = sampleInvoice(3);
    const pdf = await renderInvoicePdf(input);
    assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');
    const info = pdfInfo(pdf);
    assert.match(info['Page size'], /595\.2\d? x 841\.8\d? pts \(A4\)/);
    const text = pdfText(pdf);
    for (const expected of [
      'Café Coworking Łódź',
      'INVOICE',
      '1042',
      'Zoë Šťastná Ανδρέας Дмитрий',
      'Kraków',
      '1 Apr 2025',
      '15 Apr 2025',
      'Ζεύς Μάρτιος',
      'Meeting room booking #2',
      'Meeting room booking #3',
      '723.60 EUR',
      '100.00 EUR',
      '623.60 EUR',
      '120.60 EUR',
    ]) {
      assert.ok(text.includes(expected), `${expected} in:\n${text}`);
    }
    assert.doesNotMatch(text, /VOID|CREDIT NOTE/);
    // Fonts are embedded as subsets (a subset's name has a six-letter tag).
    const dir = mkdtempSync(join(tmpdir(), 'invoice-pdf-'));
    writeFileSync(join(dir, 'f.pdf'), pdf);
    const fonts = execFileSync('pdffonts', [join(dir, 'f.pdf')], { encoding: 'utf8' });
    assert.match(fonts, /[A-Z]{6}\+NotoSans/);
    assert.doesNotMatch(fonts.split('\n').slice(2).join('\n'), / no /);
  });

  it('says CREDIT NOTE or VOID when it is one', async () => {
    const credit = sampleInvoice(1);
    credit.invoice = {
      ...credit.invoice,
      CreditNote: true,
      InvoiceNumber: '1043',
      OriginalInvoiceNumber: '1042',
      TotalAmount: -50,
      TaxAmount: -8.33,
      PaidAmount: 0,
      DueAmount: 0,
    };
    credit.lines = [
      {
        Description: 'Credit of invoice 1042',
        Quantity: 1,
        UnitPrice: -41.67,
        TaxRate: 20,
        SubTotal: -41.67,
        TaxAmount: -8.33,
        TotalAmount: -50,
      },
    ];
    const creditText = pdfText(await renderInvoicePdf(credit));
    assert.match(creditText, /CREDIT NOTE/);
    assert.match(creditText, /-50\.00 EUR/);
    const voided = sampleInvoice(1);
    voided.invoice = { ...voided.invoice, Void: true, DueAmount: 0 };
    assert.match(pdfText(await renderInvoicePdf(voided)), /VOID/);
  });

  it('opens each of its two fonts once per document, not at every change of font', async () => {
    // PDFKit makes a font subset each time it opens a font (pdfkit's EmbeddedFont): a default font given
    // to the document took the family's slot, and every `font('regular')` opened it again.
    const font = fontkit.create(
      readFileSync(createRequire(import.meta.url).resolve('@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf')),
    );
    const prototype = Object.getPrototypeOf(font) as { createSubset: (...args: unknown[]) => unknown };
    const createSubset = prototype.createSubset;
    let opened = 0;
    prototype.createSubset = function (this: unknown, ...args: unknown[]) {
      opened++;
      return createSubset.apply(this, args);
    };
    try {
      pdfText(await renderInvoicePdf(sampleInvoice(20)));
    } finally {
      prototype.createSubset = createSubset;
    }
    assert.equal(opened, 2);
  });

  it('puts a long invoice on several pages, each numbered, with every line', async () => {
    const pdf = await renderInvoicePdf(sampleInvoice(60));
    const pages = Number(pdfInfo(pdf).Pages);
    assert.ok(pages >= 2, `${pages} pages`);
    const text = pdfText(pdf);
    assert.ok(text.includes(`Page ${pages} of ${pages}`));
    for (let i = 2; i <= 60; i++) assert.ok(text.includes(`Meeting room booking #${i}`), `line ${i}`);
  });
});

describe('the PDF process', () => {
  /** The scheduling policy of each thread of a process (/proc/<pid>/task/<tid>/stat, field 41; 5 is SCHED_IDLE). */
  const policies = (pid: number) =>
    readdirSync(`/proc/${pid}/task`).map((tid) =>
      Number(readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ')[38]),
    );

  it(
    "renders off the service's process, every thread of it at the idle scheduling class, and is started again after it stops",
    { skip: process.platform !== 'linux' },
    async () => {
      const renderer = new InvoicePdfRenderer();
      const child = (r: InvoicePdfRenderer) => (r as unknown as { child?: ChildProcess }).child;
      try {
        const [pdf] = await renderer.render([sampleInvoice()]);
        assert.match(pdfText(pdf), /1042/);
        const first = child(renderer)!;
        assert.notEqual(first.pid, process.pid);
        assert.deepEqual([...new Set(policies(first.pid!))], [5]);
        first.ref(); // unreferenced by the renderer, so that it never holds the service open; here the test waits for its end
        first.kill('SIGKILL');
        await new Promise((resolve) => first.once('exit', resolve));
        const [again] = await renderer.render([sampleInvoice()]);
        assert.match(pdfText(again), /1042/);
        assert.notEqual(child(renderer)!.pid, first.pid);
      } finally {
        renderer.onApplicationShutdown();
      }
    },
  );
});

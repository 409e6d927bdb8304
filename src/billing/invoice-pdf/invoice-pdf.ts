import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as fontkit from 'fontkit';
import PDFDocument from 'pdfkit';
import { embedFacturX, FACTUR_X_PDF_OPTIONS } from './factur-x.js';
import {
  centsOf,
  formatAmount,
  formatCents,
  formatDate,
  formatPercent,
  formatPeriod,
  formatQuantity,
  formatUnitPrice,
  settlementRows,
  type PdfDocumentInput,
} from './invoice-pdf-content.js';

/**
 * The invoice as a PDF (docs/api.md §10.3, docs/settlement.md): a pure function of the invoice, its
 * lines and its business, so it runs anywhere, the PDF process included (invoice-pdf.process.ts). A4,
 * real text in Noto Sans (Latin, Greek and Cyrillic), embedded as subsets of the glyphs used.
 */

const require = createRequire(import.meta.url);
type Font = ReturnType<typeof fontkit.create>;
let fonts: { regular: Font; bold: Font } | undefined;

/**
 * Noto Sans from its npm package, parsed once per thread: parsing a font took about 120 ms, ten times
 * what the rest of a document takes, and PDFKit accepts a parsed font (each document still embeds
 * its own subset of it).
 */
function parsedFonts(): { regular: Font; bold: Font } {
  const parse = (file: string) => fontkit.create(readFileSync(require.resolve(`@expo-google-fonts/noto-sans/${file}`)));
  return (fonts ??= { regular: parse('400Regular/NotoSans_400Regular.ttf'), bold: parse('700Bold/NotoSans_700Bold.ttf') });
}

/**
 * The parsed font for one document: its decoded tables shared, its glyph cache (and the layout engine
 * that fills it) its own. fontkit keeps each glyph with the characters it was first made for (`ź` makes
 * `z` through a decomposition), and PDFKit writes those as the glyph's text, so a glyph cached by an
 * earlier document could drop a letter from this one's extractable text.
 */
function forDocument(font: Font): Font {
  return Object.create(font, { _glyphs: { value: {}, writable: true } }) as Font;
}

// Page geometry (points; A4 is 595.28 × 841.89).
const MARGIN = 50;
const PAGE_WIDTH = 595.28;
const PAGE_HEIGHT = 841.89;
const CONTENT_WIDTH = PAGE_WIDTH - 2 * MARGIN;
const BOTTOM = PAGE_HEIGHT - MARGIN - 30;

const INK = '#1f2933';
const MUTED = '#6b7785';
const RULE = '#d9dee4';
const ACCENT = '#2457a6';
const BAND = '#f2f5f9';
const ALERT = '#c0392b';

/** The lines table's columns: width and alignment; amounts right-aligned. */
const COLUMNS = [
  { key: 'description', title: 'Description', width: 181, align: 'left' },
  { key: 'quantity', title: 'Qty', width: 34, align: 'right' },
  { key: 'unitPrice', title: 'Unit price', width: 64, align: 'right' },
  { key: 'taxRate', title: 'Tax %', width: 42, align: 'right' },
  { key: 'subTotal', title: 'Net', width: 58, align: 'right' },
  { key: 'taxAmount', title: 'Tax', width: 56, align: 'right' },
  { key: 'total', title: 'Total', width: 60, align: 'right' },
] as const;
const CELL_PADDING = 4;

/** The PDF of one invoice, as bytes. */
export function renderInvoicePdf(input: PdfDocumentInput): Promise<Buffer> {
  const { invoice, lines, business } = input;
  const parsed = parsedFonts();
  const files = { regular: forDocument(parsed.regular), bold: forDocument(parsed.bold) };
  const kind = invoice.CreditNote ? 'Credit note' : 'Invoice';
  const doc = new PDFDocument({
    size: 'A4',
    // No default font: Helvetica would be read from its metrics file for every document, and Noto Sans
    // given here would take the family's name slot, so that every later `font('regular')` opened the
    // font again (a subset and a comparison of its name table each time, a quarter of a document's CPU).
    // Every text below names its font first.
    font: null as unknown as string,
    margin: MARGIN,
    bufferPages: true,
    info: {
      Title: `${kind} ${invoice.InvoiceNumber}`,
      Author: business.Name,
      Subject: `${kind} ${invoice.InvoiceNumber} to ${invoice.BillToName ?? ''}`.trim(),
      Creator: business.Name,
    },
    ...(input.facturX ? FACTUR_X_PDF_OPTIONS : {}),
  });
  doc.registerFont('regular', files.regular as unknown as Buffer);
  doc.registerFont('bold', files.bold as unknown as Buffer);
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const currency = invoice.CurrencyCode ?? '';
  const withCode = (text: string) => `${text}${currency ? ` ${currency}` : ''}`;
  const money = (value: number | null | undefined) => withCode(formatAmount(value));
  const moneyOfCents = (cents: bigint) => withCode(formatCents(cents));

  // ---- heading: the business on the left, the document on the right ----
  let y = MARGIN;
  doc.font('bold').fontSize(20).fillColor(INK).text(business.Name, MARGIN, y, { width: 290 });
  let left = doc.y + 4;
  doc.font('regular').fontSize(9).fillColor(MUTED);
  for (const line of [
    business.Address,
    [business.PostCode, business.City].filter(Boolean).join(' '),
    business.CountryName,
    business.Email,
    business.WebAddress,
  ]) {
    if (!line) continue;
    doc.text(line, MARGIN, left, { width: 290 });
    left = doc.y + 1;
  }

  const title = invoice.CreditNote ? 'CREDIT NOTE' : 'INVOICE';
  doc
    .font('bold')
    .fontSize(22)
    .fillColor(invoice.Void ? ALERT : ACCENT)
    .text(invoice.Void ? `${title} · VOID` : title, MARGIN + 250, y, { width: CONTENT_WIDTH - 250, align: 'right' });
  let right = doc.y + 6;
  const facts: Array<[string, string]> = [
    [invoice.CreditNote ? 'Credit note no.' : 'Invoice no.', invoice.InvoiceNumber],
    ['Issued', formatDate(invoice.CreatedOn)],
  ];
  if (invoice.DueDate && !invoice.CreditNote) facts.push(['Due', formatDate(invoice.DueDate)]);
  const covered = formatPeriod(invoice.InvoiceFromDate, invoice.InvoiceToDate);
  if (covered) facts.push(['Period', covered]);
  if (invoice.CreditNote && invoice.OriginalInvoiceNumber) facts.push(['Credits invoice', invoice.OriginalInvoiceNumber]);
  if (invoice.Paid && invoice.PaidOn) facts.push(['Paid on', formatDate(invoice.PaidOn)]);
  for (const [label, value] of facts) {
    doc
      .font('regular')
      .fontSize(9)
      .fillColor(MUTED)
      .text(label, MARGIN + 250, right, { width: 120, align: 'right' });
    doc
      .font('bold')
      .fontSize(9)
      .fillColor(INK)
      .text(value, MARGIN + 375, right, { width: CONTENT_WIDTH - 375, align: 'right' });
    right = doc.y + 2;
  }

  // ---- bill-to ----
  y = Math.max(left, right) + 24;
  doc.font('bold').fontSize(8).fillColor(MUTED).text('BILL TO', MARGIN, y, { characterSpacing: 1 });
  y = doc.y + 3;
  doc
    .font('bold')
    .fontSize(11)
    .fillColor(INK)
    .text(invoice.BillToName ?? '', MARGIN, y, { width: 300 });
  doc.font('regular').fontSize(9.5).fillColor(INK);
  for (const line of [
    invoice.BillToAddress,
    [invoice.BillToPostCode, invoice.BillToCity].filter(Boolean).join(' '),
    invoice.BillToCountryName,
  ]) {
    if (line) doc.text(line, MARGIN, doc.y + 1, { width: 300 });
  }
  if (invoice.BillToTaxIDNumber) doc.fillColor(MUTED).text(`Tax ID: ${invoice.BillToTaxIDNumber}`, MARGIN, doc.y + 1, { width: 300 });
  y = doc.y;
  if (invoice.Description) {
    doc
      .font('regular')
      .fontSize(9.5)
      .fillColor(INK)
      .text(invoice.Description, MARGIN, y + 14, { width: CONTENT_WIDTH });
    y = doc.y;
  }

  // ---- lines ----
  y += 22;
  const header = (top: number): number => {
    doc.rect(MARGIN, top, CONTENT_WIDTH, 20).fill(BAND);
    let x = MARGIN;
    doc.font('bold').fontSize(8).fillColor(MUTED);
    for (const column of COLUMNS) {
      doc.text(column.title.toUpperCase(), x + CELL_PADDING, top + 6, {
        width: column.width - 2 * CELL_PADDING,
        align: column.align,
        lineBreak: false,
      });
      x += column.width;
    }
    return top + 24;
  };
  y = header(y);
  const rows: Array<Record<(typeof COLUMNS)[number]['key'], string> & { period: string }> = lines.map((line) => ({
    description: line.Description ?? '',
    // A description that names its dates already (a billing run's: "Desk (2025-03-01 – 2025-03-31)") needs no period below it.
    period: line.PeriodFrom && line.Description?.includes(line.PeriodFrom.slice(0, 10)) ? '' : formatPeriod(line.PeriodFrom, line.PeriodTo),
    quantity: formatQuantity(line.Quantity),
    unitPrice: formatUnitPrice(line.UnitPrice),
    taxRate: formatPercent(line.TaxRate),
    subTotal: formatAmount(line.SubTotal),
    taxAmount: formatAmount(line.TaxAmount),
    total: formatAmount(line.TotalAmount),
  }));
  if (!rows.length) {
    // An invoice made without lines (POST) shows its totals as one line.
    const net = formatCents(centsOf(invoice.TotalAmount) - centsOf(invoice.TaxAmount));
    rows.push({
      description: invoice.Description || kind,
      period: covered,
      quantity: '1',
      unitPrice: net,
      taxRate: '',
      subTotal: net,
      taxAmount: formatAmount(invoice.TaxAmount),
      total: formatAmount(invoice.TotalAmount),
    });
  }
  const descriptionWidth = COLUMNS[0].width - 2 * CELL_PADDING;
  for (const row of rows) {
    doc.font('regular').fontSize(9);
    const textHeight = doc.heightOfString(row.description, { width: descriptionWidth });
    const periodHeight = row.period ? doc.fontSize(8).heightOfString(row.period, { width: descriptionWidth }) + 1 : 0;
    const height = Math.max(textHeight + periodHeight, 12) + 10;
    if (y + height > BOTTOM) {
      doc.addPage();
      y = header(MARGIN);
    }
    let x = MARGIN;
    for (const column of COLUMNS) {
      const width = column.width - 2 * CELL_PADDING;
      doc
        .font(column.key === 'total' ? 'bold' : 'regular')
        .fontSize(9)
        .fillColor(INK)
        .text(row[column.key], x + CELL_PADDING, y + 5, { width, align: column.align });
      if (column.key === 'description' && row.period)
        doc
          .font('regular')
          .fontSize(8)
          .fillColor(MUTED)
          .text(row.period, x + CELL_PADDING, doc.y + 1, { width });
      x += column.width;
    }
    y += height;
    doc
      .moveTo(MARGIN, y)
      .lineTo(MARGIN + CONTENT_WIDTH, y)
      .lineWidth(0.5)
      .strokeColor(RULE)
      .stroke();
  }

  // ---- totals, aligned under the amounts ----
  // In exact cents: a subtotal is never a float's 794.8399999 printed with four places.
  const total = centsOf(invoice.TotalAmount);
  const tax = centsOf(invoice.TaxAmount);
  const discount = centsOf(invoice.DiscountAmount);
  const totals: Array<{ label: string; value: string; strong?: boolean; color?: string }> = [
    { label: 'Subtotal', value: moneyOfCents(total - tax + discount) },
  ];
  if (discount !== 0n) totals.push({ label: 'Discount', value: moneyOfCents(-discount) });
  totals.push({ label: 'Tax', value: moneyOfCents(tax) }, { label: 'Total', value: moneyOfCents(total), strong: true });
  if (!invoice.CreditNote) {
    for (const row of settlementRows(invoice)) totals.push({ label: row.label, value: moneyOfCents(row.cents) });
    totals.push({ label: 'Amount due', value: money(invoice.DueAmount), strong: true, color: invoice.Void ? MUTED : ACCENT });
  }
  // The amounts end where the Total column's do.
  const boxRight = MARGIN + CONTENT_WIDTH - CELL_PADDING;
  const boxX = boxRight - 270;
  if (y + 16 + totals.length * 18 > BOTTOM) {
    doc.addPage();
    y = MARGIN;
  }
  y += 12;
  for (const item of totals) {
    if (item.strong) {
      y += 4;
      doc
        .moveTo(boxX, y - 3)
        .lineTo(boxRight, y - 3)
        .lineWidth(0.75)
        .strokeColor(item.color ?? INK)
        .stroke();
    }
    doc
      .font(item.strong ? 'bold' : 'regular')
      .fontSize(item.strong ? 10.5 : 9.5)
      .fillColor(item.strong ? (item.color ?? INK) : MUTED)
      .text(item.label, boxX, y + 1, { width: 150 });
    doc.fillColor(item.color ?? INK).text(item.value, boxX + 150, y + 1, { width: 120, align: 'right' });
    y += item.strong ? 21 : 17;
  }

  if (invoice.Void) {
    doc
      .font('bold')
      .fontSize(9.5)
      .fillColor(ALERT)
      .text('This invoice is void: nothing is due on it.', MARGIN, y + 10, { width: CONTENT_WIDTH });
  } else if (invoice.CreditNote) {
    doc
      .font('regular')
      .fontSize(9.5)
      .fillColor(MUTED)
      .text(
        `This credit note reduces what is due${invoice.OriginalInvoiceNumber ? ` on invoice ${invoice.OriginalInvoiceNumber}` : ''} by ${moneyOfCents(-total)}.`,
        MARGIN,
        y + 10,
        { width: CONTENT_WIDTH },
      );
  }

  // ---- on every page: the VOID mark, and the footer ----
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    if (invoice.Void) {
      doc.save();
      doc.rotate(-30, { origin: [PAGE_WIDTH / 2, PAGE_HEIGHT / 2] });
      doc
        .font('bold')
        .fontSize(120)
        .fillColor(ALERT)
        .fillOpacity(0.12)
        .text('VOID', 0, PAGE_HEIGHT / 2 - 70, { width: PAGE_WIDTH, align: 'center', lineBreak: false });
      doc.restore();
      doc.fillOpacity(1);
    }
    const footer = [business.Name, `${kind} ${invoice.InvoiceNumber}`, `Page ${i - range.start + 1} of ${range.count}`].join('  ·  ');
    doc
      .moveTo(MARGIN, PAGE_HEIGHT - MARGIN - 12)
      .lineTo(MARGIN + CONTENT_WIDTH, PAGE_HEIGHT - MARGIN - 12)
      .lineWidth(0.5)
      .strokeColor(RULE)
      .stroke();
    // Written inside the bottom margin: no automatic page break.
    const bottomMargin = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc
      .font('regular')
      .fontSize(8)
      .fillColor(MUTED)
      .text(footer, MARGIN, PAGE_HEIGHT - MARGIN - 4, { width: CONTENT_WIDTH, align: 'center', lineBreak: false });
    doc.page.margins.bottom = bottomMargin;
  }
  if (input.facturX) embedFacturX(doc as never, input.facturX, new Date(invoice.CreatedOn));
  doc.end();
  return done;
}

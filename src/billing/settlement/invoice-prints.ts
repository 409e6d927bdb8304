import { Inject, Injectable } from '@nestjs/common';
import type { DownloadFile } from '../../downloads/download-files.repository.js';
import { Downloads } from '../../downloads/downloads.js';
import { bulkTurn } from '../../platform/bulk-lane.js';
import { refusal } from '../../records/errors.js';
import type { WireRecord } from '../../records/record-definition.js';
import type { PdfBusiness, PdfDocumentInput, PdfInvoice, PdfLine } from '../invoice-pdf/invoice-pdf-content.js';
import { InvoicePdfRenderer } from '../invoice-pdf/invoice-pdf.renderer.js';
import { SettlementRepository } from './settlement.repository.js';

/**
 * What one print may hold (docs/performance.md, "Printing: bounded and fair"), so that it is made well
 * within the answer deadline and within the PDF process's heap, which holds one document at a time: a
 * document of 1,000 lines takes ~0.6 s of CPU there and ~40 MB of its 96 MB (3,000 lines exhausted it),
 * and each invoice costs ~7–40 ms more. Runs bill at most 1,000 lines per invoice, so any invoice a run
 * made prints, alone if need be.
 */
export const MAX_PRINT_INVOICES = 50;
export const MAX_PRINT_LINES = 1_000;

const count = (n: number) => n.toLocaleString('en-US');

/** A file name for an invoice's document: `Invoice-1042.pdf`, `CreditNote-1043.xml` (docs/api.md §10.2, §14.1). */
export const fileName = (invoice: PdfInvoice, extension = 'pdf') =>
  `${invoice.CreditNote ? 'CreditNote' : 'Invoice'}-${invoice.InvoiceNumber.replace(/[^A-Za-z0-9._-]/g, '_')}.${extension}`;

/**
 * COWORKER_INVOICE_PRINT (docs/api.md §10.2, §10.3): the invoices' PDFs, made in the PDF process, offered
 * as one download: the PDF itself for one invoice, `Invoices.zip` with one PDF each for several.
 */
@Injectable()
export class InvoicePrints {
  @Inject(SettlementRepository) private readonly repository: SettlementRepository;
  @Inject(InvoicePdfRenderer) private readonly renderer: InvoicePdfRenderer;
  @Inject(Downloads) private readonly downloads: Downloads;

  /**
   * The download link (RedirectURL) of the PDFs of the invoices, as GET shows them (read by the command),
   * made for `userId` (whose stored downloads are bounded, downloads.ts). Refused (400, nothing stored)
   * beyond MAX_PRINT_INVOICES or MAX_PRINT_LINES. `abandoned` tells when the request was answered already.
   */
  async print(records: readonly WireRecord[], userId: number | null, abandoned?: () => boolean): Promise<string> {
    await this.refuseBeyondBounds(records);
    return this.offerPdfs(await this.documents(records), 'Invoices.zip', userId, abandoned);
  }

  /** What the PDFs of the invoices (as GET shows them) show, within MAX_PRINT_LINES in all. */
  async documents(records: readonly WireRecord[]): Promise<PdfDocumentInput[]> {
    const documents: PdfDocumentInput[] = [];
    let room = MAX_PRINT_LINES;
    for (const invoice of records as unknown as readonly PrintedInvoice[]) {
      const document = await this.document(invoice, room);
      room -= document.lines.length;
      documents.push(document);
    }
    return documents;
  }

  /**
   * The download link of the documents' PDFs, made in the PDF process: the PDF itself for one, a zip
   * named `zipName` with one PDF each for several (e-invoices.ts makes Factur-X PDFs this way too).
   */
  async offerPdfs(documents: PdfDocumentInput[], zipName: string, userId: number | null, abandoned?: () => boolean): Promise<string> {
    const names = documents.map((document) => fileName(document.invoice));
    // Served in turn with other businesses' prints: one whose invoices span businesses waits in its first one's turn.
    const printFor = { owner: `business ${(documents[0].invoice as PrintedInvoice).BusinessId}`, abandoned };
    const file: DownloadFile =
      documents.length === 1
        ? { FileName: names[0], ContentType: 'application/pdf', Content: (await this.renderer.render(documents, printFor))[0] }
        : { FileName: zipName, ContentType: 'application/zip', Content: await this.renderer.zip(documents, distinct(names), printFor) };
    // Storing the file and answering is bulk work too (docs/settlement.md, "The PDF and its download").
    await bulkTurn();
    return this.downloads.offer(file, userId);
  }

  /** Refuses a print (or an export, docs/api.md §14) beyond its bounds, saying what to do instead. */
  async refuseBeyondBounds(records: readonly WireRecord[]): Promise<void> {
    const invoices = records as unknown as readonly PrintedInvoice[];
    if (invoices.length > MAX_PRINT_INVOICES) {
      throw refusal(
        `A print holds at most ${count(MAX_PRINT_INVOICES)} invoices; these are ${count(invoices.length)}: print them ${count(MAX_PRINT_INVOICES)} or fewer at a time.`,
      );
    }
    const lineCounts = await this.repository.lineCounts(invoices.map((invoice) => invoice.Id));
    const total = [...lineCounts.values()].reduce((sum, n) => sum + n, 0);
    if (total <= MAX_PRINT_LINES) return;
    const tooLong = invoices.find((invoice) => (lineCounts.get(invoice.Id) ?? 0) > MAX_PRINT_LINES);
    if (tooLong) {
      throw refusal(
        `Invoice ${tooLong.InvoiceNumber} has ${count(lineCounts.get(tooLong.Id)!)} lines, more than the ${count(MAX_PRINT_LINES)} a print may hold: ` +
          `its lines can be read from /api/billing/coworkerinvoicelines?CoworkerInvoiceLine_CoworkerInvoice=${tooLong.Id} instead.`,
      );
    }
    throw refusal(
      `A print holds at most ${count(MAX_PRINT_LINES)} invoice lines; these ${count(invoices.length)} invoices have ${count(total)}: print fewer invoices at a time.`,
    );
  }

  /** What the PDF of one invoice shows: the invoice as GET shows it, its lines (at most `room` of them), its business. */
  private async document(invoice: PrintedInvoice, room: number): Promise<PdfDocumentInput> {
    const business = ((await this.repository.businessForPdf(invoice.BusinessId)) ?? { Name: '' }) as unknown as PdfBusiness;
    if (invoice.BusinessName) business.Name = invoice.BusinessName;
    // One more than the room: lines added since they were counted are refused too, never left out.
    const lines = (await this.repository.linesOf(invoice.Id, room + 1)) as PdfLine[];
    if (lines.length > room)
      throw refusal(`A print holds at most ${count(MAX_PRINT_LINES)} invoice lines: print fewer invoices at a time.`);
    const original =
      invoice.CreditNote && invoice.OriginalInvoiceGuid ? await this.repository.invoiceNumberOf(invoice.OriginalInvoiceGuid) : null;
    // The credit notes explain part of the amount due, each by its number (docs/api.md §10.3).
    const creditNotes = invoice.CreditNote ? [] : await this.repository.creditNotesOf(invoice.UniqueId);
    // Assigned, not spread: a spread copy is made in the old generation on Node 20 (withFields, record-writes.ts).
    return { invoice: Object.assign({}, invoice, { OriginalInvoiceNumber: original, CreditNotes: creditNotes }), lines, business };
  }
}

/** The invoice's wire fields the PDF and its file name use. */
type PrintedInvoice = PdfInvoice & {
  Id: number;
  UniqueId: string;
  BusinessId: number;
  BusinessName?: string | null;
  OriginalInvoiceGuid?: string | null;
};

/** The names made distinct for one zip: a second `Invoice-7.pdf` becomes `Invoice-7-1.pdf`. */
export function distinct(names: readonly string[]): string[] {
  const taken: string[] = [];
  for (let name of names) {
    while (taken.includes(name)) name = name.replace(/(\.[a-z]+)$/, '-1$1');
    taken.push(name);
  }
  return taken;
}

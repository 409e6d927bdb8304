import { Inject, Injectable } from '@nestjs/common';
import type { DownloadFile } from '../../downloads/download-files.repository.js';
import { Downloads } from '../../downloads/downloads.js';
import { bulkTurn } from '../../common/bulk-lane.js';
import type { WireRecord } from '../../common/record-definition.js';
import type { PdfBusiness, PdfDocumentInput, PdfInvoice, PdfLine } from '../invoice-pdf/invoice-pdf.js';
import { InvoicePdfRenderer } from '../invoice-pdf/invoice-pdf.renderer.js';
import { SettlementRepository } from './settlement.repository.js';

/** A file name for an invoice's PDF: `Invoice-1042.pdf`, `CreditNote-1043.pdf`. */
const fileName = (invoice: PdfInvoice) => `${invoice.CreditNote ? 'CreditNote' : 'Invoice'}-${invoice.InvoiceNumber.replace(/[^\w.-]/g, '_')}.pdf`;

/**
 * COWORKER_INVOICE_PRINT (docs/api.md §10.2, §10.3): the invoices' PDFs, made in the PDF process, offered
 * as one download: the PDF itself for one invoice, `Invoices.zip` with one PDF each for several.
 */
@Injectable()
export class InvoicePrints {
  @Inject(SettlementRepository) private readonly repository: SettlementRepository;
  @Inject(InvoicePdfRenderer) private readonly renderer: InvoicePdfRenderer;
  @Inject(Downloads) private readonly downloads: Downloads;

  /** The download link (RedirectURL) of the PDFs of the invoices, as GET shows them (read by the command). */
  async print(invoices: readonly WireRecord[]): Promise<string> {
    const documents: PdfDocumentInput[] = [];
    for (const invoice of invoices) documents.push(await this.document(invoice as unknown as PrintedInvoice));
    const names = documents.map((document) => fileName(document.invoice));
    const file: DownloadFile = documents.length === 1
      ? { FileName: names[0], ContentType: 'application/pdf', Content: (await this.renderer.render(documents))[0] }
      : { FileName: 'Invoices.zip', ContentType: 'application/zip', Content: await this.renderer.zip(documents, distinct(names)) };
    // Storing the file and answering is bulk work too (docs/settlement.md, "The PDF and its download").
    await bulkTurn();
    return this.downloads.offer(file);
  }

  /** What the PDF of one invoice shows: the invoice as GET shows it, its lines, its business. */
  private async document(invoice: PrintedInvoice): Promise<PdfDocumentInput> {
    const business = ((await this.repository.businessForPdf(invoice.BusinessId)) ?? { Name: '' }) as unknown as PdfBusiness;
    if (invoice.BusinessName) business.Name = invoice.BusinessName;
    const lines = (await this.repository.linesOf(invoice.Id)) as PdfLine[];
    const original = invoice.CreditNote && invoice.OriginalInvoiceGuid ? await this.repository.invoiceNumberOf(invoice.OriginalInvoiceGuid) : null;
    // The credit notes explain part of the amount due, each by its number (docs/api.md §10.3).
    const creditNotes = invoice.CreditNote ? [] : await this.repository.creditNotesOf(invoice.UniqueId);
    // Assigned, not spread: a spread copy is made in the old generation on Node 20 (withFields, record-writes.ts).
    return { invoice: Object.assign({}, invoice, { OriginalInvoiceNumber: original, CreditNotes: creditNotes }), lines, business };
  }
}

/** The invoice's wire fields the PDF and its file name use. */
type PrintedInvoice = PdfInvoice & { Id: number; UniqueId: string; BusinessId: number; BusinessName?: string | null; OriginalInvoiceGuid?: string | null };

/** The names made distinct for one zip: a second `Invoice-7.pdf` becomes `Invoice-7-1.pdf`. */
function distinct(names: readonly string[]): string[] {
  const taken: string[] = [];
  for (let name of names) {
    while (taken.includes(name)) name = name.replace(/\.pdf$/, '-1.pdf');
    taken.push(name);
  }
  return taken;
}

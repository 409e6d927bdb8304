import { Inject, Injectable } from '@nestjs/common';
import type { Principal } from '../../common/principal.js';
import { Downloads } from '../../downloads/downloads.js';
import { coworkerInvoices } from '../coworker-invoices/coworker-invoices.definition.js';
import { InjectRecords } from '../../common/record.module.js';
import type { RecordService } from '../../common/record.service.js';
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
  @InjectRecords(coworkerInvoices) private readonly invoiceRecords: RecordService;
  @Inject(InvoicePdfRenderer) private readonly renderer: InvoicePdfRenderer;
  @Inject(Downloads) private readonly downloads: Downloads;

  /** The download link (RedirectURL) of the invoices' PDFs. */
  async print(ids: readonly number[], actor: Principal | undefined): Promise<string> {
    const documents: PdfDocumentInput[] = [];
    for (const id of ids) documents.push(await this.document(id, actor));
    if (documents.length === 1) {
      const [pdf] = await this.renderer.render(documents);
      return this.downloads.offer({ FileName: fileName(documents[0].invoice), ContentType: 'application/pdf', Content: pdf });
    }
    const names: string[] = [];
    for (const document of documents) {
      let name = fileName(document.invoice);
      while (names.includes(name)) name = name.replace(/\.pdf$/, '-1.pdf');
      names.push(name);
    }
    // Made in the PDF process, like the PDFs in it.
    return this.downloads.offer({ FileName: 'Invoices.zip', ContentType: 'application/zip', Content: await this.renderer.zip(documents, names) });
  }

  /** What the PDF of one invoice shows: the invoice as GET shows it, its lines, its business. */
  private async document(id: number, actor: Principal | undefined): Promise<PdfDocumentInput> {
    const invoice = (await this.invoiceRecords.get(id, actor)) as unknown as PdfInvoice & { BusinessId: number; BusinessName?: string | null; OriginalInvoiceGuid?: string | null };
    const business = ((await this.repository.businessForPdf(invoice.BusinessId)) ?? { Name: '' }) as unknown as PdfBusiness;
    if (invoice.BusinessName) business.Name = invoice.BusinessName;
    const lines = (await this.repository.linesOf(id)) as PdfLine[];
    const original = invoice.CreditNote && invoice.OriginalInvoiceGuid ? await this.repository.invoiceNumberOf(invoice.OriginalInvoiceGuid) : null;
    return { invoice: { ...invoice, OriginalInvoiceNumber: original }, lines, business };
  }
}

import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { zipSync } from 'fflate';
import { bulkTurn } from '../../platform/bulk-lane.js';
import { CommandResult, RecordCommands } from '../../records/commands/record-commands.js';
import { refusal } from '../../records/errors.js';
import type { WireRecord } from '../../records/record-definition.js';
import { Downloads } from '../../downloads/downloads.js';
import type { PdfInvoice } from '../invoice-pdf/invoice-pdf-content.js';
import { distinct, fileName, InvoicePrints, MAX_PRINT_LINES } from '../settlement/invoice-prints.js';
import { SettlementRepository } from '../settlement/settlement.repository.js';
import { toCii } from './cii.js';
import { toEInvoice, type EInvoiceSource, type SourceInvoice } from './einvoice.js';
import { refusalOf } from './einvoice-refusals.js';
import { EInvoicesRepository } from './einvoices.repository.js';
import { toUbl } from './ubl.js';
import { coworkerInvoices } from '../coworker-invoices/coworker-invoices.definition.js';

export const EXPORT_KEY = 'COWORKER_INVOICE_EXPORT_EN16931';
const FORMATS = ['UBL', 'CII', 'FACTURX'] as const;
type Format = (typeof FORMATS)[number];

const nameOf = (record: WireRecord) => `${record.CreditNote === true ? 'Credit note' : 'Invoice'} ${String(record.InvoiceNumber)}`;

/**
 * COWORKER_INVOICE_EXPORT_EN16931 (docs/api.md §14, docs/einvoices.md): each invoice or credit note as an
 * EN 16931 document in UBL, CII or Factur-X, offered as a download like COWORKER_INVOICE_PRINT (one file,
 * or `EInvoices.zip`). It only reads: no history, no event, no UpdatedOn; every invoice is checked before
 * anything is made, so a refusal makes nothing for any id.
 */
@Injectable()
export class EInvoiceExports implements OnModuleInit {
  @Inject(RecordCommands) private readonly commands: RecordCommands;
  @Inject(EInvoicesRepository) private readonly repository: EInvoicesRepository;
  @Inject(SettlementRepository) private readonly settlement: SettlementRepository;
  @Inject(InvoicePrints) private readonly prints: InvoicePrints;
  @Inject(Downloads) private readonly downloads: Downloads;

  onModuleInit(): void {
    this.commands.register(coworkerInvoices, {
      key: EXPORT_KEY,
      name: 'Export e-invoice (EN 16931)',
      permission: { entity: coworkerInvoices.name, action: 'Read' },
      order: 7,
      parameters: [{ Name: 'Format', Type: 'String' }],
      refuses: (record) => this.refuses(record),
      // The documents are made outside any transaction: they only read.
      transaction: 'own',
      bulk: true,
      run: async ({ records, parameters, actor, write }) =>
        new CommandResult(null, await this.export(records, parameters.Format, actor?.userId ?? null, () => write?.expired ?? false)),
    });
  }

  /** Listed for, and run on, invoices that are not void and have lines (docs/api.md §14.1, §14.4). */
  private async refuses(record: WireRecord): Promise<string | null> {
    if (record.Void === true) return `Void: ${nameOf(record)} is void: it has no e-invoice.`;
    const lines = await this.settlement.lineCounts([record.Id as number]);
    return lines.get(record.Id as number)
      ? null
      : `Lines: ${nameOf(record)} has no lines (it was made by POST): an e-invoice needs at least one (BR-16).`;
  }

  /** The download link of the invoices' documents in `format` (as given: any case), for `userId`. */
  async export(records: readonly WireRecord[], given: unknown, userId: number | null, abandoned?: () => boolean): Promise<string> {
    const format = formatOf(given);
    await this.prints.refuseBeyondBounds(records);
    const sources: EInvoiceSource[] = [];
    for (const record of records) {
      const source = await this.sourceOf(record);
      const why = refusalOf(source, record.BusinessId as number);
      if (why) throw refusal(why);
      sources.push(source);
    }
    const documents: string[] = [];
    for (const source of sources) {
      // Each document in a turn of the bulk lane: interactive requests are answered in between.
      await bulkTurn();
      const document = toEInvoice(source);
      documents.push(format === 'UBL' ? toUbl(document) : toCii(document));
    }
    if (format === 'FACTURX') {
      // The §10.3 PDF with the CII embedded, made in the PDF process as prints are (invoice-pdf/factur-x.ts).
      const pdfs = await this.prints.documents(records);
      pdfs.forEach((pdf, index) => Object.assign(pdf, { facturX: documents[index] }));
      return this.prints.offerPdfs(pdfs, 'EInvoices.zip', userId, abandoned);
    }
    const names = records.map((record) => fileName(record as unknown as PdfInvoice, 'xml'));
    const bytes = documents.map((document) => Buffer.from(document, 'utf8'));
    await bulkTurn();
    const file =
      bytes.length === 1
        ? { FileName: names[0], ContentType: 'application/xml', Content: bytes[0] }
        : {
            FileName: 'EInvoices.zip',
            ContentType: 'application/zip',
            Content: Buffer.from(zipSync(Object.fromEntries(distinct(names).map((name, i) => [name, bytes[i]])))),
          };
    return this.downloads.offer(file, userId);
  }

  /** What the document of one invoice (as GET shows it) is made of. */
  private async sourceOf(record: WireRecord): Promise<EInvoiceSource> {
    const invoice = record as unknown as SourceInvoice & {
      BusinessId: number;
      CoworkerId: number;
      BillToCountryId: number | null;
      OriginalInvoiceGuid: string | null;
    };
    const seller = await this.repository.seller(invoice.BusinessId);
    if (!seller) throw refusal(`BusinessId: the business of ${nameOf(record)} is not found.`);
    const lines = await this.repository.linesOf(invoice.Id, MAX_PRINT_LINES);
    let original: EInvoiceSource['original'] = null;
    if (invoice.CreditNote && invoice.OriginalInvoiceGuid) {
      const found = await this.repository.original(invoice.OriginalInvoiceGuid);
      if (found) original = { ...found, lines: await this.repository.linesOf(found.Id, MAX_PRINT_LINES) };
    }
    return {
      invoice: Object.assign({}, invoice, {
        BillToCountryCode: await this.repository.countryCode(invoice.BillToCountryId ?? null),
        BuyerReference: await this.repository.buyerReference(invoice.CoworkerId),
      }),
      lines,
      seller,
      original,
    };
  }
}

/** The Format parameter, in any case; refused (naming it) when missing or not one of the three. */
function formatOf(given: unknown): Format {
  const format = typeof given === 'string' ? given.trim().toUpperCase() : '';
  if (!format) throw refusal(`Format: the format of the e-invoice is required (${FORMATS.join(', ')}).`);
  if (!(FORMATS as readonly string[]).includes(format))
    throw refusal(`Format: "${String(given)}" is not a format of e-invoices (${FORMATS.join(', ')}).`);
  return format as Format;
}

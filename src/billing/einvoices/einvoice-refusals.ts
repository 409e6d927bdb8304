import { hasCountryPrefix } from '../../kernel/businesses/vat-identifier.js';
import type { EInvoiceSource, SourceLine } from './einvoice.js';

/**
 * Why an invoice cannot be said in EN 16931 (docs/api.md §14.4, docs/einvoices.md), as a Message naming
 * the field and the record; null when it can. Each refusal stands for business rules of the standard
 * that the document would break (their numbers in brackets), so that every document made passes them.
 */
export function refusalOf(source: EInvoiceSource, businessId: number): string | null {
  const { invoice, seller } = source;
  const name = `${invoice.CreditNote ? 'Credit note' : 'Invoice'} ${invoice.InvoiceNumber}`;
  if (invoice.Void) return `Void: ${name} is void: it has no e-invoice.`;
  if (!source.lines.length) return `Lines: ${name} has no lines (it was made by POST): an e-invoice needs at least one (BR-16).`;
  if (invoice.CreditNote && !source.original) return `OriginalInvoiceGuid: the invoice ${name} credits is not found.`;
  // A credit note says its amount in the VAT groups of its original (docs/api.md §14.3).
  const lines = invoice.CreditNote ? source.original!.lines : source.lines;
  const uncategorised = lines.find((line) => !line.VatCategoryCode);
  if (uncategorised)
    return `VatCategoryCode: ${lineName(uncategorised, name, invoice.CreditNote)} ${uncategorised.TaxRateId === null ? 'has no tax rate' : `has TaxRate ${uncategorised.TaxRateId}, which has no VatCategoryCode`}.`;
  const categories = new Set(lines.map((line) => line.VatCategoryCode!));
  if (categories.has('O') && categories.size > 1) {
    return `VatCategoryCode: ${name} mixes lines outside the scope of VAT (O) with lines of category ${[...categories].filter((c) => c !== 'O').join(', ')} (BR-O-11).`;
  }
  const outsideScope = categories.has('O');
  if (!outsideScope && !seller.TaxIDNumber)
    return `TaxIDNumber: Business ${businessId} (${seller.Name}) has no TaxIDNumber, which ${name} needs as the seller's VAT identifier (BT-31).`;
  // Outside the scope of VAT the document carries no VAT identifier (BR-O-02), so the registration names the seller (BR-CO-26).
  if (outsideScope && !seller.LegalRegistrationNumber) {
    return `LegalRegistrationNumber: Business ${businessId} (${seller.Name}) has no LegalRegistrationNumber, which ${name} (outside the scope of VAT) needs to name the seller (BR-CO-26).`;
  }
  if (!invoice.BillToName) return `BillToName: ${name} has no BillToName (BR-07).`;
  if (!invoice.BillToCountryCode) return `BillToCountryId: ${name} has no BillToCountryId (BR-11).`;
  const buyerVat = invoice.BillToTaxIDNumber;
  const reverse = [...categories].find((category) => category === 'AE' || category === 'K');
  if (reverse && !buyerVat)
    return `BillToTaxIDNumber: ${name} has lines of VAT category ${reverse} but no BillToTaxIDNumber (BR-${reverse === 'AE' ? 'AE' : 'IC'}-02).`;
  if (buyerVat && !outsideScope && !hasCountryPrefix(buyerVat))
    return `BillToTaxIDNumber: ${buyerVat} of ${name} does not start with a country prefix (BR-CO-09).`;
  return null;
}

const lineName = (line: SourceLine, name: string, ofOriginal: boolean) =>
  `line ${line.Position} of ${ofOriginal ? `the invoice ${name} credits` : name}`;

import type { Address, EInvoice, VatKey } from './einvoice.js';
import { branch, leaf, serialize, xmlDocument, type Node } from './xml.js';

/**
 * An EN 16931 document in UBL 2.1 (docs/api.md §14.3, docs/einvoices.md): an `Invoice`, or a
 * `CreditNote` document for a credit note, elements in the order of the UBL schemas.
 */

const CAC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2';
const CBC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2';
const ROOTS = {
  Invoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  CreditNote: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
};

/** The UBL text of the document. */
export function toUbl(document: EInvoice): string {
  const kind = document.creditNote ? 'CreditNote' : 'Invoice';
  const root = xmlDocument(kind, { '': ROOTS[kind], cac: CAC, cbc: CBC });
  const money = (node: Node, name: string, value: string | null) => leaf(node, name, value, { currencyID: document.currency });
  leaf(root, 'cbc:CustomizationID', 'urn:cen.eu:en16931:2017');
  leaf(root, 'cbc:ID', document.number);
  leaf(root, 'cbc:IssueDate', document.issueDate);
  // A UBL credit note has no DueDate of its own; the service writes none for credit notes anyway.
  if (!document.creditNote) leaf(root, 'cbc:DueDate', document.dueDate);
  leaf(root, document.creditNote ? 'cbc:CreditNoteTypeCode' : 'cbc:InvoiceTypeCode', document.typeCode);
  leaf(root, 'cbc:DocumentCurrencyCode', document.currency);
  leaf(root, 'cbc:BuyerReference', document.buyerReference);
  if (document.period) period(root, document.period);
  if (document.preceding) {
    branch(root, 'cac:BillingReference', (reference) =>
      branch(reference, 'cac:InvoiceDocumentReference', (invoice) => {
        leaf(invoice, 'cbc:ID', document.preceding!.number);
        leaf(invoice, 'cbc:IssueDate', document.preceding!.issueDate);
      }),
    );
  }
  branch(root, 'cac:AccountingSupplierParty', (supplier) =>
    branch(supplier, 'cac:Party', (party) => {
      const { seller } = document;
      if (seller.tradingName) branch(party, 'cac:PartyName', (name) => leaf(name, 'cbc:Name', seller.tradingName));
      postalAddress(party, seller.address);
      taxScheme(party, seller.vatId);
      legalEntity(party, seller.name, seller.legalId);
    }),
  );
  branch(root, 'cac:AccountingCustomerParty', (customer) =>
    branch(customer, 'cac:Party', (party) => {
      postalAddress(party, document.buyer.address);
      taxScheme(party, document.buyer.vatId);
      legalEntity(party, document.buyer.name, null);
    }),
  );
  if (document.delivery) {
    branch(root, 'cac:Delivery', (delivery) => {
      leaf(delivery, 'cbc:ActualDeliveryDate', document.delivery!.date);
      branch(delivery, 'cac:DeliveryLocation', (location) =>
        branch(location, 'cac:Address', (address) => country(address, document.delivery!.country)),
      );
    });
  }
  if (document.payment) {
    const { payment } = document;
    branch(root, 'cac:PaymentMeans', (means) => {
      leaf(means, 'cbc:PaymentMeansCode', payment.code);
      leaf(means, 'cbc:PaymentID', payment.reference);
      branch(means, 'cac:PayeeFinancialAccount', (account) => {
        leaf(account, 'cbc:ID', payment.iban);
        if (payment.bic) branch(account, 'cac:FinancialInstitutionBranch', (branchNode) => leaf(branchNode, 'cbc:ID', payment.bic));
      });
    });
  }
  branch(root, 'cac:PaymentTerms', (terms) => leaf(terms, 'cbc:Note', document.paymentTerms));
  branch(root, 'cac:TaxTotal', (total) => {
    money(total, 'cbc:TaxAmount', document.totals.tax);
    for (const group of document.vat) {
      branch(total, 'cac:TaxSubtotal', (subtotal) => {
        money(subtotal, 'cbc:TaxableAmount', group.taxable);
        money(subtotal, 'cbc:TaxAmount', group.tax);
        taxCategory(subtotal, 'cac:TaxCategory', group, (category) => {
          leaf(category, 'cbc:TaxExemptionReasonCode', group.reasonCode);
          leaf(category, 'cbc:TaxExemptionReason', group.reasonText);
        });
      });
    }
  });
  branch(root, 'cac:LegalMonetaryTotal', (total) => {
    const { totals } = document;
    money(total, 'cbc:LineExtensionAmount', totals.lineNet);
    money(total, 'cbc:TaxExclusiveAmount', totals.taxExclusive);
    money(total, 'cbc:TaxInclusiveAmount', totals.taxInclusive);
    money(total, 'cbc:PrepaidAmount', totals.paid);
    money(total, 'cbc:PayableAmount', totals.due);
  });
  for (const line of document.lines) {
    branch(root, document.creditNote ? 'cac:CreditNoteLine' : 'cac:InvoiceLine', (node) => {
      leaf(node, 'cbc:ID', line.id);
      leaf(node, document.creditNote ? 'cbc:CreditedQuantity' : 'cbc:InvoicedQuantity', line.quantity, { unitCode: 'C62' });
      money(node, 'cbc:LineExtensionAmount', line.net);
      if (line.period) period(node, line.period);
      branch(node, 'cac:Item', (item) => {
        leaf(item, 'cbc:Name', line.name);
        taxCategory(item, 'cac:ClassifiedTaxCategory', line);
      });
      branch(node, 'cac:Price', (price) => money(price, 'cbc:PriceAmount', line.price));
    });
  }
  return serialize(root);
}

function period(parent: Node, value: { from: string; to: string }): void {
  branch(parent, 'cac:InvoicePeriod', (node) => {
    leaf(node, 'cbc:StartDate', value.from);
    leaf(node, 'cbc:EndDate', value.to);
  });
}

function country(parent: Node, code: string): void {
  branch(parent, 'cac:Country', (node) => leaf(node, 'cbc:IdentificationCode', code));
}

function postalAddress(party: Node, address: Address): void {
  branch(party, 'cac:PostalAddress', (node) => {
    leaf(node, 'cbc:StreetName', address.line);
    leaf(node, 'cbc:CityName', address.city);
    leaf(node, 'cbc:PostalZone', address.postCode);
    country(node, address.country);
  });
}

function taxScheme(party: Node, vatId: string | null): void {
  if (!vatId) return;
  branch(party, 'cac:PartyTaxScheme', (node) => {
    leaf(node, 'cbc:CompanyID', vatId);
    branch(node, 'cac:TaxScheme', (scheme) => leaf(scheme, 'cbc:ID', 'VAT'));
  });
}

function legalEntity(party: Node, name: string, legalId: string | null): void {
  branch(party, 'cac:PartyLegalEntity', (node) => {
    leaf(node, 'cbc:RegistrationName', name);
    leaf(node, 'cbc:CompanyID', legalId);
  });
}

/** A tax category: its code, its percent (none for O), what `reasons` adds (exemption reasons), the VAT scheme. */
function taxCategory(parent: Node, name: string, key: VatKey, reasons?: (node: Node) => void): void {
  branch(parent, name, (node) => {
    leaf(node, 'cbc:ID', key.category);
    leaf(node, 'cbc:Percent', key.rate);
    reasons?.(node);
    branch(node, 'cac:TaxScheme', (scheme) => leaf(scheme, 'cbc:ID', 'VAT'));
  });
}

import type { Address, EInvoice } from './einvoice.js';
import { branch, leaf, serialize, xmlDocument, type Node } from './xml.js';

/**
 * An EN 16931 document in UN/CEFACT CII D16B (docs/api.md §14.3, docs/einvoices.md), as Factur-X's
 * EN 16931 profile embeds it: a CrossIndustryInvoice, elements in the order of the D16B schemas.
 */

const NAMESPACES = {
  rsm: 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100',
  qdt: 'urn:un:unece:uncefact:data:standard:QualifiedDataType:100',
  ram: 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100',
  udt: 'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100',
};

/** A date in CII's format 102: "2025-03-31" → "20250331", under `prefix` (udt, or qdt for a referenced document). */
function date(parent: Node, name: string, value: string, prefix = 'udt'): void {
  branch(parent, name, (node) => leaf(node, `${prefix}:DateTimeString`, value.replaceAll('-', ''), { format: '102' }));
}

function period(parent: Node, value: { from: string; to: string }): void {
  branch(parent, 'ram:BillingSpecifiedPeriod', (node) => {
    date(node, 'ram:StartDateTime', value.from);
    date(node, 'ram:EndDateTime', value.to);
  });
}

/** The CII text of the document. */
export function toCii(document: EInvoice): string {
  const root = xmlDocument('rsm:CrossIndustryInvoice', NAMESPACES);
  branch(root, 'rsm:ExchangedDocumentContext', (context) =>
    branch(context, 'ram:GuidelineSpecifiedDocumentContextParameter', (guideline) => leaf(guideline, 'ram:ID', 'urn:cen.eu:en16931:2017')),
  );
  branch(root, 'rsm:ExchangedDocument', (header) => {
    leaf(header, 'ram:ID', document.number);
    leaf(header, 'ram:TypeCode', document.typeCode);
    date(header, 'ram:IssueDateTime', document.issueDate);
  });
  branch(root, 'rsm:SupplyChainTradeTransaction', (transaction) => {
    for (const line of document.lines) {
      branch(transaction, 'ram:IncludedSupplyChainTradeLineItem', (item) => {
        branch(item, 'ram:AssociatedDocumentLineDocument', (node) => leaf(node, 'ram:LineID', line.id));
        branch(item, 'ram:SpecifiedTradeProduct', (node) => leaf(node, 'ram:Name', line.name));
        branch(item, 'ram:SpecifiedLineTradeAgreement', (node) =>
          branch(node, 'ram:NetPriceProductTradePrice', (price) => leaf(price, 'ram:ChargeAmount', line.price)),
        );
        branch(item, 'ram:SpecifiedLineTradeDelivery', (node) => leaf(node, 'ram:BilledQuantity', line.quantity, { unitCode: 'C62' }));
        branch(item, 'ram:SpecifiedLineTradeSettlement', (settlement) => {
          branch(settlement, 'ram:ApplicableTradeTax', (tax) => {
            leaf(tax, 'ram:TypeCode', 'VAT');
            leaf(tax, 'ram:CategoryCode', line.category);
            leaf(tax, 'ram:RateApplicablePercent', line.rate);
          });
          if (line.period) period(settlement, line.period);
          branch(settlement, 'ram:SpecifiedTradeSettlementLineMonetarySummation', (sum) => leaf(sum, 'ram:LineTotalAmount', line.net));
        });
      });
    }
    branch(transaction, 'ram:ApplicableHeaderTradeAgreement', (agreement) => {
      leaf(agreement, 'ram:BuyerReference', document.buyerReference);
      const { seller, buyer } = document;
      tradeParty(agreement, 'ram:SellerTradeParty', seller.name, seller.legalId, seller.tradingName, seller.address, seller.vatId);
      tradeParty(agreement, 'ram:BuyerTradeParty', buyer.name, null, null, buyer.address, buyer.vatId);
    });
    branch(transaction, 'ram:ApplicableHeaderTradeDelivery', (delivery) => {
      if (!document.delivery) return;
      branch(delivery, 'ram:ShipToTradeParty', (party) =>
        branch(party, 'ram:PostalTradeAddress', (address) => leaf(address, 'ram:CountryID', document.delivery!.country)),
      );
      if (document.delivery.date)
        branch(delivery, 'ram:ActualDeliverySupplyChainEvent', (event) => date(event, 'ram:OccurrenceDateTime', document.delivery!.date!));
    });
    branch(transaction, 'ram:ApplicableHeaderTradeSettlement', (settlement) => settle(settlement, document));
  });
  return serialize(root);
}

function settle(settlement: Node, document: EInvoice): void {
  const { payment, totals } = document;
  leaf(settlement, 'ram:PaymentReference', payment?.reference);
  leaf(settlement, 'ram:InvoiceCurrencyCode', document.currency);
  if (payment) {
    branch(settlement, 'ram:SpecifiedTradeSettlementPaymentMeans', (means) => {
      leaf(means, 'ram:TypeCode', payment.code);
      branch(means, 'ram:PayeePartyCreditorFinancialAccount', (account) => leaf(account, 'ram:IBANID', payment.iban));
      if (payment.bic) branch(means, 'ram:PayeeSpecifiedCreditorFinancialInstitution', (bank) => leaf(bank, 'ram:BICID', payment.bic));
    });
  }
  for (const group of document.vat) {
    branch(settlement, 'ram:ApplicableTradeTax', (tax) => {
      leaf(tax, 'ram:CalculatedAmount', group.tax);
      leaf(tax, 'ram:TypeCode', 'VAT');
      leaf(tax, 'ram:ExemptionReason', group.reasonText);
      leaf(tax, 'ram:BasisAmount', group.taxable);
      leaf(tax, 'ram:CategoryCode', group.category);
      leaf(tax, 'ram:ExemptionReasonCode', group.reasonCode);
      leaf(tax, 'ram:RateApplicablePercent', group.rate);
    });
  }
  if (document.period) period(settlement, document.period);
  branch(settlement, 'ram:SpecifiedTradePaymentTerms', (terms) => {
    leaf(terms, 'ram:Description', document.paymentTerms);
    if (document.dueDate) date(terms, 'ram:DueDateDateTime', document.dueDate);
  });
  branch(settlement, 'ram:SpecifiedTradeSettlementHeaderMonetarySummation', (sum) => {
    leaf(sum, 'ram:LineTotalAmount', totals.lineNet);
    leaf(sum, 'ram:TaxBasisTotalAmount', totals.taxExclusive);
    leaf(sum, 'ram:TaxTotalAmount', totals.tax, { currencyID: document.currency });
    leaf(sum, 'ram:GrandTotalAmount', totals.taxInclusive);
    leaf(sum, 'ram:TotalPrepaidAmount', totals.paid);
    leaf(sum, 'ram:DuePayableAmount', totals.due);
  });
  if (document.preceding) {
    branch(settlement, 'ram:InvoiceReferencedDocument', (reference) => {
      leaf(reference, 'ram:IssuerAssignedID', document.preceding!.number);
      date(reference, 'ram:FormattedIssueDateTime', document.preceding!.issueDate, 'qdt');
    });
  }
}

function tradeParty(
  parent: Node,
  name: string,
  partyName: string,
  legalId: string | null,
  tradingName: string | null,
  address: Address,
  vatId: string | null,
): void {
  branch(parent, name, (party) => {
    leaf(party, 'ram:Name', partyName);
    if (legalId || tradingName) {
      branch(party, 'ram:SpecifiedLegalOrganization', (organization) => {
        leaf(organization, 'ram:ID', legalId);
        leaf(organization, 'ram:TradingBusinessName', tradingName);
      });
    }
    branch(party, 'ram:PostalTradeAddress', (node) => {
      leaf(node, 'ram:PostcodeCode', address.postCode);
      leaf(node, 'ram:LineOne', address.line);
      leaf(node, 'ram:CityName', address.city);
      leaf(node, 'ram:CountryID', address.country);
    });
    if (vatId) branch(party, 'ram:SpecifiedTaxRegistration', (registration) => leaf(registration, 'ram:ID', vatId, { schemeID: 'VA' }));
  });
}

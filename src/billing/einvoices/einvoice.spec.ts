import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { amountText, decimalText, toEInvoice, type EInvoiceSource, type SourceLine } from './einvoice.js';

const line = (position: number, category: string, rate: number, net: string, tax: string): SourceLine => ({
  Position: position,
  Description: `Line ${position}`,
  Quantity: 1,
  UnitPrice: net,
  SubTotal: net,
  TaxAmount: tax,
  TaxRate: rate,
  PeriodFrom: null,
  PeriodTo: null,
  TaxRateId: position,
  VatCategoryCode: category,
  VatExemptionReasonText: category === 'E' ? 'Exempt' : null,
  VatExemptionReasonCode: null,
});

/** A credit note of `total` (tax `tax`, both negative as stored) against an invoice of `lines`. */
const creditNote = (lines: SourceLine[], total: string, tax: string): EInvoiceSource => ({
  invoice: {
    Id: 2,
    InvoiceNumber: '2',
    CreatedOn: '2025-03-02T10:00:00Z',
    DueDate: null,
    InvoiceFromDate: null,
    InvoiceToDate: null,
    CurrencyCode: 'EUR',
    BillToName: 'Buyer',
    BillToAddress: null,
    BillToCity: null,
    BillToPostCode: null,
    BillToCountryCode: 'FR',
    BillToTaxIDNumber: null,
    TotalAmount: total,
    TaxAmount: tax,
    PaidAmount: 0,
    CreditNote: true,
    Void: false,
    BuyerReference: null,
  },
  lines: [line(1, 'S', 0, '0', '0')],
  seller: {
    Name: 'Seller',
    LegalName: null,
    TaxIDNumber: 'DE123456789',
    LegalRegistrationNumber: null,
    Address: null,
    City: null,
    PostCode: null,
    CountryCode: 'DE',
    BankAccountIban: null,
    BankAccountBic: null,
    PaymentMeansCode: 58,
  },
  original: { InvoiceNumber: '1', CreatedOn: '2025-03-01T10:00:00Z', lines },
});

describe('e-invoice document (docs/api.md §14.3)', () => {
  it('writes amounts with exactly 2 decimals, half away from zero, and prices and quantities with their own decimals', () => {
    assert.equal(amountText(123450n), '12.35');
    assert.equal(amountText(-125n), '-0.01');
    assert.equal(amountText(10_000_000n), '1000.00');
    assert.equal(decimalText(123456n), '12.3456');
    assert.equal(decimalText(25_0000n), '25');
    assert.equal(decimalText(2_5000n), '2.5');
  });

  it("splits a credit note of 50.00 (tax 6.54) over the original's groups S 19% 30.00, E 10.00, S 7% 20.00: nets by share, the largest takes the remainders", () => {
    const lines = [
      line(1, 'S', 19, '30', '5.70'),
      line(2, 'E', 0, '10', '0'),
      line(3, 'S', 7, '20', '1.40'),
      line(4, 'S', 19, '0.01', '0'),
    ];
    const document = toEInvoice(creditNote(lines, '-50', '-6.54'));
    // N = 43.46 over nets 30.01, 10 and 20 of 60.01: 7.24 and 14.48, the S 19% group (largest) the rest, 21.74;
    // taxes: 14.48 × 7% = 1.01, and the S 19% group (largest taxed) the rest of 6.54, 5.53.
    assert.deepEqual(
      document.vat.map((group) => [group.category, group.rate, group.taxable, group.tax]),
      [
        ['S', '19', '21.74', '5.53'],
        ['E', '0', '7.24', '0.00'],
        ['S', '7', '14.48', '1.01'],
      ],
    );
    assert.equal(document.totals.taxInclusive, '50.00');
    assert.equal(document.totals.tax, '6.54');
    assert.equal(document.totals.lineNet, '43.46');
    assert.deepEqual(
      document.lines.map((l) => [l.id, l.net, l.quantity]),
      [
        ['1', '21.74', '1'],
        ['2', '7.24', '1'],
        ['3', '14.48', '1'],
      ],
    );
    assert.equal(document.preceding?.number, '1');
    assert.equal(document.paymentTerms, 'Credit note of invoice 1');
  });
});

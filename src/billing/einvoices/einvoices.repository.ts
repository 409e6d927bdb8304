import { Injectable } from '@nestjs/common';
import { Database } from '../../persistence/database.js';
import { toWire } from '../../records/wire-values.js';
import { Business } from '../../kernel/businesses/business.entity.js';
import { Country } from '../../kernel/countries/country.entity.js';
import { TaxRate } from '../../kernel/tax-rates/tax-rate.entity.js';
import { CoworkerInvoiceLine } from '../coworker-invoice-lines/coworker-invoice-line.entity.js';
import { CoworkerInvoice } from '../coworker-invoices/coworker-invoice.entity.js';
import { Coworker } from '../../customers/coworker.entity.js';
import type { SourceLine, SourceSeller } from './einvoice.js';

/**
 * What an e-invoice reads besides the invoice as GET shows it (docs/einvoices.md): its lines with their
 * tax rates' VAT categories, the business and the customer as they are now, a credit note's original.
 * Reads only: an export writes nothing (docs/api.md §14.1).
 */
@Injectable()
export class EInvoicesRepository {
  constructor(private readonly db: Database) {}

  /** The first `limit` lines of an invoice in Position order, each with its tax rate's VAT terms. */
  async linesOf(invoiceId: number, limit: number): Promise<SourceLine[]> {
    const { db } = this;
    const q = (name: string) => db.id(name);
    const lineFields = [
      'Position',
      'Description',
      'Quantity',
      'UnitPrice',
      'SubTotal',
      'TaxAmount',
      'TaxRate',
      'PeriodFrom',
      'PeriodTo',
      'TaxRateId',
    ];
    const rows = await db.query(
      `SELECT ${lineFields.map((field) => `l.${q(field)}`).join(', ')}, t.${q('VatCategoryCode')} AS VatCategoryCode, t.${q('VatExemptionReasonText')} AS VatExemptionReasonText, ` +
        `t.${q('VatExemptionReasonCode')} AS VatExemptionReasonCode FROM ${db.tableOf(CoworkerInvoiceLine)} l LEFT JOIN ${db.tableOf(TaxRate)} t ON t.${q('Id')} = l.${q('TaxRateId')} ` +
        `WHERE l.${q('CoworkerInvoiceId')} = ? ORDER BY l.${q('Position')}, l.${q('Id')} LIMIT ${Math.max(0, Math.floor(limit))}`,
      [invoiceId],
    );
    // Amounts stay the database's text or number: the document computes with them exactly (kernel/money.ts).
    const text = (value: unknown) => (value === null || value === undefined ? null : String(value));
    const amount = (value: unknown) => (typeof value === 'number' ? value : String(value ?? 0));
    return rows.map((row) => ({
      Position: Number(row.Position),
      Description: text(row.Description),
      Quantity: amount(row.Quantity),
      UnitPrice: amount(row.UnitPrice),
      SubTotal: amount(row.SubTotal),
      TaxAmount: amount(row.TaxAmount),
      TaxRate: amount(row.TaxRate),
      PeriodFrom: toWire('datetime', row.PeriodFrom) as string | null,
      PeriodTo: toWire('datetime', row.PeriodTo) as string | null,
      TaxRateId: row.TaxRateId === null || row.TaxRateId === undefined ? null : Number(row.TaxRateId),
      VatCategoryCode: text(row.VatCategoryCode),
      VatExemptionReasonText: text(row.VatExemptionReasonText),
      VatExemptionReasonCode: text(row.VatExemptionReasonCode),
    }));
  }

  /** The business as the seller of its invoices, now (docs/api.md §14.2). */
  async seller(businessId: number): Promise<SourceSeller | null> {
    const { db } = this;
    const q = (name: string) => db.id(name);
    const fields = [
      'Name',
      'LegalName',
      'TaxIDNumber',
      'LegalRegistrationNumber',
      'Address',
      'City',
      'PostCode',
      'BankAccountIban',
      'BankAccountBic',
      'PaymentMeansCode',
    ];
    const [row] = await db.query(
      `SELECT ${fields.map((field) => `b.${q(field)}`).join(', ')}, c.${q('TwoDigitsCode')} AS CountryCode FROM ${db.tableOf(Business)} b ` +
        `LEFT JOIN ${db.tableOf(Country)} c ON c.${q('Id')} = b.${q('CountryId')} WHERE b.${q('Id')} = ?`,
      [businessId],
    );
    if (!row) return null;
    return { ...(row as unknown as SourceSeller), PaymentMeansCode: Number(row.PaymentMeansCode ?? 58) };
  }

  /** The two-letter code of a country (the bill-to's), or null. */
  async countryCode(countryId: number | null): Promise<string | null> {
    if (countryId === null) return null;
    const { db } = this;
    const [row] = await db.query(`SELECT ${db.id('TwoDigitsCode')} AS code FROM ${db.tableOf(Country)} WHERE ${db.id('Id')} = ?`, [
      countryId,
    ]);
    return row?.code ? String(row.code) : null;
  }

  /** The customer's buyer reference now (docs/api.md §14.2). */
  async buyerReference(coworkerId: number): Promise<string | null> {
    const { db } = this;
    const [row] = await db.query(`SELECT ${db.id('BuyerReference')} AS reference FROM ${db.tableOf(Coworker)} WHERE ${db.id('Id')} = ?`, [
      coworkerId,
    ]);
    return row?.reference ? String(row.reference) : null;
  }

  /** The invoice whose UniqueId is `uniqueId` (a credit note's original): its id, number and date. */
  async original(uniqueId: string): Promise<{ Id: number; InvoiceNumber: string; CreatedOn: string } | null> {
    const { db } = this;
    const q = (name: string) => db.id(name);
    const [row] = await db.query(
      `SELECT ${q('Id')}, ${q('InvoiceNumber')}, ${q('CreatedOn')} FROM ${db.tableOf(CoworkerInvoice)} WHERE ${q('UniqueId')} = ?`,
      [uniqueId],
    );
    return row
      ? { Id: Number(row.Id), InvoiceNumber: String(row.InvoiceNumber), CreatedOn: toWire('datetime', row.CreatedOn) as string }
      : null;
  }
}

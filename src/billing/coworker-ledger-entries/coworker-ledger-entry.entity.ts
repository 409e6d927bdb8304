import { Entity, Index } from 'typeorm';
import { DateTimeColumn, IntColumn, LongTextColumn, MoneyColumn, TextColumn } from '../../records/columns.js';
import { RecordEntity } from '../../records/record.entity.js';
import { Coworker } from '../../customers/coworker.entity.js';
import { Business } from '../../kernel/businesses/business.entity.js';
import { CoworkerInvoice } from '../coworker-invoices/coworker-invoice.entity.js';

/**
 * The platform's `ePaymentProvider` (docs/api.md §10.1): how a ledger entry's money moved. Not the same
 * list as `eRegularPaymentProvider` of invoice payment tokens.
 */
export const PaymentProvider: Readonly<Record<string, number>> = {
  None: 0,
  PayPalStandard: 1,
  PaypalStandardSubscription: 2,
  GoCardless: 3,
  Stripe: 4,
  AuthorizeNetDirect: 5,
  UsaEPay: 6,
  AuthorizeNetSubscription: 7,
  Adyen: 8,
  MultiGateway: 9,
  Manual: 11,
  Forte: 12,
  PayPalAdaptive: 13,
  GoCardlessPro: 14,
  CreditCard: 15,
  EPay: 16,
  Braintree: 17,
  MidTrans: 18,
  EziDebit: 19,
  LiqPay: 20,
  RazorPay: 21,
  SquareCash: 22,
  SquareCreditCard: 23,
  StripeACH: 24,
  StripeDirectDebit: 25,
  IZettleCreditCard: 26,
  PeachPayments: 27,
  Klarna: 28,
  StripeTerminal: 29,
  PayPalStandardRest: 30,
  HostedPaymentPage1: 401,
  HostedPaymentPage2: 402,
  HostedPaymentPage3: 403,
  Xero: 500,
  Quickbooks: 501,
  ManualDirectDebit: 989,
  BadDebt: 990,
  CreditCardManual1: 991,
  CreditCardManual2: 992,
  CreditCardManual3: 993,
  Credit: 994,
  Gift: 995,
  Bank: 996,
  Cash: 997,
  Check: 998,
  Other: 999,
};

/**
 * One movement of a customer's account (docs/api.md §10.1): a Debit (the customer owes more) or a
 * Credit (the customer paid). Against an invoice, a Credit is a payment of it and a Debit a refund.
 */
@Entity('coworkerledgerentry')
// A customer's entries in the order their running Balance adds them up (migration Settlement).
@Index(['CoworkerId', 'TransactionDate'])
export class CoworkerLedgerEntry extends RecordEntity {
  @IntColumn({ nullable: false, references: () => Business }) BusinessId: number;
  @IntColumn({ nullable: false, references: () => Coworker }) CoworkerId: number;
  @IntColumn({ references: () => CoworkerInvoice }) CoworkerInvoiceId: number | null;
  @LongTextColumn() Description: string | null;
  @TextColumn() Code: string | null;
  @MoneyColumn({ nullable: false, default: 0 }) Debit: number;
  @MoneyColumn({ nullable: false, default: 0 }) Credit: number;
  @IntColumn({ nullable: false, default: 11 }) PaymentGatewayName: number;
  @DateTimeColumn({ nullable: false }) TransactionDate: Date;
}

import { BillingRunsRepository } from './billing/billing-runs/billing-runs.repository.js';
import { DueSourcesRepository } from './billing/billing-runs/due-sources.repository.js';
import { ChargesRepository } from './billing/charges/charges.repository.js';
import { ContractProductsRepository } from './billing/contract-products/contract-products.repository.js';
import { CreditSpendingRepository } from './billing/coworker-booking-credit-use-histories/credit-spending.repository.js';
import { CoworkerBookingCreditsRepository } from './billing/coworker-booking-credits/coworker-booking-credits.repository.js';
import { CoworkerContractsRepository } from './billing/coworker-contracts/coworker-contracts.repository.js';
import { CoworkerInvoicesRepository } from './billing/coworker-invoices/coworker-invoices.repository.js';
import { CoworkerProduct } from './billing/coworker-products/coworker-product.entity.js';
import { CoworkerProductsRepository } from './billing/coworker-products/coworker-products.repository.js';
import { CoworkerTimePassesRepository } from './billing/coworker-time-passes/coworker-time-passes.repository.js';
import { DueItemsRepository } from './billing/due-items/due-items.repository.js';
import { EInvoicesRepository } from './billing/einvoices/einvoices.repository.js';
import { InvoiceIssuanceRepository } from './billing/invoice-issuance.repository.js';
import { ProductsRepository } from './billing/products/products.repository.js';
import { InvoiceReleaseRepository } from './billing/settlement/invoice-release.repository.js';
import { SettlementRepository } from './billing/settlement/settlement.repository.js';
import { Country } from './kernel/countries/country.entity.js';
import { createStamp } from './records/audit-stamp.js';
import type { NamedStatement } from './repository-sql.js';

const at = new Date(0);

/**
 * A credit a sale releases, with the columns the sale writes (coworker-booking-credits.service.ts). TypeORM
 * builds its INSERT and writes numbers and booleans inline on SQLite: there the snapshot shows these values.
 */
const RELEASED_CREDIT = {
  ...createStamp('admin@example.com', at, 'u'),
  CoworkerId: 1,
  BusinessId: 1,
  Description: 'Meeting room hours',
  TotalCredit: '10',
  RemainingCredit: '10',
  ValidFrom: at,
  ExpireDate: at,
  ElegibleResourceTypes: [1],
  ElegibleProducts: [],
  ElegibleTariffs: [],
  CaneBeUsedForBookings: true,
  CaneBeUsedForEvents: false,
  EventCategories: [],
  IsUniversalCredit: false,
  ElegiblePasses: [],
  AppliesToCharges: false,
  CoworkerProductUniqueId: 's',
};

/** A pass a day-pass sale releases, with the columns the sale writes (coworker-time-passes.service.ts); as RELEASED_CREDIT. */
const RELEASED_PASS = {
  ...createStamp('admin@example.com', at, 'u'),
  CoworkerId: 1,
  BusinessId: 1,
  TimePassId: 1,
  Free: true,
  Price: 0,
  SaleDate: at,
  ExpireDate: at,
  CoworkerProductUniqueId: 's',
};

/** The statements of billing's repositories (src/billing/), by method. */
export const BILLING_STATEMENTS: NamedStatement[] = [
  { name: 'BillingRunsRepository.dueBusinesses', run: (db) => new BillingRunsRepository(db).dueBusinesses(at) },
  { name: 'BillingRunsRepository.dueCustomersPage', run: (db) => new BillingRunsRepository(db).dueCustomersPage(1, at, 0, 200) },
  { name: 'BillingRunsRepository.businessOfCustomer', run: (db, tx) => new BillingRunsRepository(db).businessOfCustomer(1, tx) },
  { name: 'BillingRunsRepository.taxRates', run: (db, tx) => new BillingRunsRepository(db).taxRates([1, 2], tx) },
  { name: 'BillingRunsRepository.inTeamInvoices', run: (db, tx) => new BillingRunsRepository(db).inTeamInvoices([1, 2], tx) },
  { name: 'BillingRunsRepository.payingMemberOf', run: (db, tx) => new BillingRunsRepository(db).payingMemberOf(1, tx) },
  { name: 'BillingRunsRepository.membersPaidBy', run: (db, tx) => new BillingRunsRepository(db).membersPaidBy(1, tx) },
  { name: 'BillingRunsRepository.universalCredits', run: (db, tx) => new BillingRunsRepository(db).universalCredits([1], 1, tx) },
  {
    name: 'BillingRunsRepository.universalCredits (a batch)',
    run: (db, tx) => new BillingRunsRepository(db).universalCredits([1, 2], 1, tx),
  },
  { name: 'DueSourcesRepository.contractsDue', run: (db, tx) => new DueSourcesRepository(db).contractsDue([1, 2], at, tx) },
  { name: 'DueSourcesRepository.contractProducts', run: (db, tx) => new DueSourcesRepository(db).contractProducts([1, 2], tx) },
  {
    name: 'DueSourcesRepository.unbilledOneOffSales',
    run: (db, tx) => new DueSourcesRepository(db).unbilledOneOffSales([1, 2], at, tx),
  },
  { name: 'DueSourcesRepository.recurringSales', run: (db, tx) => new DueSourcesRepository(db).recurringSales([1, 2], tx) },
  { name: 'DueSourcesRepository.mainContract', run: (db, tx) => new DueSourcesRepository(db).mainContract(1, at, at, tx) },
  {
    name: 'DueItemsRepository.hasBilledLines',
    run: (db, tx) => new DueItemsRepository(db).hasBilledLines('CoworkerProductUniqueId', 'u', tx),
  },
  { name: 'DueItemsRepository.holdUnbilled', run: (db, tx) => new DueItemsRepository(db).holdUnbilled(CoworkerProduct, 1, tx) },
  { name: 'DueItemsRepository.flaggedOn', run: (db, tx) => new DueItemsRepository(db).flaggedOn(CoworkerProduct, 1, tx) },
  {
    name: 'DueItemsRepository.updateFlagged (a claim)',
    run: (db, tx) => new DueItemsRepository(db).updateFlagged(CoworkerProduct, 1, { Invoiced: 1, CoworkerInvoiceId: 1 }, 1, undefined, tx),
  },
  {
    name: 'DueItemsRepository.updateFlagged (a release)',
    run: (db, tx) =>
      new DueItemsRepository(db).updateFlagged(CoworkerProduct, 1, { Invoiced: 0, CoworkerInvoiceId: null }, null, undefined, tx),
  },
  {
    name: 'InvoiceReleaseRepository.billedBy',
    run: (db, tx) => new InvoiceReleaseRepository(db).billedBy(1, 'CoworkerProductUniqueId', tx),
  },
  {
    name: 'InvoiceReleaseRepository.sourceRecord',
    run: (db, tx) => new InvoiceReleaseRepository(db).sourceRecord(CoworkerProduct, 'u', tx),
  },
  {
    name: 'InvoiceReleaseRepository.otherBillings',
    run: (db, tx) => new InvoiceReleaseRepository(db).otherBillings('CoworkerProductUniqueId', 'u', 1, tx),
  },
  {
    name: 'InvoiceReleaseRepository.markReleased',
    run: (db, tx) => new InvoiceReleaseRepository(db).markReleased(CoworkerProduct, 1, { Invoiced: 0 }, undefined, tx),
  },
  { name: 'ChargesRepository.dueForBilling', run: (db, tx) => new ChargesRepository(db).dueForBilling([1, 2], at, tx) },
  {
    name: 'CoworkerTimePassesRepository.dueForBilling',
    run: (db, tx) => new CoworkerTimePassesRepository(db).dueForBilling([1, 2], at, tx),
  },
  {
    name: 'CoworkerTimePassesRepository.checkinUsing',
    run: (db, tx) => new CoworkerTimePassesRepository(db).checkinUsing('u', tx),
  },
  { name: 'CoworkerTimePassesRepository.passKind', run: (db, tx) => new CoworkerTimePassesRepository(db).passKind(1, tx) },
  { name: 'CoworkerTimePassesRepository.payAsYouGo', run: (db, tx) => new CoworkerTimePassesRepository(db).payAsYouGo(1, tx) },
  {
    // No pass that expires is found, so the second read (passes that never expire) runs too.
    name: 'CoworkerTimePassesRepository.validPasses (passes that expire, then those that never do)',
    run: (db, tx) => new CoworkerTimePassesRepository(db).validPasses(1, 1, at, tx),
  },
  { name: 'CoworkerTimePassesRepository.holdUnbilled', run: (db, tx) => new CoworkerTimePassesRepository(db).holdUnbilled(1, tx) },
  { name: 'CoworkerTimePassesRepository.idOf', run: (db, tx) => new CoworkerTimePassesRepository(db).idOf('u', tx) },
  {
    name: 'CoworkerTimePassesRepository.insertMany (a day-pass sale of two)',
    run: (db, tx) => new CoworkerTimePassesRepository(db).insertMany([RELEASED_PASS, { ...RELEASED_PASS, UniqueId: 'v' }], tx),
  },
  {
    name: 'ContractProductsRepository.invoicedPeriod',
    run: (db, tx) => new ContractProductsRepository(db).invoicedPeriod(1, tx),
  },
  { name: 'ContractProductsRepository.contractOf', run: (db, tx) => new ContractProductsRepository(db).contractOf(1, tx) },
  { name: 'ContractProductsRepository.productOf', run: (db, tx) => new ContractProductsRepository(db).productOf(1, tx) },
  {
    name: 'CoworkerProductsRepository.invoicedPeriod',
    run: (db, tx) => new CoworkerProductsRepository(db).invoicedPeriod(1, tx),
  },
  { name: 'CoworkerProductsRepository.productForSale', run: (db, tx) => new CoworkerProductsRepository(db).productForSale(1, tx) },
  { name: 'CoworkerProductsRepository.customerForSale', run: (db, tx) => new CoworkerProductsRepository(db).customerForSale(1, tx) },
  { name: 'ProductsRepository.claimLowStockAlert', run: (db, tx) => new ProductsRepository(db).claimLowStockAlert(1, 1, at, tx) },
  { name: 'ProductsRepository.rearmLowStockAlert', run: (db, tx) => new ProductsRepository(db).rearmLowStockAlert(1, tx) },
  {
    name: 'CoworkerBookingCreditsRepository.creditsOfProduct',
    run: (db, tx) => new CoworkerBookingCreditsRepository(db).creditsOfProduct(1, tx),
  },
  {
    name: 'CoworkerBookingCreditsRepository.insertReleased',
    run: (db, tx) => new CoworkerBookingCreditsRepository(db).insertReleased([RELEASED_CREDIT], tx),
  },
  {
    name: 'CoworkerBookingCreditsRepository.idsOfSale (all)',
    run: (db, tx) => new CoworkerBookingCreditsRepository(db).idsOfSale('s', false, tx),
  },
  {
    name: 'CoworkerBookingCreditsRepository.idsOfSale (unused)',
    run: (db, tx) => new CoworkerBookingCreditsRepository(db).idsOfSale('s', true, tx),
  },
  {
    name: 'CoworkerBookingCreditsRepository.customerBusiness',
    run: (db, tx) => new CoworkerBookingCreditsRepository(db).customerBusiness(1, tx),
  },
  {
    name: 'CreditSpendingRepository.applicable',
    run: (db, tx) => new CreditSpendingRepository(db).applicable({ coworkerId: 1, businessId: 1, resourceTypeId: 1, at }, tx),
  },
  { name: 'CreditSpendingRepository.remaining', run: (db, tx) => new CreditSpendingRepository(db).remaining(1, tx) },
  { name: 'CreditSpendingRepository.giveBack', run: (db, tx) => new CreditSpendingRepository(db).giveBack(1, 1n, tx) },
  { name: 'CreditSpendingRepository.unreturned', run: (db, tx) => new CreditSpendingRepository(db).unreturned(1, tx) },
  {
    name: 'CreditSpendingRepository.unreturnedOnInvoice',
    run: (db, tx) => new CreditSpendingRepository(db).unreturnedOnInvoice(1, tx),
  },
  { name: 'CoworkerContractsRepository.mainActive', run: (db, tx) => new CoworkerContractsRepository(db).mainActive(1, at, tx) },
  { name: 'CoworkerContractsRepository.activeIds (all)', run: (db, tx) => new CoworkerContractsRepository(db).activeIds(1, at, tx) },
  {
    name: 'CoworkerContractsRepository.activeIds (one contract)',
    run: (db, tx) => new CoworkerContractsRepository(db).activeIds(1, at, tx, 2),
  },
  { name: 'CoworkerContractsRepository.tariffTerms', run: (db, tx) => new CoworkerContractsRepository(db).tariffTerms(1, tx) },
  { name: 'CoworkerContractsRepository.markedMainIds', run: (db, tx) => new CoworkerContractsRepository(db).markedMainIds(1, 2, tx) },
  {
    name: 'CoworkerContractsRepository.countRunningOutside',
    rows: [{ n: 0 }],
    run: (db, tx) => new CoworkerContractsRepository(db).countRunningOutside(1, 1, at, tx),
  },
  {
    name: 'CoworkerInvoicesRepository.invoiceCount',
    rows: [{ n: 0 }],
    run: (db, tx) => new CoworkerInvoicesRepository(db).invoiceCount(1, tx),
  },
  { name: 'CoworkerInvoicesRepository.billedCustomer', run: (db, tx) => new CoworkerInvoicesRepository(db).billedCustomer(1, tx) },
  { name: 'CoworkerInvoicesRepository.billedCustomers', run: (db, tx) => new CoworkerInvoicesRepository(db).billedCustomers([1, 2], tx) },
  { name: 'InvoiceIssuanceRepository.lookup', run: (db, tx) => new InvoiceIssuanceRepository(db).lookup(Country, 1, 'Name', tx) },
  { name: 'SettlementRepository.entriesOf', run: (db, tx) => new SettlementRepository(db).entriesOf(1, tx) },
  { name: 'SettlementRepository.ownEntriesOf', run: (db, tx) => new SettlementRepository(db).ownEntriesOf(1, tx) },
  { name: 'SettlementRepository.invoiceForLedger', run: (db, tx) => new SettlementRepository(db).invoiceForLedger(1, tx) },
  { name: 'SettlementRepository.invoicesForLedger', run: (db, tx) => new SettlementRepository(db).invoicesForLedger([1, 2], tx) },
  { name: 'SettlementRepository.deleteEntry', run: (db, tx) => new SettlementRepository(db).deleteEntry(1, tx) },
  { name: 'SettlementRepository.creditNoteTotals', run: (db, tx) => new SettlementRepository(db).creditNoteTotals('u', tx) },
  {
    name: "SettlementRepository.overwriteInvoice (a credit note's bill-to and amounts)",
    run: (db, tx) =>
      new SettlementRepository(db).overwriteInvoice(
        1,
        { BillToName: 'Acme', CoworkerFullName: 'Ada', PaidAmount: '0', DueAmount: '0', Paid: false, PaidOn: null },
        tx,
      ),
  },
  { name: 'SettlementRepository.singleTaxRate', run: (db, tx) => new SettlementRepository(db).singleTaxRate(1, tx) },
  {
    name: "SettlementRepository.insertLine (a credit note's line)",
    rows: [{ id: 1 }],
    run: (db, tx) =>
      new SettlementRepository(db).insertLine(
        {
          CoworkerInvoiceId: 1,
          Description: 'Credit of invoice 1',
          Quantity: 1,
          UnitPrice: '-10',
          SubTotal: '-10',
          TaxRateId: 1,
          TaxRate: '20',
          TaxAmount: '-2',
          TotalAmount: '-12',
          PeriodFrom: null,
          PeriodTo: null,
          Position: 1,
        },
        tx,
        null,
      ),
  },
  { name: 'SettlementRepository.deleteLines', run: (db, tx) => new SettlementRepository(db).deleteLines(1, tx) },
  { name: 'SettlementRepository.lineCounts', run: (db) => new SettlementRepository(db).lineCounts([1, 2]) },
  { name: 'SettlementRepository.linesOf', run: (db) => new SettlementRepository(db).linesOf(1, 100) },
  { name: 'SettlementRepository.creditNotesOf', run: (db) => new SettlementRepository(db).creditNotesOf('u') },
  { name: 'SettlementRepository.businessForPdf', run: (db) => new SettlementRepository(db).businessForPdf(1) },
  { name: 'SettlementRepository.invoiceNumberOf', run: (db) => new SettlementRepository(db).invoiceNumberOf('u') },
  { name: 'SettlementRepository.hasLines', run: (db, tx) => new SettlementRepository(db).hasLines(1, tx) },
  { name: 'EInvoicesRepository.linesOf', run: (db) => new EInvoicesRepository(db).linesOf(1, 100) },
  { name: 'EInvoicesRepository.seller', run: (db) => new EInvoicesRepository(db).seller(1) },
  { name: 'EInvoicesRepository.countryCode', run: (db) => new EInvoicesRepository(db).countryCode(1) },
  { name: 'EInvoicesRepository.buyerReference', run: (db) => new EInvoicesRepository(db).buyerReference(1) },
  { name: 'EInvoicesRepository.original', run: (db) => new EInvoicesRepository(db).original('u') },
];

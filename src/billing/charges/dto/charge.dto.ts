import { DateTime, Money, Reference, Text } from '../../../records/validation/fields.js';
import { RecordDto } from '../../../records/validation/record.dto.js';
import { Business } from '../../../kernel/businesses/business.entity.js';
import { TaxRate } from '../../../kernel/tax-rates/tax-rate.entity.js';
import { Coworker } from '../../../customers/coworker.entity.js';

/** The smallest amount a charge bills: money above 0 (docs/api.md §13.2). */
const SMALLEST_AMOUNT = 0.0001;

/** A charge (docs/billing.md "Charges"); Invoiced, InvoicedOn, CoworkerInvoiceId and CreditAmount are the run's. */
export class ChargeDto extends RecordDto {
  @Reference(() => Business, { required: true }) BusinessId: number;
  /** A customer of the business. */
  @Reference(() => Coworker, { required: true, sameBusiness: true }) CoworkerId: number;
  @Text({ long: true, required: true }) Description: string;
  /** The amount billed, before tax: above 0. */
  @Money({ required: true, min: SMALLEST_AMOUNT }) TotalAmount: number;
  /** The text of its invoice line (default: Description). */
  @Text() InvoiceLineDisplayAs?: string | null;
  /** A tax rate of the business. */
  @Reference(() => TaxRate, { sameBusiness: true }) TaxRateId?: number | null;
  /** Default now: the date it is billed on (a billing date: 2000 to 2099, docs/api.md §9.1). */
  @DateTime({ bounded: true }) SaleDate?: Date | null;
  @DateTime() DueDate?: Date | null;
  @Text() PurchaseOrder?: string | null;
}

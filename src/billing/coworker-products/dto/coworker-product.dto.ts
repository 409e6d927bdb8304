import { Bool, DateTime, Enum, Integer, Money, Reference, Text } from '../../../records/validation/fields.js';
import { RecordDto } from '../../../records/validation/record.dto.js';
import { Coworker } from '../../../customers/coworker.entity.js';
import { Product } from '../../products/product.entity.js';

/** Most units one sale may take (keeps Credit × Quantity within the credit columns). */
export const MAX_SALE_QUANTITY = 1_000_000;

/**
 * A sale (docs/api.md §3). On update CoworkerId, ProductId and Quantity must stay as sold: stock and
 * booking credits were taken from them.
 */
export class CoworkerProductDto extends RecordDto {
  /** The customer buying; a customer of the product's business. */
  @Reference(() => Coworker, { required: true }) CoworkerId: number;
  /** The product sold: not archived; OnlyForMembers / OnlyForContacts decide who may buy it. */
  @Reference(() => Product, { required: true }) ProductId: number;
  /** Units sold; 1 unless given. */
  @Integer({ min: 1, max: MAX_SALE_QUANTITY }) Quantity?: number | null;
  /** Price of one unit; the product's Price unless given. */
  @Money({ min: 0 }) Price?: number | null;
  /** When the sale was made; now unless given. The released credits are valid from it. */
  @DateTime({ bounded: true }) SaleDate?: Date | null;
  @Text({ long: true }) Notes?: string | null;
  /** A one-off sale a client marks invoiced is never billed by a run; runs set it. */
  @Bool() Invoiced?: boolean | null;
  /** A recurring sale: billed once per occurrence (docs/billing.md, 4.). */
  @Bool() RegularCharge?: boolean | null;
  /** eRecurrentChargePattern: 1 PricePlan, 2 Day, 3 Week, 4 Month, 5 Year, 6 LastDayOfMonth. */
  @Enum([1, 2, 3, 4, 5, 6]) RepeatCycle?: number | null;
  /** Every N cycles; 1 unless given. */
  @Integer({ min: 1, max: 1000 }) RepeatUnit?: number | null;
  /** The first occurrence; the sale date unless given. */
  @DateTime({ bounded: true }) RepeatFrom?: Date | null;
  /** No occurrence after it (null: until the sale is deleted). */
  @DateTime({ bounded: true }) RepeatUntil?: Date | null;
}

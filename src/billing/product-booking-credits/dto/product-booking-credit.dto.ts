import { Bool, entityNamed, Enum, IdList, Integer, Money, Reference, Text } from '../../../records/validation/fields.js';
import { RecordDto } from '../../../records/validation/record.dto.js';
import { Tariff } from '../../tariffs/tariff.entity.js';
import { Product } from '../../products/product.entity.js';
import { ExpirationType } from '../product-booking-credit.entity.js';

/** Fields of docs/api.md §9.7; Name, ProductId and Credit are required (docs/api.md §3). */
export class ProductBookingCreditDto extends RecordDto {
  @Text({ required: true }) Name: string;
  /** The product whose sale releases the credit. */
  @Reference(() => Product, { required: true }) ProductId: number;
  @Money({ required: true, min: 0 }) Credit: number;
  /** Resource types the credit is valid for; empty means all. */
  @IdList({ references: entityNamed('ResourceType'), sameBusiness: true, mayNameNothing: true }) ElegibleResourceTypes?: number[] | null;
  /** Products the universal credit is valid for. */
  @IdList({ references: () => Product, sameBusiness: true }) ElegibleProducts?: number[] | null;
  @IdList({ references: () => Tariff, sameBusiness: true }) ElegibleTariffs?: number[] | null;
  @Integer({ min: 0 }) ExpireTimeInMonths?: number | null;
  @Integer({ min: 0 }) ExpireTimeInWeeks?: number | null;
  @Bool() CaneBeUsedForBookings?: boolean | null;
  @Bool() CaneBeUsedForEvents?: boolean | null;
  /** Event categories the credit is valid for; empty means all events. */
  @IdList() EventCategories?: number[] | null;
  /** Unit of ExpiresIn: 1 PricePlan, 2 Day, 3 Week, 4 Month, 5 Year, 6 LastDayOfMonth; 0 or null: none. */
  @Enum(ExpirationType) ExpirationType?: number | null;
  /** Number of ExpirationType periods until a released credit expires. */
  @Integer({ min: 0 }) ExpiresIn?: number | null;
  /** The credit applies to products, time passes and other charges. */
  @Bool() IsUniversalCredit?: boolean | null;
  /** Passes the universal credit is valid for. */
  @IdList() ElegiblePasses?: number[] | null;
  /** The universal credit applies to other charges. */
  @Bool() AppliesToCharges?: boolean | null;
}

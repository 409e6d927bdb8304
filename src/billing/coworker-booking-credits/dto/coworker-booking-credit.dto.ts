import { Bool, DateTime, entityNamed, IdList, Money, Reference, Text } from '../../../records/validation/fields.js';
import { RecordDto } from '../../../records/validation/record.dto.js';
import { Coworker } from '../../../customers/coworker.entity.js';
import { Business } from '../../../kernel/businesses/business.entity.js';
import { Product } from '../../products/product.entity.js';
import { Tariff } from '../../tariffs/tariff.entity.js';

/** A customer's booking credit (docs/api.md §3); the eligibility fields are those of ProductBookingCredit (docs/api.md §9.7). */
export class CoworkerBookingCreditDto extends RecordDto {
  /** The customer whose account holds the credit. */
  @Reference(() => Coworker, { required: true }) CoworkerId: number;
  /** The customer's business unless given; it must be that business. */
  @Reference(() => Business) BusinessId?: number | null;
  @Text({ long: true }) Description?: string | null;
  /** The credit given; 0 unless given. */
  @Money({ min: 0 }) TotalCredit?: number | null;
  /** What is left of it; TotalCredit unless given on create. */
  @Money({ min: 0 }) RemainingCredit?: number | null;
  @DateTime() ValidFrom?: Date | null;
  /** When the credit expires; null: never. */
  @DateTime() ExpireDate?: Date | null;
  /** Resource types the credit is valid for; empty means all. */
  @IdList({ references: entityNamed('ResourceType'), sameBusiness: true, mayNameNothing: true }) ElegibleResourceTypes?: number[] | null;
  /** Products the universal credit is valid for. */
  @IdList({ references: () => Product, sameBusiness: true }) ElegibleProducts?: number[] | null;
  @IdList({ references: () => Tariff, sameBusiness: true }) ElegibleTariffs?: number[] | null;
  @Bool() CaneBeUsedForBookings?: boolean | null;
  @Bool() CaneBeUsedForEvents?: boolean | null;
  /** Event categories the credit is valid for; empty means all events. */
  @IdList() EventCategories?: number[] | null;
  /** The credit applies to products, time passes and other charges. */
  @Bool() IsUniversalCredit?: boolean | null;
  /** Passes the universal credit is valid for. */
  @IdList() ElegiblePasses?: number[] | null;
  /** The universal credit applies to other charges. */
  @Bool() AppliesToCharges?: boolean | null;
  /** The UniqueId of the sale that released the credit. */
  @Text({ max: 36 }) CoworkerProductUniqueId?: string | null;
}

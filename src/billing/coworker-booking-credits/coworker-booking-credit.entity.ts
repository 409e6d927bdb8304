import { Entity } from 'typeorm';
import { BoolColumn, DateTimeColumn, IdListColumn, IntColumn, LongTextColumn, MoneyColumn, TextColumn } from '../../records/columns.js';
import { RecordEntity } from '../../records/record.entity.js';
import { Coworker } from '../../customers/coworker.entity.js';
import { Business } from '../../kernel/businesses/business.entity.js';

/**
 * Credit on a customer's account (docs/api.md §3): released by a sale of a product with
 * ProductBookingCredits, or written by an administrator. The eligibility fields mean what they mean
 * on ProductBookingCredit (docs/api.md §9.7); ExpireDate null: the credit does not expire.
 */
@Entity('coworkerbookingcredit')
export class CoworkerBookingCredit extends RecordEntity {
  @IntColumn({ nullable: false, references: () => Coworker }) CoworkerId: number;
  @IntColumn({ nullable: false, references: () => Business }) BusinessId: number;
  @LongTextColumn() Description: string | null;
  @MoneyColumn({ nullable: false, default: 0 }) TotalCredit: number;
  @MoneyColumn({ nullable: false, default: 0 }) RemainingCredit: number;
  @DateTimeColumn() ValidFrom: Date | null;
  @DateTimeColumn({ index: true }) ExpireDate: Date | null;
  @IdListColumn() ElegibleResourceTypes: number[] | null;
  @IdListColumn() ElegibleProducts: number[] | null;
  @IdListColumn() ElegibleTariffs: number[] | null;
  @BoolColumn() CaneBeUsedForBookings: boolean;
  @BoolColumn() CaneBeUsedForEvents: boolean;
  @IdListColumn() EventCategories: number[] | null;
  @BoolColumn() IsUniversalCredit: boolean;
  @IdListColumn() ElegiblePasses: number[] | null;
  @BoolColumn() AppliesToCharges: boolean;
  /** The UniqueId of the sale that released the credit; null for a credit written by hand. */
  @TextColumn({ length: 36, index: true }) CoworkerProductUniqueId: string | null;
}

import { Entity } from 'typeorm';
import { BoolColumn, IdListColumn, IntColumn, MoneyColumn, TextColumn } from '../../records/columns.js';
import { RecordEntity } from '../../records/record.entity.js';
import { Product } from '../products/product.entity.js';

/** Unit of a released credit's expiry period (docs/api.md §3); 0 or null: the credit does not expire. */
export const ExpirationType = { None: 0, PricePlan: 1, Day: 2, Week: 3, Month: 4, Year: 5, LastDayOfMonth: 6 } as const;

/**
 * Credit linked to a product, released to the customer who buys it (docs/api.md §9.7). The id lists are
 * JSON text: EventCategories and ElegiblePasses name record types this service does not hold;
 * ElegibleProducts and ElegibleTariffs are checked when written; ElegibleResourceTypes may name no
 * resource type (it matches none) but not one of another business (docs/api.md §1).
 */
@Entity('productbookingcredit')
export class ProductBookingCredit extends RecordEntity {
  @TextColumn({ nullable: false, index: true }) Name: string;
  @IntColumn({ nullable: false, references: () => Product }) ProductId: number;
  @MoneyColumn({ nullable: false }) Credit: number;
  @IdListColumn() ElegibleResourceTypes: number[] | null;
  @IdListColumn() ElegibleProducts: number[] | null;
  @IdListColumn() ElegibleTariffs: number[] | null;
  @IntColumn() ExpireTimeInMonths: number | null;
  @IntColumn() ExpireTimeInWeeks: number | null;
  @BoolColumn() CaneBeUsedForBookings: boolean;
  @BoolColumn() CaneBeUsedForEvents: boolean;
  @IdListColumn() EventCategories: number[] | null;
  @IntColumn() ExpirationType: number | null;
  @IntColumn() ExpiresIn: number | null;
  @BoolColumn() IsUniversalCredit: boolean;
  @IdListColumn() ElegiblePasses: number[] | null;
  @BoolColumn() AppliesToCharges: boolean;
}

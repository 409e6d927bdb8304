import { Entity, Index } from 'typeorm';
import { BoolColumn, DateTimeColumn, IntColumn, LongTextColumn, TextColumn } from '../../records/columns.js';
import { RecordEntity } from '../../records/record.entity.js';
import { Coworker } from '../../customers/coworker.entity.js';
import { Business } from '../../kernel/businesses/business.entity.js';

/** eDeliveryType, the platform's kinds of delivery (docs/stock-and-deliveries.md). */
export const DeliveryType = { Mail: 1, Parcel: 2, Check: 3, Publicity: 4, Other: 5 } as const;

/**
 * Something delivered to the space for a customer, until collected (docs/stock-and-deliveries.md).
 * CoworkerProductUniqueId names the sale that made it (null when made through the API), set by the
 * sales only.
 */
@Entity('coworkerdelivery')
// A customer's deliveries waiting to be collected.
@Index(['CoworkerId', 'Collected'])
export class CoworkerDelivery extends RecordEntity {
  @IntColumn({ nullable: false, references: () => Business }) BusinessId: number;
  @TextColumn({ nullable: false }) Name: string;
  @IntColumn({ nullable: false }) DeliveryType: number;
  @IntColumn({ references: () => Coworker }) CoworkerId: number | null;
  @TextColumn() Location: string | null;
  @TextColumn() ReceivedBy: string | null;
  @LongTextColumn() Notes: string | null;
  @BoolColumn() RequiresSignature: boolean;
  @BoolColumn() Signed: boolean;
  @BoolColumn() Collected: boolean;
  @DateTimeColumn() CollectedOn: Date | null;
  @TextColumn({ length: 36, index: true }) CoworkerProductUniqueId: string | null;
}

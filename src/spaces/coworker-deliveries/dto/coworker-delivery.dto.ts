import { Bool, DateTime, Enum, Reference, Text } from '../../../records/validation/fields.js';
import { RecordDto } from '../../../records/validation/record.dto.js';
import { Coworker } from '../../../customers/coworker.entity.js';
import { Business } from '../../../kernel/businesses/business.entity.js';
import { DeliveryType } from '../coworker-delivery.entity.js';

/** A delivery (docs/stock-and-deliveries.md); the sale that made it is the sales' to set, never the body's. */
export class CoworkerDeliveryDto extends RecordDto {
  @Reference(() => Business, { required: true }) BusinessId: number;
  @Text({ required: true }) Name: string;
  /** eDeliveryType: 1 Mail, 2 Parcel, 3 Check, 4 Publicity, 5 Other. */
  @Enum(DeliveryType, { required: true }) DeliveryType: number;
  /** The customer it is for, of the delivery's business; null: nobody yet. */
  @Reference(() => Coworker, { sameBusiness: true }) CoworkerId?: number | null;
  /** Where it is kept; a delivery made by a sale has none yet. */
  @Text() Location?: string | null;
  @Text() ReceivedBy?: string | null;
  @Text({ long: true }) Notes?: string | null;
  @Bool() RequiresSignature?: boolean | null;
  @Bool() Signed?: boolean | null;
  /** DELIVERY_COLLECT sets it with CollectedOn. */
  @Bool() Collected?: boolean | null;
  @DateTime() CollectedOn?: Date | null;
}

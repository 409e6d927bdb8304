import { Bool, DateTime, Integer, Money, Reference, Text } from '../../../records/validation/fields.js';
import { RecordDto } from '../../../records/validation/record.dto.js';
import { Coworker } from '../../../customers/coworker.entity.js';
import { Tariff } from '../../tariffs/tariff.entity.js';

export class CoworkerContractDto extends RecordDto {
  @Reference(() => Coworker, { required: true }) CoworkerId: number;
  /** A tariff of the customer's business. */
  @Reference(() => Tariff, { required: true }) TariffId: number;
  @DateTime({ required: true, bounded: true }) StartDate: Date;
  /** From this moment the contract is no longer active; not before StartDate. */
  @DateTime({ bounded: true }) CancellationDate?: Date | null;
  /** The contract's price; the tariff's Price unless given (null on update: the tariff's again). */
  @Money({ min: 0 }) Price?: number | null;
  @Text({ long: true }) Notes?: string | null;
  /** The customer's main contract: marking one demotes the customer's other main contract. */
  @Bool() IsPrimaryContract?: boolean | null;
  /** Day of the month its billing periods start on, 1 to 28; the start's day (28 when later) unless given. */
  @Integer({ min: 1, max: 28 }) BillingDay?: number | null;
  /** A period shorter than a full one (the first, or one a cancellation cuts) is charged by its days; true unless given. */
  @Bool() ApplyProRating?: boolean | null;
}

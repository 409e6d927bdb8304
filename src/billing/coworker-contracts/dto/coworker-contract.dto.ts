import { Bool, DateTime, Money, Reference, Text } from '../../../common/validation/fields.js';
import { RecordDto } from '../../../common/validation/record.dto.js';
import { Coworker } from '../../../spaces/coworkers/coworker.entity.js';
import { Tariff } from '../../tariffs/tariff.entity.js';

export class CoworkerContractDto extends RecordDto {
  @Reference(() => Coworker, { required: true }) CoworkerId: number;
  /** A tariff of the customer's business. */
  @Reference(() => Tariff, { required: true }) TariffId: number;
  @DateTime({ required: true }) StartDate: Date;
  /** From this moment the contract is no longer active; not before StartDate. */
  @DateTime() CancellationDate?: Date | null;
  /** The contract's price; the tariff's Price unless given (null on update: the tariff's again). */
  @Money({ min: 0 }) Price?: number | null;
  @Text({ long: true }) Notes?: string | null;
  /** The customer's main contract: marking one demotes the customer's other main contract. */
  @Bool() IsPrimaryContract?: boolean | null;
}

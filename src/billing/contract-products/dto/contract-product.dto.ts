import { DateTime, Integer, Money, Reference, Text } from '../../../records/validation/fields.js';
import { RecordDto } from '../../../records/validation/record.dto.js';
import { CoworkerContract } from '../../coworker-contracts/coworker-contract.entity.js';
import { Product } from '../../products/product.entity.js';

export class ContractProductDto extends RecordDto {
  @Reference(() => CoworkerContract, { required: true }) CoworkerContractId: number;
  /** A product of the business of the contract's customer. */
  @Reference(() => Product, { required: true }) ProductId: number;
  /** Units billed each period; 1 unless given. */
  @Integer({ min: 1, max: 1_000_000 }) Quantity?: number | null;
  /** Price of one unit; the product's price when made, unless given. */
  @Money({ min: 0 }) Price?: number | null;
  /** Billed with the contract's periods that start from this date (null: from the contract's start). */
  @DateTime({ bounded: true }) RepeatFrom?: Date | null;
  /** ...up to this date (null: for as long as the contract runs). */
  @DateTime({ bounded: true }) RepeatUntil?: Date | null;
  @Text({ long: true }) Notes?: string | null;
}

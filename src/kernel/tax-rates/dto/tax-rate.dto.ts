import { Integer, Money, Reference, Text } from '../../../common/validation/fields.js';
import { RecordDto } from '../../../common/validation/record.dto.js';
import { Business } from '../../businesses/business.entity.js';

export class TaxRateDto extends RecordDto {
  /** The business the rate belongs to; it cannot change once made. */
  @Reference(() => Business, { required: true }) BusinessId: number;
  @Text({ required: true }) Name: string;
  /** Percent of the net amount, 0 to 100, at most 4 decimals. */
  @Money({ required: true, min: 0, max: 100 }) Rate: number;
  /** The platform's integer exemption code; 1 (None) unless given. */
  @Integer({ min: 1, max: 1000 }) ExemptionReason?: number | null;
  @Text({ long: true }) Description?: string | null;
}

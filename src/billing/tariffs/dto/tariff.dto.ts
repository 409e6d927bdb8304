import { Bool, Money, Reference, Text } from '../../../common/validation/fields.js';
import { RecordDto } from '../../../common/validation/record.dto.js';
import { Business } from '../../../sys/businesses/business.entity.js';
import { Currency } from '../../../sys/currencies/currency.entity.js';

export class TariffDto extends RecordDto {
  @Reference(() => Business, { required: true }) BusinessId: number;
  @Text({ required: true }) Name: string;
  @Money({ required: true, min: 0 }) Price: number;
  @Reference(() => Currency, { required: true }) CurrencyId: number;
  @Text({ long: true }) Description?: string | null;
  @Bool() Visible?: boolean | null;
  @Bool() Archived?: boolean | null;
}

import { Bool, DateTime, Integer, Reference, Text } from '../../../records/validation/fields.js';
import { RecordDto } from '../../../records/validation/record.dto.js';
import { Business } from '../../../kernel/businesses/business.entity.js';

export class CalendarEventDto extends RecordDto {
  @Reference(() => Business, { required: true }) BusinessId: number;
  @Text({ required: true }) Name: string;
  @DateTime({ required: true }) StartDate: Date;
  /** Not before StartDate. */
  @DateTime({ required: true }) EndDate: Date;
  @Text({ long: true }) ShortDescription?: string | null;
  @Text({ long: true }) LongDescription?: string | null;
  @Text() Location?: string | null;
  /** Capacity: the number of attendees the event takes; null means unlimited. */
  @Integer({ min: 1 }) Allocation?: number | null;
  /** Customers may join a waiting list once the event is sold out. */
  @Bool() EnableWaitList?: boolean | null;
  /** When the event becomes public; null means at once. */
  @DateTime() PublishDate?: Date | null;
  @Bool() OnlyForMembers?: boolean | null;
  @Bool() OnlyForContacts?: boolean | null;
}

import { Bool, Reference, Text } from '../../../records/validation/fields.js';
import { RecordDto } from '../../../records/validation/record.dto.js';
import { Coworker } from '../../../customers/coworker.entity.js';
import { CalendarEvent } from '../../calendar-events/calendar-event.entity.js';

export class EventAttendeeDto extends RecordDto {
  /** The event; refused with 400 when it is sold out. */
  @Reference(() => CalendarEvent, { required: true }) CalendarEventId: number;
  @Text({ required: true }) FullName: string;
  @Text({ required: true }) Email: string;
  /** The customer attending, when the attendee is one. */
  @Reference(() => Coworker, { sameBusiness: true }) CoworkerId?: number | null;
  @Bool() CheckedIn?: boolean | null;
}

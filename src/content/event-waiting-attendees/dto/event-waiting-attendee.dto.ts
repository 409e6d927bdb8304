import { Reference, Text } from '../../../records/validation/fields.js';
import { RecordDto } from '../../../records/validation/record.dto.js';
import { Coworker } from '../../../customers/coworker.entity.js';
import { Business } from '../../../kernel/businesses/business.entity.js';
import { CalendarEvent } from '../../calendar-events/calendar-event.entity.js';

export class EventWaitingAttendeeDto extends RecordDto {
  /** The business of the event. */
  @Reference(() => Business, { required: true }) BusinessId: number;
  @Reference(() => CalendarEvent, { required: true }) CalendarEventId: number;
  @Text({ required: true }) FullName: string;
  /** Where to tell the person that a place is free. */
  @Text({ required: true }) Email: string;
  /** The customer waiting, when it is one: at most once per event. */
  @Reference(() => Coworker, { sameBusiness: true }) CoworkerId?: number | null;
}

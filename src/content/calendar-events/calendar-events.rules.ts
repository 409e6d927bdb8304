import { Injectable } from '@nestjs/common';
import { RecordValidationException } from '../../records/errors.js';
import { formatDateTime } from '../../records/wire-values.js';
import type { CalendarEventDto } from './dto/calendar-event.dto.js';
import type { RecordRules, SaveContext } from '../../records/record-rules.js';

@Injectable()
export class CalendarEventsRules implements RecordRules<CalendarEventDto> {
  /** An event cannot end before it starts (a date absent from a partial update is the stored one). */
  async beforeSave(context: SaveContext<CalendarEventDto>): Promise<void> {
    const dto = context.dto;
    const stored = (name: 'StartDate' | 'EndDate') => new Date(String(context.existing?.[name]));
    const StartDate = dto.StartDate ?? stored('StartDate');
    const EndDate = dto.EndDate ?? stored('EndDate');
    if (EndDate.getTime() < StartDate.getTime()) {
      throw RecordValidationException.field('EndDate', 'EndDate must not be before StartDate.', formatDateTime(EndDate));
    }
  }
}

import { Injectable } from '@nestjs/common';
import { RecordValidationException } from '../../common/errors.js';
import { RecordService, type SaveContext } from '../../common/record.service.js';
import { formatDateTime } from '../../common/wire-values.js';
import type { CalendarEvent } from './calendar-event.entity.js';
import type { CalendarEventDto } from './dto/calendar-event.dto.js';

@Injectable()
export class CalendarEventsService extends RecordService<CalendarEvent> {
  /** An event cannot end before it starts (both dates are required, so both are in the body). */
  protected override async beforeSave(context: SaveContext): Promise<void> {
    const { StartDate, EndDate } = context.dto as CalendarEventDto;
    if (EndDate.getTime() < StartDate.getTime()) {
      throw RecordValidationException.field('EndDate', 'EndDate must not be before StartDate.', formatDateTime(EndDate));
    }
  }
}

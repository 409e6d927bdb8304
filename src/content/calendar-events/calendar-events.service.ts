import { Injectable } from '@nestjs/common';
import { RecordValidationException } from '../../common/errors.js';
import { RecordService, type SaveContext } from '../../common/record.service.js';
import { formatDateTime } from '../../common/wire-values.js';
import type { CalendarEvent } from './calendar-event.entity.js';
import type { CalendarEventDto } from './dto/calendar-event.dto.js';

@Injectable()
export class CalendarEventsService extends RecordService<CalendarEvent> {
  /** An event cannot end before it starts (a date absent from a partial update is the stored one). */
  protected override async beforeSave(context: SaveContext): Promise<void> {
    const dto = context.dto as CalendarEventDto;
    const stored = (name: 'StartDate' | 'EndDate') => new Date(String(context.existing?.[name]));
    const StartDate = dto.StartDate ?? stored('StartDate');
    const EndDate = dto.EndDate ?? stored('EndDate');
    if (EndDate.getTime() < StartDate.getTime()) {
      throw RecordValidationException.field('EndDate', 'EndDate must not be before StartDate.', formatDateTime(EndDate));
    }
  }
}

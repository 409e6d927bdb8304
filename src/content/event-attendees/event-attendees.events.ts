import { Inject, Injectable } from '@nestjs/common';
import type { RecordChange } from '../../records/change-log/change-log.service.js';
import type { EventDelivery, RecordEvents } from '../../records/record-events.js';
import { FreedPlaces, SPOT_AVAILABLE } from '../calendar-events/calendar-events.events.js';
import type { Tx } from '../../persistence/tx.js';

/** The webhook actions of attendee changes (src/integrations/webhooks/webhook-actions.ts): a place freed on its event. */
@Injectable()
export class EventAttendeeEvents implements RecordEvents {
  readonly actions = {
    Create: 'CalendarEventAttendeeCreate',
    Update: 'CalendarEventAttendeeUpdate',
    Delete: 'CalendarEventAttendeeDelete',
  } as const;
  @Inject(FreedPlaces) private readonly freed: FreedPlaces;

  fired({ action, before, after }: RecordChange): string[] {
    return action === 'Delete' || (action === 'Update' && before!.CalendarEventId !== after!.CalendarEventId) ? [SPOT_AVAILABLE] : [];
  }

  async delivery(action: string, change: RecordChange, tx: Tx): Promise<EventDelivery | null | undefined> {
    return action === SPOT_AVAILABLE ? this.freed.delivery(change, tx) : undefined;
  }
}

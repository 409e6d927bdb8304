import { Inject, Injectable } from '@nestjs/common';
import type { RecordChange } from '../../records/change-log/change-log.service.js';
import type { WireRecord } from '../../records/record-definition.js';
import type { EventDelivery, RecordEvents } from '../../records/record-events.js';
import { InjectRecords } from '../../records/record.module.js';
import type { RecordService } from '../../records/record.service.js';
import { calendarEvents } from './calendar-events.definition.js';
import { CalendarEventsRepository } from './calendar-events.repository.js';
import type { Tx } from '../../persistence/tx.js';

/** This service's own action: an event with someone on its waiting list has a free place again. */
export const SPOT_AVAILABLE = 'CalendarEventSpotAvailable';

/** The event a change opened a place on, for the deliveries of SPOT_AVAILABLE (events and their attendees fire it). */
@Injectable()
export class FreedPlaces {
  @InjectRecords(calendarEvents) private readonly events: RecordService;
  @Inject(CalendarEventsRepository) private readonly repository: CalendarEventsRepository;

  /** The delivery of SPOT_AVAILABLE for a change: the event, or null when no place was freed for anyone waiting. */
  async delivery(change: RecordChange, tx: Tx): Promise<EventDelivery | null> {
    const event = await this.freedEvent(change, tx);
    return event ? { entity: calendarEvents.name, recordId: Number(event.Id), record: event } : null;
  }

  /**
   * The event a change opened a place on, when it has a waiting list with someone on it: an attendee
   * removed (or moved to another event), or the event's Allocation raised or cleared.
   */
  private async freedEvent(change: RecordChange, tx: Tx): Promise<WireRecord | null> {
    let event: WireRecord;
    if (change.definition.name === calendarEvents.name) {
      event = change.after!;
    } else {
      event = await this.events.get(Number(change.before!.CalendarEventId), undefined, tx);
      const wasSoldOut = event.Allocation !== null && Number(event.AttendeeCount) + 1 >= Number(event.Allocation);
      if (!wasSoldOut || event.SoldOut) return null;
    }
    if (event.EnableWaitList !== true) return null;
    return (await this.repository.hasWaitingAttendee(event.Id, tx)) ? event : null;
  }
}

/** The webhook actions of calendar event changes (src/integrations/webhooks/webhook-actions.ts): a sold-out event with places again. */
@Injectable()
export class CalendarEventEvents implements RecordEvents {
  readonly actions = { Create: 'CalendarEventCreate', Update: 'CalendarEventUpdate', Delete: 'CalendarEventDelete' } as const;
  @Inject(FreedPlaces) private readonly freed: FreedPlaces;

  fired({ action, before, after }: RecordChange): string[] {
    return action === 'Update' && before!.SoldOut === true && after!.SoldOut === false ? [SPOT_AVAILABLE] : [];
  }

  async delivery(action: string, change: RecordChange, tx: Tx): Promise<EventDelivery | null | undefined> {
    return action === SPOT_AVAILABLE ? this.freed.delivery(change, tx) : undefined;
  }
}

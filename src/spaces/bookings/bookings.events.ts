import type { RecordEvents } from '../../records/record-events.js';

/** The webhook actions of Booking changes (src/integrations/webhooks/webhook-actions.ts). */
export const bookingEvents: RecordEvents = {
  actions: { Create: 'BookingCreate', Update: 'BookingUpdate', Delete: 'BookingDelete' },
};

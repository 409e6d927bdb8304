import type { RecordEvents } from '../../records/record-events.js';

/** The webhook actions of Business changes (src/integrations/webhooks/webhook-actions.ts). */
export const businessEvents: RecordEvents = {
  actions: { Update: 'BusinessUpdate' },
};

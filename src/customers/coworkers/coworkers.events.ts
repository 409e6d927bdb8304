import type { RecordEvents } from '../../records/record-events.js';

/** The webhook actions of customer (Coworker) changes (src/integrations/webhooks/webhook-actions.ts). */
export const coworkerEvents: RecordEvents = {
  actions: { Create: 'CoworkerCreate', Update: 'CoworkerUpdate', Delete: 'CoworkerDelete' },
};

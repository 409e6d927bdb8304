import type { RecordEvents } from '../../common/record-events.js';

/** The webhook actions of customer (Coworker) changes (src/integrations/webhooks/webhook-actions.ts). */
export const coworkerEvents: RecordEvents = {
  actions: { Create: 'CoworkerCreate', Update: 'CoworkerUpdate', Delete: 'CoworkerDelete' },
};

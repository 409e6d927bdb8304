import type { RecordEvents } from '../../records/record-events.js';

/** The webhook actions of sale (CoworkerProduct) changes (src/integrations/webhooks/webhook-actions.ts). */
export const coworkerProductEvents: RecordEvents = {
  actions: { Create: 'CoworkerProductCreate', Update: 'CoworkerProductUpdate', Delete: 'CoworkerProductDelete' },
};

import type { RecordEvents } from '../../records/record-events.js';

/** The webhook actions of Team changes (src/integrations/webhooks/webhook-actions.ts). */
export const teamEvents: RecordEvents = {
  actions: { Create: 'TeamCreated', Update: 'TeamUpdated', Delete: 'TeamDeleted' },
};

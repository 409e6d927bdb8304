import type { RecordEvents } from '../../common/record-events.js';

/** The webhook actions of Team changes (src/integrations/webhooks/webhook-actions.ts). */
export const teamEvents: RecordEvents = {
  actions: { Create: 'TeamCreated', Update: 'TeamUpdated', Delete: 'TeamDeleted' },
};

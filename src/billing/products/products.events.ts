import type { RecordEvents } from '../../common/record-events.js';

/** The webhook actions of Product changes (src/integrations/webhooks/webhook-actions.ts). */
export const productEvents: RecordEvents = {
  actions: { Create: 'ProductCreate', Update: 'ProductUpdate', Delete: 'ProductDelete' },
};

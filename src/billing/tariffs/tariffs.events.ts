import type { RecordEvents } from '../../records/record-events.js';

/** The webhook actions of Tariff changes (src/integrations/webhooks/webhook-actions.ts). */
export const tariffEvents: RecordEvents = {
  actions: { Create: 'TariffCreate', Update: 'TariffUpdate', Delete: 'TariffDelete' },
};

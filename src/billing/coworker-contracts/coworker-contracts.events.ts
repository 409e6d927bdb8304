import type { RecordChange } from '../../records/change-log/change-log.service.js';
import type { RecordEvents } from '../../records/record-events.js';

/** The webhook actions of contract changes (src/integrations/webhooks/webhook-actions.ts): a cancellation besides. */
export const coworkerContractEvents: RecordEvents = {
  actions: { Create: 'CoworkerContractCreate', Update: 'CoworkerContractUpdate', Delete: 'CoworkerContractDelete' },
  fired: ({ action, before, after }: RecordChange) =>
    action === 'Update' && after && after.CancellationDate && !before?.CancellationDate ? ['CoworkerContractCancel'] : [],
};

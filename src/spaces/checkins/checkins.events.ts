import type { RecordChange } from '../../records/change-log/change-log.service.js';
import type { RecordEvents } from '../../records/record-events.js';

/** Whether the change sets ToTime where there was none: a check-out. */
const checksOut = ({ action, before, after }: RecordChange) =>
  action !== 'Delete' &&
  after !== null &&
  after.ToTime !== null &&
  after.ToTime !== undefined &&
  (before === null || before.ToTime === null);

/**
 * The webhook actions of check-ins (src/integrations/webhooks/webhook-actions.ts, docs/presence.md): 47/48/49,
 * 36 on every create, 35 when ToTime is set. 37 (a refused check-in) is fired by the check-in rules.
 */
export const checkinEvents: RecordEvents = {
  actions: { Create: 'CheckinCreated', Update: 'CheckinUpdated', Delete: 'CheckinDeleted' },
  fired: (change) => [...(change.action === 'Create' ? ['CoworkerCheckin'] : []), ...(checksOut(change) ? ['CoworkerCheckout'] : [])],
};

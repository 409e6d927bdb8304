import type { RecordChange } from '../../records/change-log/change-log.service.js';
import type { RecordEvents } from '../../records/record-events.js';

/** Whether the change gives the delivery a customer it did not have: made with one, or moved to another. */
const assigns = ({ action, before, after }: RecordChange) =>
  action !== 'Delete' &&
  after !== null &&
  after.CoworkerId !== null &&
  after.CoworkerId !== undefined &&
  (before === null || before.CoworkerId !== after.CoworkerId);

/**
 * The webhook actions of deliveries (src/integrations/webhooks/webhook-actions.ts, docs/stock-and-deliveries.md):
 * 52 DeliveryCreated on every create, a sale's included; 53 DeliveryAssigned when it gets a customer.
 */
export const coworkerDeliveryEvents: RecordEvents = {
  actions: { Create: 'DeliveryCreated' },
  fired: (change) => (assigns(change) ? ['DeliveryAssigned'] : []),
};

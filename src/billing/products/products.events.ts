import type { RecordChange } from '../../records/change-log/change-log.service.js';
import type { RecordEvents } from '../../records/record-events.js';

/** Whether the change set LowStockAlertedOn: only a sale that claimed the alert does (ProductsRepository.claimLowStockAlert). */
const alerts = ({ action, before, after }: RecordChange) =>
  action === 'Update' &&
  before !== null &&
  before.LowStockAlertedOn === null &&
  after !== null &&
  after.LowStockAlertedOn !== null &&
  after.LowStockAlertedOn !== undefined;

/**
 * The webhook actions of Product changes (src/integrations/webhooks/webhook-actions.ts), and 1002
 * ProductLowStock for the sale that took the stock to the alert level (docs/stock-and-deliveries.md).
 */
export const productEvents: RecordEvents = {
  actions: { Create: 'ProductCreate', Update: 'ProductUpdate', Delete: 'ProductDelete' },
  fired: (change) => (alerts(change) ? ['ProductLowStock'] : []),
};

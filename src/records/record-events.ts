import type { RecordChange } from './change-log/change-log.service.js';
import type { ChangeAction } from './field-changes.js';
import type { WireRecord } from './record-definition.js';
import type { Tx } from '../persistence/tx.js';

/** What one delivery of a webhook action carries, when it is not the changed record itself. */
export interface EventDelivery {
  entity: string;
  recordId: number;
  record: WireRecord;
}

/**
 * The webhook actions a record type's changes fire (`<type>.events.ts`, given to `RecordModule.forType`),
 * by their names in the action list (src/integrations/webhooks/webhook-actions.ts). The webhook outbox asks the
 * type of each change; it knows no type's rules itself.
 */
export interface RecordEvents {
  /** The actions a create, update or delete of any of the type's records fires. */
  readonly actions?: Partial<Record<ChangeAction, string>>;
  /** The further actions this particular change fires (an invoice paid, a contract cancelled). */
  fired?(change: RecordChange): readonly string[];
  /**
   * For an action the change fired and a hook waits for: what its delivery carries when it is not the
   * changed record (an event a place was freed on), null when nothing is to be delivered after all (an
   * invoice that is not its customer's first), undefined for the changed record.
   */
  delivery?(action: string, change: RecordChange, tx: Tx): Promise<EventDelivery | null | undefined>;
}

/**
 * Fires a webhook action that no change of a record carries (a check-in refused for want of a pass,
 * docs/presence.md), for the business's active hooks of it, in a transaction of its own. The webhooks
 * module provides it (globally), so a record type below it in the layers can fire without importing it.
 */
export abstract class StandaloneEvents {
  abstract fireAlone(businessId: number, action: string, carried: (tx: Tx) => Promise<EventDelivery>): Promise<void>;
}

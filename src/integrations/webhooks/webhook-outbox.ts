import { Injectable, type OnModuleInit } from '@nestjs/common';
import { ChangeLog, type RecordChange } from '../../records/change-log/change-log.service.js';
import { Database } from '../../persistence/database.js';
import type { EventDelivery, StandaloneEvents } from '../../records/record-events.js';
import { RecordTypes } from '../../records/record-types.js';
import { ActiveHookIndex } from './active-hook-index.js';
import { WEBHOOK_ACTIONS } from './webhook-actions.js';
import { WebhookDeliveriesRepository, type NewDelivery } from './webhook-deliveries.repository.js';
import { WebhooksRepository } from './webhooks.repository.js';
import type { Tx } from '../../persistence/tx.js';

const ACTION_IDS = new Map(WEBHOOK_ACTIONS.map((action) => [action.Name, action.Id]));
const ACTION_NAMES = new Map(WEBHOOK_ACTIONS.map((action) => [action.Id, action.Name]));

/** The id of a webhook action a record type names (its events file); a name not in the list is a programming error. */
function actionId(name: string): number {
  const id = ACTION_IDS.get(name);
  if (id === undefined) throw new Error(`Unknown webhook action ${name}`);
  return id;
}

/**
 * The transactional outbox: inside the transaction of every change, the deliveries it causes are
 * written for the active hooks of the record's business whose action it fires. A change that rolls
 * back takes its deliveries with it; one that commits has them, for the delivery worker to send.
 * A change of a business that has no hook for its actions is told apart without a statement where
 * the instance's index of active hooks knows it (active-hook-index.ts).
 * Which actions a change fires, and what their deliveries carry, each record type declares in its
 * `<type>.events.ts` (registered in RecordTypes); the outbox knows no type's rules.
 */
@Injectable()
export class WebhookOutbox implements OnModuleInit, StandaloneEvents {
  constructor(
    private readonly changeLog: ChangeLog,
    private readonly hooks: WebhooksRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly types: RecordTypes,
    private readonly index: ActiveHookIndex,
    private readonly db: Database,
  ) {}

  /**
   * The deliveries of an action that no change of a record carries (a check-in refused for want of a
   * pass, docs/presence.md): written in a transaction of their own, after the refused write rolled
   * back, for the business's active hooks of the action. `carried` says what they carry, read in that transaction.
   */
  async fireAlone(businessId: number, action: string, carried: (tx: Tx) => Promise<EventDelivery>): Promise<void> {
    const id = actionId(action);
    if (this.index.surelyNone(businessId, [id])) return;
    await this.db.transaction(async (tx) => {
      const hooks = await this.hooks.activeHooks(businessId, [id], tx);
      if (!hooks.length) return;
      const delivery = await carried(tx);
      await this.deliveries.insert(
        hooks.map(({ id: webHookId }) => ({ webHookId, action: id, ...delivery })),
        tx,
      );
    });
  }

  onModuleInit(): void {
    this.changeLog.listen({
      probe: (change) => {
        const fired = this.hookCandidates(change);
        // A business known (within the index's lease) to have no hook for these actions costs no SQL.
        if (!fired || this.index.surelyNone(fired.businessId, fired.actions)) return null;
        return this.hooks.activeHookCount(fired.businessId, fired.actions);
      },
      apply: (tx, change, count) => (count ? this.enqueue(tx, change) : Promise.resolve()),
    });
  }

  /** The actions a change may fire (before looking at hooks): its type's create, update or delete, and the ones its events add. */
  firedActions(change: RecordChange): number[] {
    const events = this.types.find(change.definition.name)?.events;
    if (!events) return [];
    const actions: number[] = [];
    const base = events.actions?.[change.action];
    if (base !== undefined) actions.push(actionId(base));
    for (const name of events.fired?.(change) ?? []) actions.push(actionId(name));
    return actions;
  }

  /** The business whose hooks a change may fire, with the actions it fires; null when it fires none. */
  private hookCandidates(change: RecordChange): { businessId: number; actions: number[] } | null {
    if (change.businessId === null) return null;
    const actions = this.firedActions(change);
    return actions.length ? { businessId: change.businessId, actions } : null;
  }

  /** Writes the deliveries of a change that active hooks wait for (the change log counted them). */
  private async enqueue(tx: Tx, change: RecordChange): Promise<void> {
    const fired = this.hookCandidates(change);
    if (!fired) return;
    const hooks = await this.hooks.activeHooks(fired.businessId, fired.actions, tx);
    if (!hooks.length) return;
    const record = await change.record();
    const events = this.types.find(change.definition.name)?.events;
    // What each action's deliveries carry, asked of the type once per action however many hooks wait for it.
    const carried = new Map<number, Promise<EventDelivery | null | undefined>>();
    const carries = (action: number) => {
      let found = carried.get(action);
      if (!found)
        carried.set(
          action,
          (found = events?.delivery ? events.delivery(ACTION_NAMES.get(action)!, change, tx) : Promise.resolve(undefined)),
        );
      return found;
    };
    const deliveries: NewDelivery[] = [];
    for (const { id: webHookId, action } of hooks) {
      const other = await carries(action);
      if (other === null) continue;
      deliveries.push(
        other ? { webHookId, action, ...other } : { webHookId, action, entity: change.definition.name, recordId: change.recordId, record },
      );
    }
    await this.deliveries.insert(deliveries, tx);
  }
}

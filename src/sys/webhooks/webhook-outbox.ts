import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ChangeLog, type RecordChange } from '../../common/change-log/change-log.service.js';
import type { WireRecord } from '../../common/record-definition.js';
import { calendarEvents } from '../../content/calendar-events/calendar-events.definition.js';
import { InjectRecords } from '../../common/record.module.js';
import type { RecordService } from '../../common/record.service.js';
import { ACTIONS_BY_ENTITY, CALENDAR_EVENT_SPOT_AVAILABLE, webhookAction } from './webhook-actions.js';
import { WebhookDeliveriesRepository, type NewDelivery } from './webhook-deliveries.repository.js';
import { WebhooksRepository } from './webhooks.repository.js';

const INVOICE_CREATE_FIRST = webhookAction('CoworkerInvoiceCreateFirst');
const INVOICE_PAID = webhookAction('CoworkerInvoicePaid');
const INVOICE_RECEIVED_PAYMENT = webhookAction('CoworkerInvoiceReceivedPayment');
const INVOICE_REFUND = webhookAction('CoworkerInvoiceRefund');
const INVOICE_CREDIT_NOTE = webhookAction('CoworkerInvoiceCreditNote');
const CONTRACT_CANCEL = webhookAction('CoworkerContractCancel');

/**
 * The transactional outbox: inside the transaction of every change, the deliveries it causes are
 * written for the active hooks of the record's business whose action it fires. A change that rolls
 * back takes its deliveries with it; one that commits has them, for the delivery worker to send.
 */
@Injectable()
export class WebhookOutbox implements OnModuleInit {
  constructor(
    private readonly changeLog: ChangeLog,
    private readonly hooks: WebhooksRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    @InjectRecords(calendarEvents) private readonly calendarEvents: RecordService,
  ) {}

  onModuleInit(): void {
    this.changeLog.listen({
      probe: (change) => {
        const fired = hookCandidates(change);
        return fired && this.hooks.activeHookCount(fired.businessId, fired.actions);
      },
      apply: (manager, change, count) => (count ? this.enqueue(manager, change) : Promise.resolve()),
    });
  }

  /** Writes the deliveries of a change that active hooks wait for (the change log counted them). */
  private async enqueue(manager: EntityManager, change: RecordChange): Promise<void> {
    const fired = hookCandidates(change);
    if (!fired) return;
    const hooks = await this.hooks.activeHooks(fired.businessId, fired.actions, manager);
    if (!hooks.length) return;
    const record = await change.record();
    const once = <T>(work: () => Promise<T>) => {
      let result: Promise<T> | undefined;
      return () => (result ??= work());
    };
    const freedEvent = once(() => this.freedEvent(manager, change));
    const firstInvoice = once(() => this.isFirstInvoice(manager, record));
    const deliveries: NewDelivery[] = [];
    for (const { id: webHookId, action } of hooks) {
      if (action === CALENDAR_EVENT_SPOT_AVAILABLE) {
        const event = await freedEvent();
        if (event) deliveries.push({ webHookId, action, entity: 'CalendarEvent', recordId: Number(event.Id), record: event });
        continue;
      }
      if (action === INVOICE_CREATE_FIRST && !(await firstInvoice())) continue;
      deliveries.push({ webHookId, action, entity: change.definition.name, recordId: change.recordId, record });
    }
    await this.deliveries.insert(deliveries, manager);
  }

  /**
   * The event a change opened a place on, when it has a waiting list with someone on it: an attendee
   * removed (or moved to another event), or the event's Allocation raised or cleared.
   */
  private async freedEvent(manager: EntityManager, change: RecordChange): Promise<WireRecord | null> {
    let event: WireRecord;
    if (change.definition.name === 'CalendarEvent') {
      event = change.after!;
    } else {
      event = await this.calendarEvents.get(Number(change.before!.CalendarEventId), undefined, manager);
      const wasSoldOut = event.Allocation !== null && Number(event.AttendeeCount) + 1 >= Number(event.Allocation);
      if (!wasSoldOut || event.SoldOut) return null;
    }
    if (event.EnableWaitList !== true) return null;
    return (await this.hooks.hasWaitingAttendee(event.Id, manager)) ? event : null;
  }

  /** Whether a customer invoice is its customer's first. */
  private async isFirstInvoice(manager: EntityManager, invoice: WireRecord): Promise<boolean> {
    return (await this.hooks.invoiceCount(invoice.CoworkerId, manager)) === 1;
  }
}

/** The business whose hooks a change may fire, with the actions it fires; null when it fires none. */
function hookCandidates(change: RecordChange): { businessId: number; actions: number[] } | null {
  const actions = firedActions(change);
  return actions.length && change.businessId !== null ? { businessId: change.businessId, actions } : null;
}

/** The actions a change may fire (before looking at hooks): its type's create, update or delete, and the special ones. */
export function firedActions(change: RecordChange): number[] {
  const { definition, action, before, after } = change;
  const actions: number[] = [];
  const base = ACTIONS_BY_ENTITY[definition.name]?.[action];
  if (base !== undefined) actions.push(base);
  switch (definition.name) {
    case 'CoworkerInvoice':
      if (action === 'Create') actions.push(INVOICE_CREATE_FIRST);
      if (after?.Paid === true && before?.Paid !== true) actions.push(INVOICE_PAID);
      // Settlement (docs/api.md §10): a payment raises PaidAmount, a refund RefundedAmount; a credit note is an invoice.
      if (action === 'Create' && after?.CreditNote === true) actions.push(INVOICE_CREDIT_NOTE);
      if (action === 'Update' && Number(after!.PaidAmount) > Number(before!.PaidAmount)) actions.push(INVOICE_RECEIVED_PAYMENT);
      if (action === 'Update' && Number(after!.RefundedAmount) > Number(before!.RefundedAmount)) actions.push(INVOICE_REFUND);
      break;
    case 'CoworkerContract':
      if (after && after.CancellationDate && !before?.CancellationDate && action === 'Update') actions.push(CONTRACT_CANCEL);
      break;
    case 'EventAttendee':
      if (action === 'Delete' || (action === 'Update' && before!.CalendarEventId !== after!.CalendarEventId)) actions.push(CALENDAR_EVENT_SPOT_AVAILABLE);
      break;
    case 'CalendarEvent':
      if (action === 'Update' && before!.SoldOut === true && after!.SoldOut === false) actions.push(CALENDAR_EVENT_SPOT_AVAILABLE);
      break;
  }
  return actions;
}

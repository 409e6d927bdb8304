import type { ChangeAction } from '../../common/change-log/changes.js';

/** The platform's eWebhookAction numbering (1 to 90) with its own names and spellings, plus this service's own. */
export const WEBHOOK_ACTION_NAMES: readonly string[] = [
  'None', 'CoworkerUpdate', 'CoworkerCreate', 'BlogPostCreate', 'BlogPostUpdate', 'BookingCreate', 'BookingUpdate', 'BookingDelete',
  'SendWelcomeEmail', 'CoworkerContractActivate', 'CoworkerContractCancel', 'CoworkerContractRenew', 'CoworkerContractUpgradeDowngrade',
  'CoworkerContractActivateFirst', 'CoworkerInvoiceCreateFirst', 'CoworkerInvoiceCreate', 'CoworkerInvoiceDelete', 'CoworkerInvoiceUpdate',
  'CoworkerInvoiceRefund', 'CoworkerInvoiceCreditNote', 'CoworkerInvoicePaid', 'CoworkerInvoiceFailedPayment', 'CoworkerInvoiceReceivedPayment',
  'CoworkerInvoiceAwaitingPayment', 'CalendarEventCreate', 'CalendarEventUpdate', 'CalendarEventAttendeeDelete', 'CalendarEventAttendeeCreate',
  'CalendarEventAttendeeUpdate', 'GlobalChatMessageCreate', 'NewsLetterSubscriberCreate', 'NewsLetterSubscriberSubscribed',
  'NewsLetterSubscriberUnSubscribed', 'NewsLetterSubscriberRemovedFromGroup', 'CoworkerCheckout', 'CoworkerCheckin', 'CoworkerCheckinFailed',
  'VisitorNotification', 'CommunityBoardNewThread', 'CommunityBoardNewReply', 'VisitorCheckedin', 'VisitorRegistered', 'BlogPostDelete',
  'CalendarEventDelete', 'HelDeskMessageCreated', 'HelpDeskCommentCreated', 'CheckinCreated', 'CheckinUpdated', 'CheckinDeleted',
  'CoworkerDelete', 'CoworkerMessageCreate', 'DeliveryCreated', 'DeliveryAssigned', 'ProposalCreated', 'ProposalUpdated', 'ProposalDeleted',
  'TeamCreated', 'TeamUpdated', 'TeamDeleted', 'CoworkerContractUpdate', 'AccessControlUpdate', 'CoworkerContractCreate', 'FailedCheckin',
  'VisitorDeleted', 'CoworkerInvoiceLedgerEntryCreate', 'CoworkerInvoiceLedgerEntryDelete', 'CoworkerInvoiceLedgerEntryUpdate',
  'CoworkerProductCreate', 'CoworkerProductUpdate', 'CoworkerProductDelete', 'FloorPlanDeskCreate', 'FloorPlanDeskDelete', 'FloorPlanDeskUpdate',
  'TariffCreate', 'TariffDelete', 'TariffUpdate', 'CoworkerContractDelete', 'FloorPlanCreate', 'FloorPlanDelete', 'FloorPlanUpdate',
  'ProductCreate', 'ProductDelete', 'ProductUpdate', 'BusinessUpdate', 'CommunityGroupCreate', 'CommunityGroupDelete', 'CommunityGroupUpdate',
  'CoworkerPaymentMethodCreate', 'CoworkerPaymentMethodDelete', 'CoworkerPaymentMethodUpdate',
];

/** An event with a waiting list and someone on it went from sold out to having a free place (this service's own action). */
export const CALENDAR_EVENT_SPOT_AVAILABLE = 1001;

/** `eWebhookAction` as `[{ Id, Name }]`: 1 None … 90, then this service's own. */
export const WEBHOOK_ACTIONS: ReadonlyArray<{ Id: number; Name: string }> = [
  ...WEBHOOK_ACTION_NAMES.map((Name, i) => ({ Id: i + 1, Name })),
  { Id: CALENDAR_EVENT_SPOT_AVAILABLE, Name: 'CalendarEventSpotAvailable' },
];

export const webhookAction = (name: string): number => {
  const found = WEBHOOK_ACTIONS.find((action) => action.Name === name);
  if (!found) throw new Error(`Unknown webhook action ${name}`);
  return found.Id;
};

/** The actions a create, update or delete of a record type fires, by entity name. */
export const ACTIONS_BY_ENTITY: Readonly<Record<string, Partial<Record<ChangeAction, number>>>> = {
  Coworker: { Create: webhookAction('CoworkerCreate'), Update: webhookAction('CoworkerUpdate'), Delete: webhookAction('CoworkerDelete') },
  CoworkerInvoice: { Create: webhookAction('CoworkerInvoiceCreate'), Update: webhookAction('CoworkerInvoiceUpdate'), Delete: webhookAction('CoworkerInvoiceDelete') },
  CalendarEvent: { Create: webhookAction('CalendarEventCreate'), Update: webhookAction('CalendarEventUpdate'), Delete: webhookAction('CalendarEventDelete') },
  EventAttendee: { Create: webhookAction('CalendarEventAttendeeCreate'), Update: webhookAction('CalendarEventAttendeeUpdate'), Delete: webhookAction('CalendarEventAttendeeDelete') },
  CoworkerProduct: { Create: webhookAction('CoworkerProductCreate'), Update: webhookAction('CoworkerProductUpdate'), Delete: webhookAction('CoworkerProductDelete') },
  Tariff: { Create: webhookAction('TariffCreate'), Update: webhookAction('TariffUpdate'), Delete: webhookAction('TariffDelete') },
  Product: { Create: webhookAction('ProductCreate'), Update: webhookAction('ProductUpdate'), Delete: webhookAction('ProductDelete') },
  Business: { Update: webhookAction('BusinessUpdate') },
  CoworkerContract: { Create: webhookAction('CoworkerContractCreate'), Update: webhookAction('CoworkerContractUpdate'), Delete: webhookAction('CoworkerContractDelete') },
  Team: { Create: webhookAction('TeamCreated'), Update: webhookAction('TeamUpdated'), Delete: webhookAction('TeamDeleted') },
  Booking: { Create: webhookAction('BookingCreate'), Update: webhookAction('BookingUpdate'), Delete: webhookAction('BookingDelete') },
};

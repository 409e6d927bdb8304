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

/** A sale took a product's stock to its StockAlertLevel or below (this service's own action, docs/stock-and-deliveries.md). */
export const PRODUCT_LOW_STOCK = 1002;

/** `eWebhookAction` as `[{ Id, Name }]`: 1 None … 90, then this service's own. */
export const WEBHOOK_ACTIONS: ReadonlyArray<{ Id: number; Name: string }> = [
  ...WEBHOOK_ACTION_NAMES.map((Name, i) => ({ Id: i + 1, Name })),
  { Id: CALENDAR_EVENT_SPOT_AVAILABLE, Name: 'CalendarEventSpotAvailable' },
  { Id: PRODUCT_LOW_STOCK, Name: 'ProductLowStock' },
];

export const webhookAction = (name: string): number => {
  const found = WEBHOOK_ACTIONS.find((action) => action.Name === name);
  if (!found) throw new Error(`Unknown webhook action ${name}`);
  return found.Id;
};

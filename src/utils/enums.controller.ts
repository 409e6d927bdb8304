import { Controller, Get, Module, Query } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { CoworkerType } from '../customers/coworker.entity.js';
import { BookingCancellationReason } from '../spaces/bookings/booking.entity.js';
import { DeliveryType } from '../spaces/coworker-deliveries/coworker-delivery.entity.js';
import { AvailableAs, SystemProductType } from '../billing/products/product.entity.js';
import { ExpirationType } from '../billing/product-booking-credits/product-booking-credit.entity.js';
import { REGULAR_PAYMENT_PROVIDERS } from '../billing/coworker-invoice-payment-tokens/coworker-invoice-payment-token.entity.js';
import { Authenticated } from '../platform/access.js';
import { RecordNotFoundException } from '../records/errors.js';
import { ApiAnswer, objectSchema, ref } from '../http/openapi.js';
import { WEBHOOK_ACTIONS } from '../integrations/webhooks/webhook-actions.js';

type EnumValues = ReadonlyArray<{ Id: number; Name: string }>;

const fromObject = (values: Record<string, number>): EnumValues => Object.entries(values).map(([Name, Id]) => ({ Id, Name }));

/** The platform's names of the payment providers this service accepts. */
const PAYMENT_PROVIDER_NAMES: Record<number, string> = {
  1: 'MultiGateway',
  2: 'Stripe',
  3: 'Forte',
  4: 'AuthorizeNetSubscription',
  5: 'PaypalStandardSubscription',
  6: 'PayPalAdaptive',
  7: 'EPay',
  8: 'Braintree',
  9: 'EziDebit',
  10: 'LiqPay',
  11: 'StripeACH',
  12: 'GoCardless',
  13: 'StripeBACS',
  94: 'CreditNote',
  95: 'GiftCard',
  96: 'BankTransfer',
  97: 'Cash',
  98: 'Check',
  99: 'Other',
};

/** `ePaymentProvider` (docs/api.md §10.1): the platform's full list, not the same as eRegularPaymentProvider. */
const PAYMENT_PROVIDERS: Record<string, number> = {
  None: 0,
  PayPalStandard: 1,
  PaypalStandardSubscription: 2,
  GoCardless: 3,
  Stripe: 4,
  AuthorizeNetDirect: 5,
  UsaEPay: 6,
  AuthorizeNetSubscription: 7,
  Adyen: 8,
  MultiGateway: 9,
  Manual: 11,
  Forte: 12,
  PayPalAdaptive: 13,
  GoCardlessPro: 14,
  CreditCard: 15,
  EPay: 16,
  Braintree: 17,
  MidTrans: 18,
  EziDebit: 19,
  LiqPay: 20,
  RazorPay: 21,
  SquareCash: 22,
  SquareCreditCard: 23,
  StripeACH: 24,
  StripeDirectDebit: 25,
  IZettleCreditCard: 26,
  PeachPayments: 27,
  Klarna: 28,
  StripeTerminal: 29,
  PayPalStandardRest: 30,
  HostedPaymentPage1: 401,
  HostedPaymentPage2: 402,
  HostedPaymentPage3: 403,
  Xero: 500,
  Quickbooks: 501,
  ManualDirectDebit: 989,
  BadDebt: 990,
  CreditCardManual1: 991,
  CreditCardManual2: 992,
  CreditCardManual3: 993,
  Credit: 994,
  Gift: 995,
  Bank: 996,
  Cash: 997,
  Check: 998,
  Other: 999,
};

/**
 * Enumerations by their platform names (lower-cased), as clients look up the numbers to send. A Map,
 * so a name such as `constructor` or `__proto__` finds nothing (404) instead of an object's own members.
 */
const ENUMS: ReadonlyMap<string, EnumValues> = new Map([
  ['ewebhookaction', WEBHOOK_ACTIONS],
  ['esystemproducttype', fromObject(SystemProductType)],
  ['eavailableas', fromObject(AvailableAs)],
  ['eregularpaymentprovider', REGULAR_PAYMENT_PROVIDERS.map((Id) => ({ Id, Name: PAYMENT_PROVIDER_NAMES[Id] }))],
  ['eexpirationtype', fromObject(ExpirationType)],
  // Recurrent charges repeat by the same periods as credits expire (docs/api.md §7.1).
  ['erecurrentchargepattern', fromObject(ExpirationType)],
  ['epaymentprovider', fromObject(PAYMENT_PROVIDERS)],
  ['ebookingcancellationreason', fromObject(BookingCancellationReason)],
  ['ecoworkertype', fromObject(CoworkerType)],
  ['edeliverytype', fromObject(DeliveryType)],
]);

@ApiTags('Utils')
@Controller('api/utils')
export class EnumsController {
  @Get('enums')
  @Authenticated()
  @ApiOperation({
    summary:
      'The values of an enumeration: eWebhookAction, eSystemProductType, eAvailableAs, eRegularPaymentProvider, eExpirationType, eCoworkerType, eRecurrentChargePattern, ePaymentProvider, eBookingCancellationReason, eDeliveryType',
  })
  @ApiQuery({ name: 'name', required: true, schema: { type: 'string', enum: [...ENUMS.keys()] }, description: 'Case-insensitive.' })
  @ApiAnswer(200, 'The values and their names.', {
    type: 'array',
    items: objectSchema({ Id: { type: 'integer' }, Name: { type: 'string' } }),
  })
  @ApiAnswer(404, 'No enumeration of that name.', ref('NotFound'))
  values(@Query('name') name: unknown): EnumValues {
    const values = typeof name === 'string' ? ENUMS.get(name.toLowerCase()) : undefined;
    if (!values) throw new RecordNotFoundException();
    return values;
  }
}

@Module({ controllers: [EnumsController] })
export class UtilsModule {}

import { Controller, Get, Module, Query } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { CoworkerType } from '../spaces/coworkers/coworker.entity.js';
import { AvailableAs, SystemProductType } from '../billing/products/product.entity.js';
import { ExpirationType } from '../billing/product-booking-credits/product-booking-credit.entity.js';
import { REGULAR_PAYMENT_PROVIDERS } from '../billing/coworker-invoice-payment-tokens/coworker-invoice-payment-token.entity.js';
import { PaymentProvider } from '../billing/coworker-ledger-entries/coworker-ledger-entry.entity.js';
import { Authenticated } from '../common/access.js';
import { RecordNotFoundException } from '../common/errors.js';
import { ApiAnswer, objectSchema, ref } from '../common/openapi.js';
import { WEBHOOK_ACTIONS } from '../sys/webhooks/webhook-actions.js';

type EnumValues = ReadonlyArray<{ Id: number; Name: string }>;

const fromObject = (values: Record<string, number>): EnumValues => Object.entries(values).map(([Name, Id]) => ({ Id, Name }));

/** The platform's names of the payment providers this service accepts. */
const PAYMENT_PROVIDER_NAMES: Record<number, string> = {
  1: 'MultiGateway', 2: 'Stripe', 3: 'Forte', 4: 'AuthorizeNetSubscription', 5: 'PaypalStandardSubscription', 6: 'PayPalAdaptive',
  7: 'EPay', 8: 'Braintree', 9: 'EziDebit', 10: 'LiqPay', 11: 'StripeACH', 12: 'GoCardless', 13: 'StripeBACS',
  94: 'CreditNote', 95: 'GiftCard', 96: 'BankTransfer', 97: 'Cash', 98: 'Check', 99: 'Other',
};

/** Enumerations by their platform names, as clients look up the numbers to send. */
const ENUMS: Readonly<Record<string, EnumValues>> = {
  ewebhookaction: WEBHOOK_ACTIONS,
  esystemproducttype: fromObject(SystemProductType),
  eavailableas: fromObject(AvailableAs),
  eregularpaymentprovider: REGULAR_PAYMENT_PROVIDERS.map((Id) => ({ Id, Name: PAYMENT_PROVIDER_NAMES[Id] })),
  eexpirationtype: fromObject(ExpirationType),
  ecoworkertype: fromObject(CoworkerType),
  epaymentprovider: fromObject(PaymentProvider),
};

@ApiTags('Utils')
@Controller('api/utils')
export class EnumsController {
  @Get('enums')
  @Authenticated()
  @ApiOperation({ summary: 'The values of an enumeration: eWebhookAction, eSystemProductType, eAvailableAs, eRegularPaymentProvider, eExpirationType, eCoworkerType' })
  @ApiQuery({ name: 'name', required: true, schema: { type: 'string', enum: Object.keys(ENUMS) }, description: 'Case-insensitive.' })
  @ApiAnswer(200, 'The values and their names.', { type: 'array', items: objectSchema({ Id: { type: 'integer' }, Name: { type: 'string' } }) })
  @ApiAnswer(404, 'No enumeration of that name.', ref('NotFound'))
  values(@Query('name') name: unknown): EnumValues {
    const values = typeof name === 'string' ? ENUMS[name.toLowerCase()] : undefined;
    if (!values) throw new RecordNotFoundException();
    return values;
  }
}

@Module({ controllers: [EnumsController] })
export class UtilsModule {}

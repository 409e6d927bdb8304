import { Bool, Enum, ExternalId, IdList, Integer, Money, Reference, Text } from '../../../records/validation/fields.js';
import { RecordDto } from '../../../records/validation/record.dto.js';
import { Business } from '../../../kernel/businesses/business.entity.js';
import { Currency } from '../../../kernel/currencies/currency.entity.js';
import { TaxRate } from '../../../kernel/tax-rates/tax-rate.entity.js';
import { Tariff } from '../../tariffs/tariff.entity.js';
import { TimePass } from '../../time-passes/time-pass.entity.js';
import { AvailableAs, SystemProductType } from '../product.entity.js';

/** Product fields of docs/api.md §9.3: eight required, the rest optional; plus CurrentStock (docs/api.md §3). */
export class ProductDto extends RecordDto {
  @Reference(() => Business, { required: true }) BusinessId: number;
  @Text({ required: true }) Name: string;
  @Enum(SystemProductType, { required: true }) SystemProductType: number;
  @Text({ required: true, long: true }) Description: string;
  /** Display order (0 when the product is made without one in the database). */
  @Integer({ required: true }) DisplayOrder: number;
  @Money({ required: true, min: 0 }) Price: number;
  @Reference(() => Currency, { required: true }) CurrencyId: number;
  @Enum(AvailableAs, { required: true }) AvailableAs: number;

  /** Text shown on the invoice line instead of the product name. */
  @Text() InvoiceLineDisplayAs?: string | null;
  @Text() Sku?: string | null;
  /** Comma-separated tags. */
  @Text() Tags?: string | null;
  /** Visible on the members portal and mobile app; true unless given. */
  @Bool() Visible?: boolean | null;
  @Bool() VisibleInKiosk?: boolean | null;
  @Bool() AvailableToAi?: boolean | null;
  @Text({ long: true }) NotesForAi?: string | null;
  @Bool() ShowPriceForAi?: boolean | null;
  @Money() PriceForAi?: number | null;
  /** Sync to the point-of-sale system. */
  @Bool() SyncToSquare?: boolean | null;
  /** Sync to the kiosk app. */
  @Bool() SyncToNexKiosk?: boolean | null;
  /** Tax rates of the product's business (docs/billing.md); a value stored before tax rates existed is kept. */
  @Reference(() => TaxRate, { sameBusiness: true, keepsStored: true }) TaxRateId?: number | null;
  @Reference(() => TaxRate, { sameBusiness: true, keepsStored: true }) ReducedTaxRateId?: number | null;
  @Reference(() => TaxRate, { sameBusiness: true, keepsStored: true }) ExemptTaxRateId?: number | null;
  @ExternalId() FinancialAccountId?: number | null;
  /** Only customers without an active contract may buy it. */
  @Bool() OnlyForContacts?: boolean | null;
  /** Only customers with an active contract may buy it. */
  @Bool() OnlyForMembers?: boolean | null;
  /** Pricing plans the product is linked to. */
  @IdList({ references: () => Tariff, sameBusiness: true }) Tariffs?: number[] | null;
  @Bool() Archived?: boolean | null;
  @Bool() Starred?: boolean | null;
  @Bool() TrackStock?: boolean | null;
  @Bool() AllowNegativeStock?: boolean | null;
  @Integer() StockAlertLevel?: number | null;
  /** The stock level; sales of a product with TrackStock reduce it. Null sets it to 0. */
  @Integer() CurrentStock?: number | null;
  @Bool() ApplyProRating?: boolean | null;
  /** URL of the product's image (ImageFileName reads its file name). */
  @Text() NewImageUrl?: string | null;
  /** true: the product shows no image. */
  @Bool() ClearImageFile?: boolean | null;
  @Bool() InvoiceCoworker?: boolean | null;
  @Bool() CreateDeliveryWhenPurchased?: boolean | null;
  /** A TimePass of the business: a sale of a DayPass product (SystemProductType 1) releases its passes. */
  @Reference(() => TimePass, { sameBusiness: true }) TimePassId?: number | null;
  /** Passes released per unit sold (default 1). */
  @Integer({ min: 1, max: 100 }) TimePassQuantity?: number | null;
}

import { Entity } from 'typeorm';
import { BoolColumn, DateTimeColumn, IntColumn, LongTextColumn, MoneyColumn, TextColumn } from '../../records/columns.js';
import { RecordEntity } from '../../records/record.entity.js';
import { Business } from '../../kernel/businesses/business.entity.js';
import { Currency } from '../../kernel/currencies/currency.entity.js';

/** Category of a product (docs/api.md §9.3). */
export const SystemProductType = {
  None: 0,
  DayPass: 1,
  CreditBundle: 2,
  Stationery: 3,
  BookingFeature: 4,
  BookingProducts: 5,
  Other: 99,
} as const;

/** Sale mode of a product (docs/api.md §9.3). */
export const AvailableAs = { None: 0, RecurrentOrOneOff: 1, OnlyRecurrent: 2, OnlyOneOff: 3 } as const;

/**
 * An item sold to customers (docs/api.md §9.3). Its tariffs live in the product_tariff join table.
 * `CurrentStock` is a plain counter, never null, so a sale takes stock with one conditional update
 * (ProductsService.takeStock).
 */
@Entity('product')
export class Product extends RecordEntity {
  @IntColumn({ nullable: false, references: () => Business }) BusinessId: number;
  @TextColumn({ nullable: false, index: true }) Name: string;
  @IntColumn({ nullable: false }) SystemProductType: number;
  @LongTextColumn({ nullable: false }) Description: string;
  @IntColumn({ nullable: false, default: 0 }) DisplayOrder: number;
  @MoneyColumn({ nullable: false }) Price: number;
  @IntColumn({ nullable: false, references: () => Currency }) CurrencyId: number;
  @IntColumn({ nullable: false }) AvailableAs: number;

  @TextColumn() InvoiceLineDisplayAs: string | null;
  @TextColumn({ index: true }) Sku: string | null;
  @TextColumn() Tags: string | null;
  @BoolColumn({ default: true }) Visible: boolean;
  @BoolColumn() VisibleInKiosk: boolean;
  @BoolColumn() AvailableToAi: boolean;
  @LongTextColumn() NotesForAi: string | null;
  @BoolColumn() ShowPriceForAi: boolean;
  @MoneyColumn() PriceForAi: number | null;
  /** Sync to the point-of-sale system (branded wire name). */
  @BoolColumn() SyncToSquare: boolean;
  /** Sync to the kiosk app (branded wire name). */
  @BoolColumn() SyncToNexKiosk: boolean;
  @IntColumn() TaxRateId: number | null;
  @IntColumn() ReducedTaxRateId: number | null;
  @IntColumn() ExemptTaxRateId: number | null;
  @IntColumn() FinancialAccountId: number | null;
  @BoolColumn() OnlyForContacts: boolean;
  @BoolColumn() OnlyForMembers: boolean;
  @BoolColumn() Archived: boolean;
  @BoolColumn() Starred: boolean;
  @BoolColumn() TrackStock: boolean;
  @BoolColumn() AllowNegativeStock: boolean;
  @IntColumn() StockAlertLevel: number | null;
  @IntColumn({ nullable: false, default: 0 }) CurrentStock: number;
  /** When a sale took the stock to StockAlertLevel or below; null while the alert is armed (docs/stock-and-deliveries.md). Read-only. */
  @DateTimeColumn() LowStockAlertedOn: Date | null;
  @BoolColumn() ApplyProRating: boolean;
  /** Where the product's image comes from; ImageFileName is read from it. */
  @TextColumn() NewImageUrl: string | null;
  @BoolColumn() ClearImageFile: boolean;
  @BoolColumn() InvoiceCoworker: boolean;
  @BoolColumn() CreateDeliveryWhenPurchased: boolean;
  /** A DayPass product's sale releases TimePassQuantity passes of this TimePass per unit (docs/presence.md). */
  @IntColumn() TimePassId: number | null;
  @IntColumn({ nullable: false, default: 1 }) TimePassQuantity: number;
}

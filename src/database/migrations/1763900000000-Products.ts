import type { MigrationInterface, QueryRunner } from 'typeorm';
import { column, createJoinTable, createRecordTable } from '../migration-helpers.js';

/** Products (with their tariffs in the product_tariff join table) and product booking credits. */
export class Products1763900000000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await createRecordTable(
      runner,
      'product',
      [
        column.int('BusinessId', { nullable: false }),
        column.text('Name', { nullable: false }),
        column.int('SystemProductType', { nullable: false }),
        column.longText('Description', { nullable: false }),
        column.int('DisplayOrder', { nullable: false, default: 0 }),
        column.money('Price', { nullable: false }),
        column.int('CurrencyId', { nullable: false }),
        column.int('AvailableAs', { nullable: false }),
        column.text('InvoiceLineDisplayAs'),
        column.text('Sku'),
        column.text('Tags'),
        column.bool('Visible', { default: true }),
        column.bool('VisibleInKiosk'),
        column.bool('AvailableToAi'),
        column.longText('NotesForAi'),
        column.bool('ShowPriceForAi'),
        column.money('PriceForAi'),
        column.bool('SyncToSquare'),
        column.bool('SyncToNexKiosk'),
        column.int('TaxRateId'),
        column.int('ReducedTaxRateId'),
        column.int('ExemptTaxRateId'),
        column.int('FinancialAccountId'),
        column.bool('OnlyForContacts'),
        column.bool('OnlyForMembers'),
        column.bool('Archived'),
        column.bool('Starred'),
        column.bool('TrackStock'),
        column.bool('AllowNegativeStock'),
        column.int('StockAlertLevel'),
        column.int('CurrentStock', { nullable: false, default: 0 }),
        column.bool('ApplyProRating'),
        column.text('NewImageUrl'),
        column.bool('ClearImageFile'),
        column.bool('InvoiceCoworker'),
        column.bool('CreateDeliveryWhenPurchased'),
      ],
      {
        foreignKeys: [
          { column: 'BusinessId', references: 'business' },
          { column: 'CurrencyId', references: 'currency' },
        ],
        indexes: ['Name', 'Sku'],
      },
    );
    await createJoinTable(runner, 'product_tariff', [
      { column: 'ProductId', references: 'product' },
      { column: 'TariffId', references: 'tariff' },
    ]);

    await createRecordTable(
      runner,
      'productbookingcredit',
      [
        column.text('Name', { nullable: false }),
        column.int('ProductId', { nullable: false }),
        column.money('Credit', { nullable: false }),
        column.idList('ElegibleResourceTypes'),
        column.idList('ElegibleProducts'),
        column.idList('ElegibleTariffs'),
        column.int('ExpireTimeInMonths'),
        column.int('ExpireTimeInWeeks'),
        column.bool('CaneBeUsedForBookings'),
        column.bool('CaneBeUsedForEvents'),
        column.idList('EventCategories'),
        column.int('ExpirationType'),
        column.int('ExpiresIn'),
        column.bool('IsUniversalCredit'),
        column.idList('ElegiblePasses'),
        column.bool('AppliesToCharges'),
      ],
      {
        // A product with credits cannot be deleted.
        foreignKeys: [{ column: 'ProductId', references: 'product' }],
        indexes: ['Name'],
      },
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropTable('productbookingcredit');
    await runner.dropTable('product_tariff');
    await runner.dropTable('product');
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { RecordValidationException, refusal } from '../../records/errors.js';
import type { FieldError } from '../../records/envelopes.js';
import type { Principal } from '../../platform/principal.js';
import { parseDbDateTime } from '../../records/wire-values.js';
import { billedDeleteRefusal, hasBilledLines, refuseBilledChanges } from '../due-items/billed-items.js';
import type { WireRecord } from '../../records/record-definition.js';
import {
  CoworkerBookingCreditsService,
  wholeSecond,
  type ReleasingSale,
} from '../coworker-booking-credits/coworker-booking-credits.service.js';
import { coworkerBookingCredits } from '../coworker-booking-credits/coworker-booking-credits.definition.js';
import { CoworkerContractsRules } from '../coworker-contracts/coworker-contracts.rules.js';
import { ProductsService } from '../products/products.service.js';
import { products as productType } from '../products/products.definition.js';
import { InjectRecords } from '../../records/record.module.js';
import type { RecordService } from '../../records/record.service.js';
import { CoworkerProductsRepository, type ProductForSale } from './coworker-products.repository.js';
import { CoworkerTimePassesService } from '../coworker-time-passes/coworker-time-passes.service.js';
import { MAX_ID } from '../../records/validation/fields.js';
import type { DeleteContext, RecordRules, SaveContext, SaveDecision } from '../../records/record-rules.js';
import { Database } from '../../persistence/database.js';
import type { CoworkerProductDto } from './dto/coworker-product.dto.js';
import { SaleDeliveries } from './sale-deliveries.js';
import type { Tx } from '../../persistence/tx.js';

/**
 * What a new sale's afterSave needs to release its credits and passes and make its delivery, found by its
 * beforeSave (all but the UniqueId); `delivers`: the product's name when it makes a delivery, else null.
 */
type PendingRelease = Omit<ReleasingSale, 'UniqueId'> & { dayPass: ProductForSale['dayPass']; delivers: string | null };

/** Fields a sale keeps once made: its stock and booking credits were taken from them. */
const AS_SOLD = ['CoworkerId', 'ProductId', 'Quantity'] as const;

/**
 * Sales (docs/api.md §3.1 "Sales", "Booking credits"). Everything below runs in the sale's one
 * transaction, so a refusal or a failure anywhere leaves no sale, no credit and no stock change.
 *
 * - Create: the product must belong to the customer's business, not be archived, and suit the
 *   customer (OnlyForMembers: an active contract; OnlyForContacts: none). Stock is then taken with
 *   one conditional update (ProductsService.takeStock), refused without enough stock unless the
 *   product allows negative stock. Quantity defaults to 1, Price to the product's, SaleDate to now.
 *   The sale that takes the stock to StockAlertLevel claims the low-stock alert. Once the sale is
 *   written, the product's booking credits are released to the customer, and a product with
 *   CreateDeliveryWhenPurchased makes a delivery (docs/stock-and-deliveries.md).
 * - Update: Notes, Invoiced, Price, SaleDate and SystemId may change; CoworkerId, ProductId and
 *   Quantity may not (400 naming the field). A null Quantity, Price or SaleDate keeps the stored
 *   one. The released credits are left as they are.
 * - Delete: refused while a credit the sale released has been used (RemainingCredit below
 *   TotalCredit); otherwise the sale, its unused credits and its delivery not collected are removed.
 *   Stock is NOT returned: a deleted sale does not mean the goods came back; an administrator
 *   corrects CurrentStock.
 */
@Injectable()
export class CoworkerProductsRules implements RecordRules<CoworkerProductDto> {
  @Inject(Database) private readonly db: Database;
  @Inject(ProductsService) private readonly stock: ProductsService;
  @InjectRecords(productType) private readonly products: RecordService;
  @Inject(CoworkerBookingCreditsService) private readonly credits: CoworkerBookingCreditsService;
  @InjectRecords(coworkerBookingCredits) private readonly creditRecords: RecordService;
  @Inject(CoworkerContractsRules) private readonly contracts: CoworkerContractsRules;
  @Inject(CoworkerProductsRepository) private readonly salesRepository: CoworkerProductsRepository;
  @Inject(CoworkerTimePassesService) private readonly timePasses: CoworkerTimePassesService;
  @Inject(SaleDeliveries) private readonly deliveries: SaleDeliveries;

  /**
   * A new sale: the values to write (quantity, price and date as sold) and, pending for afterSave, the
   * sale whose booking credits it releases. An update: the values it may change.
   */
  async beforeSave(context: SaveContext<CoworkerProductDto>): Promise<SaveDecision<PendingRelease>> {
    if (context.existing) {
      const values = this.keepAsSold(context.values, context.existing, context.dto);
      this.repeatDefaults(values, context.existing);
      await this.keepBilled(values, context.existing, context.tx);
      return { values };
    }
    const { tx } = context;
    const values = { ...context.values };
    const productId = Number(values.ProductId);
    const product = await this.salesRepository.productForSale(productId, tx);
    const customer = await this.salesRepository.customerForSale(Number(values.CoworkerId), tx);
    // The machinery checked both exist; a delete that committed since is still a 400 naming the field.
    if (!product) throw RecordValidationException.field('ProductId', `Product ${productId} does not exist`, productId);
    if (!customer) throw RecordValidationException.field('CoworkerId', `Coworker ${values.CoworkerId} does not exist`, values.CoworkerId);
    const name = product.Name;
    if (product.BusinessId !== customer.BusinessId) {
      throw RecordValidationException.field(
        'ProductId',
        `Product ${productId} is not sold by Business ${customer.BusinessId}, the business of Coworker ${values.CoworkerId}.`,
        productId,
      );
    }
    // A member has a contract active now; its main one decides when PricePlan credits expire.
    const plan = await this.contracts.mainActive(Number(values.CoworkerId), new Date(), tx);
    const member = plan !== null;
    if (product.Archived) throw refusal(`Product "${name}" is archived and cannot be sold.`);
    if (product.OnlyForMembers && !member)
      throw refusal(`Product "${name}" is only for members: ${customer.FullName} has no active contract.`);
    if (product.OnlyForContacts && member)
      throw refusal(`Product "${name}" is only for contacts: ${customer.FullName} has an active contract.`);

    const quantity = (values.Quantity as number | null | undefined) ?? 1;
    if (!(await this.stock.takeStock(tx, productId, quantity))) {
      if (product.AllowNegativeStock)
        throw RecordValidationException.field(
          'Quantity',
          `A sale of ${quantity} would take the stock of "${name}" below ${-MAX_ID}.`,
          quantity,
        );
      throw refusal(`Not enough stock of "${name}" for a sale of ${quantity}: the product does not allow negative stock.`);
    }
    if (product.TrackStock) await this.recordStockChange(tx, context.actor, productId, quantity);
    values.Quantity = quantity;
    values.Price ??= product.Price;
    values.SaleDate = wholeSecond((values.SaleDate as Date | null | undefined) ?? new Date());
    this.repeatDefaults(values, null);
    const pending: PendingRelease = {
      CoworkerId: Number(values.CoworkerId),
      ProductId: productId,
      BusinessId: product.BusinessId,
      Quantity: quantity,
      SaleDate: values.SaleDate as Date,
      plan,
      by: context.actor?.email ?? null,
      dayPass: product.dayPass,
      delivers: product.CreateDeliveryWhenPurchased ? name : null,
    };
    return { values, pending };
  }

  /**
   * The stock change is a change of the product: it goes in its history and to its hooks, and the sale
   * that takes the stock to the alert level claims the alert (docs/stock-and-deliveries.md). The product
   * before the sale is the product after it less this sale's change: takeStock holds the row, so that
   * counts every sale committed before this one, where a read before takeStock could miss one (and take
   * an alert another sale claimed for this sale's).
   */
  private async recordStockChange(tx: Tx, actor: Principal | undefined, productId: number, quantity: number): Promise<void> {
    const after = await this.products.get(productId, undefined, tx);
    const left = Number(after.CurrentStock);
    const stock = left + quantity;
    const level = after.StockAlertLevel as number | null;
    const before = Object.assign({}, after, { CurrentStock: stock, LowStock: level !== null && stock <= level });
    await this.products.changeRecorded(
      tx,
      actor,
      productId,
      async () => {
        // Only a sale that crossed the level with the alert armed can claim it: the claim's UPDATE (which
        // keeps it once among parallel sales) runs for that sale alone, not for every sale.
        if (level !== null && after.LowStockAlertedOn == null && left <= level && stock > level) {
          await this.stock.claimLowStockAlert(tx, productId, quantity, wholeSecond(new Date()));
        }
      },
      before,
    );
  }

  /**
   * A sale repeats from its sale date and every cycle unless told otherwise (docs/billing.md): RepeatFrom
   * defaults to the sale date on every sale, and when a sale becomes recurring without one.
   */
  private repeatDefaults(values: Record<string, unknown>, existing: WireRecord | null): void {
    const regular = values.RegularCharge ?? existing?.RegularCharge;
    if (values.RepeatUnit === null || (!existing && values.RepeatUnit === undefined)) values.RepeatUnit = 1;
    const unset = values.RepeatFrom === null || (values.RepeatFrom === undefined && !existing?.RepeatFrom);
    if (unset && (!existing || regular === true || values.RepeatFrom === null)) {
      values.RepeatFrom = values.SaleDate ?? (existing?.SaleDate ? new Date(String(existing.SaleDate)) : null);
    }
    if (regular === true && (values.RepeatCycle ?? existing?.RepeatCycle ?? null) === null) {
      throw RecordValidationException.field(
        'RepeatCycle',
        'RepeatCycle is required for a recurring sale (RegularCharge).',
        values.RepeatCycle ?? null,
      );
    }
  }

  /** What a billed sale keeps (docs/billing.md): what was billed, and its Invoiced mark. */
  private async keepBilled(values: Record<string, unknown>, existing: WireRecord, tx: Tx): Promise<void> {
    if (!(await hasBilledLines(this.db, 'CoworkerProductUniqueId', String(existing.UniqueId), tx))) return;
    const extra: FieldError[] = [];
    if (values.Invoiced === false && existing.RegularCharge !== true) {
      extra.push({
        PropertyName: 'Invoiced',
        AttemptedValue: false,
        Message: 'The sale was billed on an invoice: it stays invoiced. Credit the invoice instead.',
      });
    }
    if (values.RepeatUntil instanceof Date && existing.RegularCharge === true) {
      const billed = await this.billedUntil(Number(existing.Id), tx);
      if (billed && values.RepeatUntil.getTime() < billed.getTime() - 86_400_000) {
        extra.push({
          PropertyName: 'RepeatUntil',
          AttemptedValue: values.RepeatUntil.toISOString(),
          Message: `It was billed up to ${billed.toISOString().slice(0, 10)} (exclusive): RepeatUntil cannot end before what was billed.`,
        });
      }
    }
    refuseBilledChanges(
      'CoworkerProduct',
      ['Price', 'SaleDate', 'RegularCharge', 'RepeatCycle', 'RepeatUnit', 'RepeatFrom'],
      values,
      existing,
      extra,
    );
  }

  private async billedUntil(id: number, tx: Tx): Promise<Date | null> {
    const ms = parseDbDateTime(await this.salesRepository.invoicedPeriod(id, tx));
    return ms === null ? null : new Date(ms);
  }

  /**
   * A new sale releases its booking credits, a DayPass its passes (docs/presence.md), and a product with
   * CreateDeliveryWhenPurchased makes its delivery (docs/stock-and-deliveries.md), named by the sale's UniqueId as written.
   */
  async afterSave(_id: number, saved: SaveContext<CoworkerProductDto>, sale?: PendingRelease): Promise<void> {
    if (!sale) return;
    const UniqueId = String(saved.values.UniqueId);
    await this.credits.release(saved.tx, { ...sale, UniqueId }, saved.actor);
    if (sale.delivers !== null) {
      await this.deliveries.deliver(
        saved.tx,
        { UniqueId, BusinessId: sale.BusinessId, CoworkerId: sale.CoworkerId, ProductName: sale.delivers },
        saved.actor,
      );
    }
    if (!sale.dayPass) return;
    const { TimePassId, TimePassQuantity } = sale.dayPass;
    const release = {
      UniqueId,
      ProductId: sale.ProductId,
      CoworkerId: sale.CoworkerId,
      BusinessId: sale.BusinessId,
      TimePassId,
      count: sale.Quantity * TimePassQuantity,
      SaleDate: sale.SaleDate,
    };
    await this.timePasses.releaseForSale(saved.tx, release, saved.actor);
  }

  async beforeDelete(sale: WireRecord, { tx, actor }: DeleteContext): Promise<void> {
    if (await hasBilledLines(this.db, 'CoworkerProductUniqueId', String(sale.UniqueId), tx))
      throw refusal(billedDeleteRefusal('CoworkerProduct', sale.Id));
    const unused = await this.credits.ofSale(tx, String(sale.UniqueId), true);
    // One conditional DELETE takes the unused credits; any credit left was used (even by a
    // transaction that committed meanwhile), and the refusal rolls the DELETE back.
    const used = await this.credits.removeUnusedOfSale(tx, String(sale.UniqueId));
    if (used > 0) {
      throw refusal(
        `CoworkerProduct ${sale.Id} cannot be deleted: ${used} of the booking credits it released ${used === 1 ? 'has' : 'have'} been used. ` +
          'Deleting a sale removes its unused credits and does not return its quantity to stock.',
      );
    }
    await this.creditRecords.recordRemoved(tx, actor, unused);
  }

  /** Its delivery goes with the deleted sale while not collected; a collected one stays (docs/stock-and-deliveries.md). */
  async afterDelete(sale: WireRecord, { tx, actor }: DeleteContext): Promise<void> {
    await this.deliveries.saleDeleted(tx, String(sale.UniqueId), actor);
  }

  /** An update may not change what the sale took stock and released credits for: the values it may write. */
  private keepAsSold(given: Readonly<Record<string, unknown>>, existing: WireRecord, dto: CoworkerProductDto): Record<string, unknown> {
    const values = { ...given };
    const errors: FieldError[] = [];
    for (const field of AS_SOLD) {
      const value = values[field];
      // Absent or null in the request: kept (the machinery turns a null into the column's default).
      if (value === undefined || dto[field] === null) {
        delete values[field];
        continue;
      }
      if (Number(value) !== Number(existing[field])) {
        errors.push({
          PropertyName: field,
          AttemptedValue: value,
          Message: `${field} of a sale cannot be changed (it is ${existing[field]}): stock and booking credits were taken for it. Delete the sale and make a new one.`,
        });
      }
    }
    if (errors.length) throw new RecordValidationException(errors);
    if (dto.Price === null) delete values.Price;
    if (dto.SaleDate === null) delete values.SaleDate;
    if (values.SaleDate instanceof Date) values.SaleDate = wholeSecond(values.SaleDate);
    return values;
  }
}

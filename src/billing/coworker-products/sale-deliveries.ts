import type { Principal } from '../../platform/principal.js';
import type { Tx } from '../../persistence/tx.js';

/** A new sale as the delivery it makes needs it. */
export interface DeliveredSale {
  /** The sale's UniqueId: the delivery's CoworkerProductUniqueId. */
  UniqueId: string;
  BusinessId: number;
  CoworkerId: number;
  /** The product's name: the delivery's Name. */
  ProductName: string;
}

/**
 * The deliveries sales make (docs/stock-and-deliveries.md): a sale of a product with
 * CreateDeliveryWhenPurchased makes one in its transaction, and deleting the sale deletes it while it is
 * not collected. Deliveries are a record type of spaces, a layer above billing (docs/architecture.md §6):
 * they implement this and provide it globally, so the sales rules name no type of spaces.
 */
export abstract class SaleDeliveries {
  /** Inside the sale's transaction, once the sale is written: its delivery. */
  abstract deliver(tx: Tx, sale: DeliveredSale, actor: Principal | undefined): Promise<void>;
  /** Inside the transaction deleting the sale: its deliveries not collected go with it. */
  abstract saleDeleted(tx: Tx, saleUniqueId: string, actor: Principal | undefined): Promise<void>;
}

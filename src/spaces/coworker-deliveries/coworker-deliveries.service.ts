import { Inject, Injectable } from '@nestjs/common';
import { SaleDeliveries, type DeliveredSale } from '../../billing/coworker-products/sale-deliveries.js';
import type { Principal } from '../../platform/principal.js';
import { InjectRecords } from '../../records/record.module.js';
import type { RecordService } from '../../records/record.service.js';
import { coworkerDeliveries } from './coworker-deliveries.definition.js';
import { CoworkerDeliveriesRepository } from './coworker-deliveries.repository.js';
import { DeliveryType } from './coworker-delivery.entity.js';
import type { Tx } from '../../persistence/tx.js';

/**
 * The deliveries of sales (docs/stock-and-deliveries.md), in the sale's transaction: one per sale of a
 * product with CreateDeliveryWhenPurchased, whatever its Quantity; gone with the sale unless collected.
 * Each is a change of its own in the deliveries' log, so it fires their hooks (52, and 53 for its customer).
 */
@Injectable()
export class CoworkerDeliveriesService implements SaleDeliveries {
  @InjectRecords(coworkerDeliveries) private readonly records: RecordService;
  @Inject(CoworkerDeliveriesRepository) private readonly deliveries: CoworkerDeliveriesRepository;

  async deliver(tx: Tx, sale: DeliveredSale, actor: Principal | undefined): Promise<void> {
    await this.records.createRecorded(tx, actor, {
      BusinessId: sale.BusinessId,
      Name: sale.ProductName,
      DeliveryType: DeliveryType.Other,
      CoworkerId: sale.CoworkerId,
      CoworkerProductUniqueId: sale.UniqueId,
    });
  }

  async saleDeleted(tx: Tx, saleUniqueId: string, actor: Principal | undefined): Promise<void> {
    for (const id of await this.deliveries.uncollectedOfSale(saleUniqueId, tx)) await this.records.deleteWithin(tx, id, actor);
  }
}

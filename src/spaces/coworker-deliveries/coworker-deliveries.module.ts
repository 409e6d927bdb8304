import { Global, Module } from '@nestjs/common';
import { SaleDeliveries } from '../../billing/coworker-products/sale-deliveries.js';
import { RecordModule } from '../../records/record.module.js';
import { CoworkerDeliveryCommands } from './coworker-delivery-commands.js';
import { coworkerDeliveries } from './coworker-deliveries.definition.js';
import { coworkerDeliveryEvents } from './coworker-deliveries.events.js';
import { CoworkerDeliveriesRepository } from './coworker-deliveries.repository.js';
import { CoworkerDeliveriesService } from './coworker-deliveries.service.js';

@Module(
  RecordModule.forType({
    definition: coworkerDeliveries,
    events: coworkerDeliveryEvents,
    providers: [
      CoworkerDeliveriesRepository,
      CoworkerDeliveriesService,
      CoworkerDeliveryCommands,
      { provide: SaleDeliveries, useExisting: CoworkerDeliveriesService },
    ],
    exports: [SaleDeliveries],
  }),
)
// Global: the sales rules (billing, a lower layer) make and delete deliveries through SaleDeliveries.
@Global()
export class CoworkerDeliveriesModule {}

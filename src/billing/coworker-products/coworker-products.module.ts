import { Module } from '@nestjs/common';
import { RecordModule } from '../../records/record.module.js';
import { CoworkerBookingCreditsModule } from '../coworker-booking-credits/coworker-booking-credits.module.js';
import { CoworkerContractsModule } from '../coworker-contracts/coworker-contracts.module.js';
import { ProductsModule } from '../products/products.module.js';
import { CoworkerTimePassesModule } from '../coworker-time-passes/coworker-time-passes.module.js';
import { coworkerProducts } from './coworker-products.definition.js';
import { CoworkerProductsRepository } from './coworker-products.repository.js';
import { CoworkerProductsRules } from './coworker-products.rules.js';
import { coworkerProductEvents } from './coworker-products.events.js';

@Module(
  RecordModule.forType({
    definition: coworkerProducts,
    events: coworkerProductEvents,
    rules: CoworkerProductsRules,
    providers: [CoworkerProductsRepository],
    imports: [ProductsModule, CoworkerBookingCreditsModule, CoworkerContractsModule, CoworkerTimePassesModule],
  }),
)
export class CoworkerProductsModule {}

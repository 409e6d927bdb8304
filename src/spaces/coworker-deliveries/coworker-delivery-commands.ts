import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { claimCommand } from '../../records/commands/claim-command.js';
import { RecordCommands } from '../../records/commands/record-commands.js';
import { InjectRecords } from '../../records/record.module.js';
import type { RecordService } from '../../records/record.service.js';
import { coworkerDeliveries } from './coworker-deliveries.definition.js';
import { CoworkerDeliveriesRepository } from './coworker-deliveries.repository.js';

/**
 * `POST /api/spaces/coworkerdeliveries/runcommand` `DELIVERY_COLLECT` (docs/stock-and-deliveries.md): every
 * delivery of the ids reads Collected, CollectedOn now, in one transaction; one collected already refuses
 * the whole command. Each is one conditional UPDATE, so of parallel commands on one delivery one collects it.
 */
@Injectable()
export class CoworkerDeliveryCommands implements OnModuleInit {
  @Inject(RecordCommands) private readonly commands: RecordCommands;
  @Inject(CoworkerDeliveriesRepository) private readonly deliveries: CoworkerDeliveriesRepository;
  @InjectRecords(coworkerDeliveries) private readonly records: RecordService;

  onModuleInit(): void {
    this.commands.register(
      coworkerDeliveries,
      claimCommand({
        key: 'DELIVERY_COLLECT',
        name: 'Collect delivery',
        permission: { entity: coworkerDeliveries.name, action: 'Edit' },
        done: (delivery) => delivery.Collected === true,
        doneAlready: (id) => `CoworkerDelivery ${id} has been collected already.`,
        claim: (id, at, by, tx) => this.deliveries.collect(id, at, by, tx),
        records: this.records,
      }),
    );
  }
}

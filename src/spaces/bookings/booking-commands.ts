import { Injectable, type OnModuleInit } from '@nestjs/common';
import { RecordCommands } from '../../records/commands/record-commands.js';
import { RecordNotFoundException, refusal } from '../../records/errors.js';
import { BookingCancellationReason } from './booking.entity.js';
import { InjectRecords } from '../../records/record.module.js';
import type { RecordService } from '../../records/record.service.js';
import { bookings } from './bookings.definition.js';

const REASONS = new Set<number>(Object.values(BookingCancellationReason));

/**
 * `POST /api/spaces/bookings/runcommand` `CANCEL_BOOKING` (docs/bookings.md): removes each booking as a
 * DELETE does (its credits come back, its products' sales go), all ids in one transaction. The reason
 * is checked against eBookingCancellationReason; this service applies no cancellation fees, so
 * `Cancel without applying cancellation fee rules` changes nothing. An invoiced booking is refused.
 */
@Injectable()
export class BookingCommands implements OnModuleInit {
  constructor(
    private readonly commands: RecordCommands,
    @InjectRecords(bookings) private readonly bookings: RecordService,
  ) {}

  onModuleInit(): void {
    this.commands.register(bookings, {
      key: 'CANCEL_BOOKING',
      name: 'Cancel booking',
      permission: { entity: bookings.name, action: 'Delete' },
      displayInDropdown: true,
      parameters: [
        { Name: 'Cancellation Reason', Type: 'Integer' },
        { Name: 'Cancel without applying cancellation fee rules', Type: 'Boolean' },
      ],
      refuses: (booking) =>
        booking.Invoiced === true ? `Booking ${booking.Id} has been invoiced and cannot be cancelled. Credit its invoice instead.` : null,
      run: async ({ records, parameters, tx, actor }) => {
        const reason = parameters['Cancellation Reason'] ?? BookingCancellationReason.Unknown;
        if (typeof reason !== 'number' || !REASONS.has(reason)) {
          throw refusal(`Cancellation Reason must be one of ${[...REASONS].join(', ')} (eBookingCancellationReason).`);
        }
        for (const booking of records) {
          try {
            await this.bookings.deleteWithin(tx!, Number(booking.Id), actor);
          } catch (error) {
            // Cancelled, deleted or moved away by a request that committed first: its usual refusal.
            if (error instanceof RecordNotFoundException) throw refusal(`Booking ${booking.Id} does not exist or is not yours to change.`);
            throw error;
          }
        }
        return null;
      },
    });
  }
}

import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Actor, RequirePermission } from '../../platform/access.js';
import { JsonBody } from '../../http/json-body.js';
import { ApiAnswer, objectSchema, ref } from '../../http/openapi.js';
import type { Principal } from '../../platform/principal.js';
import { RecordBodyPipe } from '../../http/record-body.pipe.js';
import { BookingsRules } from './bookings.rules.js';
import { BookingDto } from './dto/booking.dto.js';

/** `POST /api/spaces/bookings/available` (docs/bookings.md), beside the record routes. */
@ApiTags('Booking')
@Controller('api/spaces/bookings')
export class BookingAvailabilityController {
  constructor(private readonly bookings: BookingsRules) {}

  @Post('available')
  @HttpCode(200)
  @RequirePermission('Booking', 'Create')
  @ApiOperation({
    summary:
      'Whether a booking could be made now and what it would cost (Price, CreditUsed, ChargeAmount), by the rules of a create; writes nothing',
  })
  @ApiBody({ type: BookingDto })
  @ApiAnswer(
    200,
    'Whether the booking could be made, why not, and its price and credit use.',
    objectSchema({
      Available: { type: 'boolean' },
      Message: { type: 'string', nullable: true },
      Price: { type: 'number' },
      CreditUsed: { type: 'number' },
      ChargeAmount: { type: 'number' },
    }),
  )
  @ApiAnswer(400, 'The body is not a valid booking.', ref('ActionConfirmation'))
  available(@JsonBody(BookingDto, new RecordBodyPipe(BookingDto)) dto: BookingDto, @Actor() actor?: Principal) {
    return this.bookings.available(dto, actor);
  }
}

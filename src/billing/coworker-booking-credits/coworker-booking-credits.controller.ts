import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { Actor, RequirePermission } from '../../platform/access.js';
import { ApiAnswer, ref } from '../../http/openapi.js';
import type { Principal } from '../../platform/principal.js';
import { CoworkerBookingCreditsService } from './coworker-booking-credits.service.js';

/**
 * `GET /api/billing/coworkerbookingcredits/applicable` (docs/api.md §3.1). It sits beside the record
 * routes; the router prefers the static segment to the record controller's `:id`.
 */
@ApiTags('CoworkerBookingCredit')
@Controller('api/billing/coworkerbookingcredits')
export class ApplicableCreditsController {
  constructor(private readonly credits: CoworkerBookingCreditsService) {}

  @Get('applicable')
  @RequirePermission('CoworkerBookingCredit', 'List')
  @ApiOperation({
    summary: "The customer's unexpired credits with a balance that can pay for one use (give exactly one of the use parameters)",
  })
  @ApiQuery({ name: 'coworkerId', required: true, type: Number })
  @ApiQuery({ name: 'resourceTypeId', required: false, type: Number })
  @ApiQuery({ name: 'eventCategoryId', required: false, type: Number })
  @ApiQuery({ name: 'productId', required: false, type: Number })
  @ApiQuery({ name: 'passId', required: false, type: Number })
  @ApiQuery({ name: 'charge', required: false, type: Boolean })
  @ApiQuery({ name: 'page', required: false })
  @ApiQuery({ name: 'size', required: false })
  @ApiAnswer(200, 'The applicable credits in the list envelope.', ref('CoworkerBookingCreditList'))
  @ApiAnswer(400, 'A missing coworkerId, or not exactly one use parameter.', ref('ActionConfirmation'))
  @ApiAnswer(404, 'No such customer.', ref('NotFound'))
  applicable(@Query() query: Record<string, unknown>, @Actor() actor?: Principal) {
    return this.credits.applicable(query, actor);
  }
}

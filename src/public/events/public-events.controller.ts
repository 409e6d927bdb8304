import { Controller, Get, HttpCode, HttpStatus, Param, Post, Query, Req, UnauthorizedException } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { Actor, CustomerOnly, Public } from '../../platform/access.js';
import { failureConfirmation } from '../../records/envelopes.js';
import { WireResponseException } from '../../records/errors.js';
import { ApiAnswer, documentSchemas, listEnvelopeSchema, objectSchema, pickProperties, ref } from '../../http/openapi.js';
import type { Principal } from '../../platform/principal.js';
import { RecordIdPipe } from '../../http/record-id.pipe.js';
import { JoinWaitingListDto } from './dto/join-waiting-list.dto.js';
import { PUBLIC_FIELDS } from './public-events.repository.js';
import { PublicEventsService } from './public-events.service.js';

const recordId = new RecordIdPipe();

/** The join body: `{}`, `{FullName, Email}`, or nothing at all; a body that is not JSON is 415. */
function joinBody(request: FastifyRequest): unknown {
  const body = request.body;
  const isJson = /^application\/([\w.+-]+\+)?json\b/i.test(String(request.headers['content-type'] ?? ''));
  if (body === undefined || body === null || (!isJson && typeof body === 'string' && body.trim() === '')) return {};
  if (!isJson) {
    throw new WireResponseException(
      failureConfirmation(415, 'The request body must be JSON (application/json).'),
      HttpStatus.UNSUPPORTED_MEDIA_TYPE,
    );
  }
  return body;
}

documentSchemas((schemas) => ({
  PublicCalendarEvent: pickProperties(
    schemas.CalendarEvent,
    PUBLIC_FIELDS,
    { SoldOut: { type: 'boolean' } },
    'What anyone may see of a published event.',
  ),
  PublicCalendarEventList: objectSchema({
    PastEvents: { type: 'boolean' },
    CalendarEvents: listEnvelopeSchema(ref('PublicCalendarEvent'), 'A page of published events.'),
  }),
  PublicCalendarEventAnswer: objectSchema({ Event: ref('PublicCalendarEvent'), AttendeeCount: { type: 'integer' } }),
}));

@ApiTags('Public events')
@Controller('api/public/events')
export class PublicEventsController {
  constructor(private readonly events: PublicEventsService) {}

  @Get()
  @Public()
  @ApiOperation({ summary: 'Published events, coming (by StartDate ascending) or past (descending); no authentication' })
  @ApiQuery({ name: 'pastEvents', required: false, type: Boolean })
  @ApiQuery({ name: 'page', required: false, type: Number })
  @ApiQuery({ name: 'top', required: false, type: Number, description: 'Page size (default 25)' })
  @ApiQuery({ name: 'search', required: false, description: 'Case-insensitive match on the name' })
  @ApiQuery({ name: 'businessId', required: false, type: Number })
  @ApiAnswer(200, 'A page of published events.', ref('PublicCalendarEventList'))
  @ApiAnswer(400, 'A malformed parameter.', ref('ActionConfirmation'))
  list(@Query() query: Record<string, unknown>) {
    return this.events.list(query);
  }

  @Get(':id')
  @Public()
  @ApiOperation({ summary: 'One published event with its attendee count; no authentication' })
  @ApiAnswer(200, 'The event and its attendee count.', ref('PublicCalendarEventAnswer'))
  @ApiAnswer(404, 'Not found: unknown or unpublished.', ref('NotFound'))
  get(@Param('id', RecordIdPipe) id: number) {
    return this.events.get(id);
  }

  /**
   * The caller must be a customer: that is decided first, here, whatever the guard let through, so
   * an anonymous or administrator's request is 401 before the event or the body is looked at.
   */
  @Post(':id/joinWaitingList')
  @HttpCode(200)
  @CustomerOnly()
  @ApiOperation({ summary: 'Join the waiting list of a sold-out event (customer bearer token)' })
  @ApiBody({ type: JoinWaitingListDto, required: false })
  @ApiOkResponse({ description: 'On the waiting list (empty body)' })
  @ApiAnswer(400, 'The event has no waiting list, is not sold out, or the customer is on it already.', ref('ActionConfirmation'))
  @ApiAnswer(401, "Not a customer's token.", ref('Unauthorized'))
  @ApiAnswer(404, 'No such published event.', ref('NotFound'))
  @ApiAnswer(415, 'A body that is not JSON.', ref('ActionConfirmation'))
  async joinWaitingList(@Param('id') id: string, @Req() request: FastifyRequest, @Actor() actor?: Principal): Promise<void> {
    const customer = actor?.coworkerId ? await this.events.customer(actor.coworkerId) : null;
    if (!customer) throw new UnauthorizedException();
    await this.events.joinWaitingList(recordId.transform(id), customer, joinBody(request), request.writeScope ?? undefined);
  }
}

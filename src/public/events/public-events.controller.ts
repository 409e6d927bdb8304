import { Controller, Get, HttpCode, HttpStatus, Param, Post, Query, Req, UnauthorizedException } from '@nestjs/common';
import { ApiBody, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { Actor, CustomerOnly, Public } from '../../common/access.js';
import { failureConfirmation } from '../../common/envelopes.js';
import { WireResponseException } from '../../common/errors.js';
import type { Principal } from '../../common/principal.js';
import { RecordIdPipe } from '../../common/record-id.pipe.js';
import { JoinWaitingListDto } from './dto/join-waiting-list.dto.js';
import { PublicEventsService } from './public-events.service.js';

const recordId = new RecordIdPipe();

/** The join body: `{}`, `{FullName, Email}`, or nothing at all; a body that is not JSON is 415. */
function joinBody(request: FastifyRequest): unknown {
  const body = request.body;
  const isJson = /^application\/([\w.+-]+\+)?json\b/i.test(String(request.headers['content-type'] ?? ''));
  if (body === undefined || body === null || (!isJson && typeof body === 'string' && body.trim() === '')) return {};
  if (!isJson) {
    throw new WireResponseException(failureConfirmation(415, 'The request body must be JSON (application/json).'), HttpStatus.UNSUPPORTED_MEDIA_TYPE);
  }
  return body;
}

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
  list(@Query() query: Record<string, unknown>) {
    return this.events.list(query);
  }

  @Get(':id')
  @Public()
  @ApiOperation({ summary: 'One published event with its attendee count; no authentication' })
  @ApiNotFoundResponse({ description: 'Not found: unknown or unpublished' })
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
  async joinWaitingList(@Param('id') id: string, @Req() request: FastifyRequest, @Actor() actor?: Principal): Promise<void> {
    const customer = actor?.coworkerId ? await this.events.customer(actor.coworkerId) : null;
    if (!customer) throw new UnauthorizedException();
    await this.events.joinWaitingList(recordId.transform(id), customer, joinBody(request), actor?.write, actor?.requestId);
  }
}

import { Controller, Get, HttpStatus, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { SkipThrottle } from '@nestjs/throttler';
import type { FastifyReply } from 'fastify';
import { Public } from '../common/access.js';
import { ApiAnswer, ref } from '../common/openapi.js';
import { HealthRepository } from './health.repository.js';

const PROBE_TIMEOUT_MS = 2000;

@ApiTags('Health')
@Controller('health')
export class HealthController {
  constructor(private readonly database: HealthRepository) {}

  /** 200 when the database answers within two seconds, 503 otherwise (for load balancers). */
  @Public()
  @SkipThrottle()
  @Get()
  @ApiOperation({ summary: 'Liveness and database reachability' })
  @ApiAnswer(200, 'Up, and the database answers.', { type: 'object', required: ['status'], properties: { status: { type: 'string', enum: ['ok'] } } })
  @ApiAnswer(431, 'Request headers larger than the server accepts (any route; the ActionConfirmation envelope).', ref('ActionConfirmation'))
  @ApiAnswer(503, 'The database did not answer within two seconds, or the instance is stopping.', { type: 'object', required: ['status'], properties: { status: { type: 'string', enum: ['unavailable'] } } })
  async health(@Res() reply: FastifyReply): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('database probe timed out')), PROBE_TIMEOUT_MS);
    });
    try {
      await Promise.race([this.database.ping(), timeout]);
      await reply.status(HttpStatus.OK).send({ status: 'ok' });
    } catch {
      await reply.status(HttpStatus.SERVICE_UNAVAILABLE).send({ status: 'unavailable' });
    } finally {
      clearTimeout(timer);
    }
  }
}

import { Controller, Get, HttpStatus, Res, ServiceUnavailableException } from '@nestjs/common';
import { HealthCheckService, HealthIndicatorService, type HealthIndicatorFunction } from '@nestjs/terminus';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { SkipThrottle } from '@nestjs/throttler';
import type { FastifyReply } from 'fastify';
import { Public } from '../platform/access.js';
import { ApiAnswer, ref } from '../http/openapi.js';
import { HealthRepository } from './health.repository.js';
import { Readiness } from './readiness.js';

const PROBE_TIMEOUT_MS = 2000;

/** @nestjs/terminus's answer: the overall status and each check's (docs/operations.md, "Health checks"). */
const CHECKS = {
  type: 'object',
  required: ['status', 'info', 'error', 'details'],
  properties: {
    status: { type: 'string', enum: ['ok', 'error'] },
    info: { type: 'object', additionalProperties: { type: 'object', properties: { status: { type: 'string' } } } },
    error: { type: 'object', additionalProperties: { type: 'object', properties: { status: { type: 'string' } } } },
    details: { type: 'object', additionalProperties: { type: 'object', properties: { status: { type: 'string' } } } },
  },
};
const HEADERS_TOO_LARGE = 'Request headers larger than the server accepts (any route; the ActionConfirmation envelope).';

/** Sends unless the request's deadline answered it already (REQUEST_TIMEOUT_MS: app.setup.ts). */
async function answerOnce(reply: FastifyReply, status: number, body: unknown): Promise<void> {
  if (!reply.sent) await reply.status(status).send(body);
}

type CheckResults = Record<string, { status: string; [detail: string]: unknown }>;

/**
 * The answer names each check and its status only: a failing check's detail (the database's address,
 * its driver's error text) is for the log, never the wire (docs/operations.md, "Health checks").
 */
function statusesOnly(results: CheckResults | undefined): Record<string, { status: string }> {
  return Object.fromEntries(Object.entries(results ?? {}).map(([name, result]) => [name, { status: result.status }]));
}

/** A check's detail for the log, with any credentials in a URL (`//user:password@`) masked. */
const withoutSecrets = (detail: unknown) => JSON.stringify(detail).replace(/\/\/[^/@\s"]*@/g, '//***@');

@ApiTags('Health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly database: HealthRepository,
    private readonly checks: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly readiness: Readiness,
  ) {}

  /** 200 when the database answers within two seconds, 503 otherwise (for load balancers). */
  @Public()
  @SkipThrottle()
  @Get()
  @ApiOperation({ summary: 'Liveness and database reachability' })
  @ApiAnswer(200, 'Up, and the database answers.', {
    type: 'object',
    required: ['status'],
    properties: { status: { type: 'string', enum: ['ok'] } },
  })
  @ApiAnswer(431, 'Request headers larger than the server accepts (any route; the ActionConfirmation envelope).', ref('ActionConfirmation'))
  @ApiAnswer(503, 'The database did not answer within two seconds, or the instance is stopping.', {
    type: 'object',
    required: ['status'],
    properties: { status: { type: 'string', enum: ['unavailable'] } },
  })
  async health(@Res() reply: FastifyReply): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('database probe timed out')), PROBE_TIMEOUT_MS);
    });
    try {
      await Promise.race([this.database.ping(), timeout]);
      await answerOnce(reply, HttpStatus.OK, { status: 'ok' });
    } catch {
      await answerOnce(reply, HttpStatus.SERVICE_UNAVAILABLE, { status: 'unavailable' });
    } finally {
      clearTimeout(timer);
    }
  }

  /** 200 while the process runs and answers (a liveness probe: restart it when this fails). Checks nothing else. */
  @Public()
  @SkipThrottle()
  @Get('live')
  @ApiOperation({ summary: 'Liveness: the process answers' })
  @ApiAnswer(200, 'The process answers.', CHECKS)
  @ApiAnswer(431, HEADERS_TOO_LARGE, ref('ActionConfirmation'))
  @ApiAnswer(503, 'The instance has stopped serving (it is closing).', CHECKS)
  async live(@Res() reply: FastifyReply): Promise<void> {
    // Not through terminus: it answers "shutting_down" from its own shutdown hook on, which may run before
    // a drain (webhook attempts) ends, and a live process that drains must not be restarted.
    await answerOnce(reply, HttpStatus.OK, { status: 'ok', info: {}, error: {}, details: {} });
  }

  /**
   * 200 when this instance should get traffic: the database answers within two seconds, the instance
   * is not shutting down, and the schema has every migration it knows; 503 naming what is not.
   */
  @Public()
  @SkipThrottle()
  @Get('ready')
  @ApiOperation({ summary: 'Readiness: database reachable, not shutting down, migrations applied' })
  @ApiAnswer(200, 'Ready: every check is up.', CHECKS)
  @ApiAnswer(431, HEADERS_TOO_LARGE, ref('ActionConfirmation'))
  @ApiAnswer(503, 'Not ready: the checks that are down are named under error.', CHECKS)
  async ready(@Res() reply: FastifyReply): Promise<void> {
    await this.answer(reply, [
      () =>
        this.indicators
          .check('database')
          .attempt(() => this.database.ping())
          .withTimeout(PROBE_TIMEOUT_MS),
      () =>
        this.readiness.shuttingDown ? this.indicators.check('shutdown').down('shutting down') : this.indicators.check('shutdown').up(),
      () =>
        this.indicators
          .check('migrations')
          .attempt(async () => {
            const pending = await this.readiness.pendingMigrations();
            if (pending.length) throw new Error(`${pending.length} migrations pending, the first ${pending[0]}`);
            return {};
          })
          .withTimeout(PROBE_TIMEOUT_MS),
    ]);
  }

  /** Terminus's answer as it is (503 with every check's status), not the API's error envelope. */
  private async answer(reply: FastifyReply, checks: HealthIndicatorFunction[]): Promise<void> {
    try {
      await answerOnce(reply, HttpStatus.OK, await this.checks.check(checks));
    } catch (error) {
      if (!(error instanceof ServiceUnavailableException)) throw error;
      const answer = error.getResponse() as { status: string; info?: CheckResults; error?: CheckResults; details?: CheckResults };
      for (const [name, detail] of Object.entries(answer.error ?? {}))
        reply.log.warn({ check: name, detail: withoutSecrets(detail) }, 'a readiness check is down');
      await answerOnce(reply, HttpStatus.SERVICE_UNAVAILABLE, {
        status: answer.status,
        info: statusesOnly(answer.info),
        error: statusesOnly(answer.error),
        details: statusesOnly(answer.details),
      });
    }
  }
}

import { Controller, Get, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { SkipThrottle } from '@nestjs/throttler';
import type { FastifyReply } from 'fastify';
import { Public } from '../platform/access.js';
import { Metrics } from './metrics.js';

/**
 * GET /metrics on PORT, only when METRICS_ENABLED=true and no METRICS_PORT is set (ObservabilityModule).
 * Public (Prometheus sends no credentials): it holds counts and timings, never a secret, a record or a
 * user; keep it from the Internet at the load balancer (deploy/nginx.conf refuses it).
 */
@ApiExcludeController()
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: Metrics) {}

  @Public()
  @SkipThrottle()
  @Get()
  async scrape(@Res() reply: FastifyReply): Promise<void> {
    const { contentType, body } = await this.metrics.exposition();
    await reply.header('Content-Type', contentType).send(body);
  }
}

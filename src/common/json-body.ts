import { createParamDecorator, HttpStatus, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { failureConfirmation } from './envelopes.js';
import { WireResponseException } from './errors.js';

/** A record body: JSON only. Anything else is 415 and nothing is written (contract §1.2). */
export const JsonBody = createParamDecorator((_: unknown, context: ExecutionContext): unknown => {
  const request = context.switchToHttp().getRequest<FastifyRequest>();
  const type = String(request.headers['content-type'] ?? '').toLowerCase();
  if (!/^application\/([\w.+-]+\+)?json\b/.test(type)) {
    throw new WireResponseException(failureConfirmation(415, 'The request body must be JSON (application/json).'), HttpStatus.UNSUPPORTED_MEDIA_TYPE);
  }
  return request.body;
});

import { createParamDecorator, HttpStatus, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { AnyClass } from '../records/columns.js';
import { failureConfirmation } from '../records/envelopes.js';
import { WireResponseException } from '../records/errors.js';
import { formToRecordBody } from './form-body.js';

const FORM = /^application\/x-www-form-urlencoded\b/;

/** The request's body: JSON, or a form converted by `dto`; anything else is 415. */
export function recordBody(dto: AnyClass | undefined, request: FastifyRequest): unknown {
  const type = String(request.headers['content-type'] ?? '').toLowerCase();
  if (dto && FORM.test(type) && request.body !== null && typeof request.body === 'object') {
    return formToRecordBody(request.body as Record<string, string | string[]>, dto);
  }
  if (!/^application\/([\w.+-]+\+)?json\b/.test(type)) {
    throw new WireResponseException(
      failureConfirmation(415, 'The request body must be JSON (application/json) or form-encoded (application/x-www-form-urlencoded).'),
      HttpStatus.UNSUPPORTED_MEDIA_TYPE,
    );
  }
  return request.body;
}

/**
 * A record body on a hand-written route (the record router calls `recordBody` itself): JSON, or
 * form-encoded fields converted to what the same JSON body would hold (by the DTO given as the
 * decorator's argument). Anything else is 415 and nothing is written. A pipe (record-body.pipe.ts)
 * then makes it the DTO.
 */
export const JsonBody = createParamDecorator((dto: AnyClass | undefined, context: ExecutionContext): unknown =>
  recordBody(dto, context.switchToHttp().getRequest<FastifyRequest>()),
);

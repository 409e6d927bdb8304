import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { from, type Observable } from 'rxjs';
import { Idempotency } from './idempotency/idempotency.js';
import type { Principal } from './principal.js';
import { WriteScope } from './write-scope.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The write scope of a POST, PUT or DELETE (see write-scope.ts); null for reads. */
    writeScope: WriteScope | null;
  }
}

const WRITES = new Set(['POST', 'PUT', 'DELETE', 'PATCH']);

/**
 * Every write request gets a WriteScope, carried to the record machinery on its principal: the
 * answer deadline rolls its work back, a POST's Idempotency-Key is claimed and answered here, and
 * the ETag of the written record goes out with the answer. Reads pass straight through.
 */
@Injectable()
export class WriteInterceptor implements NestInterceptor {
  constructor(private readonly idempotency: Idempotency) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<FastifyRequest & { user?: Principal }>();
    if (!WRITES.has(request.method)) return next.handle();
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    const scope = new WriteScope();
    request.writeScope = scope;
    // Answered 503 already (the deadline passed during authentication): nothing may be written.
    if (reply.sent) scope.expire();
    if (request.user) request.user = { ...request.user, write: scope };
    const ifMatch = request.headers['if-match'];
    if (typeof ifMatch === 'string' && request.method !== 'POST') scope.ifMatch = ifMatch;
    return from(this.idempotency.run(request, reply, scope, () => this.handle(next, reply, scope)));
  }

  private async handle(next: CallHandler, reply: FastifyReply, scope: WriteScope): Promise<unknown> {
    const result = await new Promise<unknown>((resolve, reject) => {
      let value: unknown;
      next.handle().subscribe({ next: (v: unknown) => (value = v), error: reject, complete: () => resolve(value) });
    });
    if (scope.etag) void reply.header('ETag', scope.etag);
    return result;
  }
}

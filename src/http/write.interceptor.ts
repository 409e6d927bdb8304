import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { from, lastValueFrom, type Observable } from 'rxjs';
import { Database } from '../persistence/database.js';
import { Idempotency } from './idempotency/idempotency.js';
import type { Principal } from '../platform/principal.js';
import { WriteScope } from '../persistence/write-scope.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The write scope of a POST, PUT or DELETE (see write-scope.ts); null for reads. */
    writeScope: WriteScope | null;
  }
}

const WRITES = new Set(['POST', 'PUT', 'DELETE', 'PATCH']);

/**
 * Runs a write request's work in its WriteScope, which `work` is given to pass on to the record machinery:
 * the answer deadline rolls the work back, a POST's Idempotency-Key is claimed and answered here, and
 * the ETag of the written record goes out with the answer. Used by the interceptor below and by the
 * record router (record-router.ts), so both run writes the same way.
 *
 * On a Galera node the write first waits until the node has applied what the cluster committed before
 * the request (Database.catchUp): a client that wrote through one node and writes next through another
 * (a payment of the invoice it just made) is checked against its own writes, by every read of the
 * request, not only those inside its transaction (docs/architecture.md, "The database").
 */
export async function runWrite(
  idempotency: Idempotency,
  db: Database,
  request: FastifyRequest & { user?: Principal },
  reply: FastifyReply,
  work: (scope: WriteScope) => Promise<unknown>,
): Promise<unknown> {
  const scope = new WriteScope(request.id);
  request.writeScope = scope;
  // Answered 503 already (the deadline passed during authentication): nothing may be written.
  if (reply.sent) scope.expire();
  const ifMatch = request.headers['if-match'];
  if (typeof ifMatch === 'string' && request.method !== 'POST') scope.ifMatch = ifMatch;
  return idempotency.run(request, reply, scope, async () => {
    await db.catchUp();
    const result = await work(scope);
    if (scope.etag) void reply.header('etag', scope.etag); // lower case, as the record router sets it
    return result;
  });
}

/** Every write request that goes through Nest runs in a write scope (runWrite); reads pass straight through. */
@Injectable()
export class WriteInterceptor implements NestInterceptor {
  constructor(
    private readonly idempotency: Idempotency,
    private readonly db: Database,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<FastifyRequest & { user?: Principal }>();
    if (!WRITES.has(request.method)) return next.handle();
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    return from(runWrite(this.idempotency, this.db, request, reply, () => lastValueFrom(next.handle(), { defaultValue: undefined })));
  }
}

import { AsyncLocalStorage } from 'node:async_hooks';
import type { WriteScope } from './write-scope.js';

/**
 * What a write request carries to the work it starts besides who is acting: its write scope (deadline,
 * Idempotency-Key, If-Match, the ETag to answer) and its request id, which the change log records.
 * Set around a write's work by `runWrite` (write.interceptor.ts), for the record router and the Nest
 * routes alike, and read where it is needed (the write flow, the change log, a billing run); the
 * identity (`Principal`) says only who acts. Why an AsyncLocalStorage: docs/architecture.md §1.
 */
export interface RequestContext {
  readonly requestId: string;
  readonly write: WriteScope;
}

const context = new AsyncLocalStorage<RequestContext>();

/** Runs a write's work with its context. */
export const runInRequestContext = <T>(requestContext: RequestContext, work: () => T): T => context.run(requestContext, work);

/** The write scope of the write request being handled; undefined outside one (reads, scheduled work). */
export const currentWrite = (): WriteScope | undefined => context.getStore()?.write;

/** The id of the write request being handled (X-Request-Id); undefined outside one. */
export const currentRequestId = (): string | undefined => context.getStore()?.requestId;

import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * When the request being handled is answered 503 at the latest (its REQUEST_TIMEOUT_MS deadline, as a
 * Date.now() time), set around each request by the `onRequest` hook (app.setup.ts). The database layer
 * bounds a read by it: on MariaDB a SELECT outside a transaction runs with `max_statement_time`, so a
 * query still running when its 503 goes out is stopped in the database (docs/api.md §1). Where the
 * context is lost (a body read on the socket's own events), the whole REQUEST_TIMEOUT_MS bounds it.
 */
export const requestDeadline = new AsyncLocalStorage<number>();

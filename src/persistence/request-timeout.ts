/**
 * A request still unanswered when its time (REQUEST_TIMEOUT_MS) is up: answered 503 by the HTTP
 * filter. It lives here, below the HTTP layer, because the database raises it too (a read whose
 * deadline passed while it waited for a connection, a write refused after its deadline: docs/api.md §1).
 */
export class RequestTimeoutError extends Error {
  constructor() {
    super('The request was not answered in time.');
  }
}

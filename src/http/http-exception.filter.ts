import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { ArgumentsHost, Catch, HttpException, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '../persistence/database-errors.js';
import { RequestTimeoutError } from '../persistence/request-timeout.js';
import { failureConfirmation } from '../records/envelopes.js';
import { RecordNotFoundException, WireResponseException } from '../records/errors.js';
import { ClientBusyError, ServiceBusyError } from '../platform/fair-queue.js';
import { countUnavailable, databaseReason } from '../platform/unavailable-log.js';

export const UNAUTHORIZED_BODY = { Message: 'Authorization has been denied for this request.' };
export const WWW_AUTHENTICATE = 'Bearer realm="api", Basic realm="api", charset="UTF-8"';

interface ErrorResponse {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** The body's exact text, when the answer was prepared already. */
  text?: string;
}

/** An answer already in its wire form, sent byte for byte (an idempotent request's replay). */
export class PreparedAnswer extends Error {
  constructor(
    readonly status: number,
    readonly text: string,
    readonly headers: Record<string, string>,
  ) {
    super('A prepared answer');
  }
}

/** Errors Fastify raises before a route runs (body parsing), by their code. */
const FASTIFY_ERRORS: Record<string, { status: number; message: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, message: 'The request body is larger than 1 MiB.' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, message: 'The request body must be JSON (application/json).' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, message: 'The request body is empty; a JSON object is expected.' },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, message: 'The request body is not valid JSON.' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, message: 'The Content-Length header does not match the body.' },
};

// RequestTimeoutError lives with the database, which raises it too (src/persistence/request-timeout.ts).
export { RequestTimeoutError };

export const UNAVAILABLE_MESSAGE = 'The service is temporarily unavailable; try again later.';
const UNAVAILABLE: ErrorResponse = { status: 503, body: failureConfirmation(503, UNAVAILABLE_MESSAGE), headers: { 'Retry-After': '5' } };
const BUSY: ErrorResponse = { status: 503, body: failureConfirmation(503, UNAVAILABLE_MESSAGE), headers: { 'Retry-After': '1' } };
const CLIENT_BUSY: ErrorResponse = {
  status: 429,
  body: failureConfirmation(429, 'Too many requests; try again later.'),
  headers: { 'Retry-After': '1' },
};

/**
 * Turns any error into the contract's body (house style 4). Used by the global filter and by Fastify's
 * own error handler, so errors raised before Nest routes a request get the same bodies.
 */
export function toErrorResponse(error: unknown): ErrorResponse {
  if (error instanceof PreparedAnswer) return { status: error.status, body: null, headers: error.headers, text: error.text };
  // Bodies already in wire form (validation failures and refusals among them) are sent as they are.
  if (error instanceof WireResponseException) {
    return { status: error.getStatus(), body: error.getResponse(), headers: error.headers };
  }
  if (error instanceof RecordNotFoundException) return { status: 404, body: 'Not found' };
  if (error instanceof HttpException) {
    const status: number = error.getStatus();
    if (status === 401 || status === 403) {
      return { status: 401, body: UNAUTHORIZED_BODY, headers: { 'WWW-Authenticate': WWW_AUTHENTICATE } };
    }
    if (status === 404) return { status: 404, body: 'Not found' };
    if (status === 429) return { status, body: failureConfirmation(status, 'Too many requests; try again later.') };
    const response = error.getResponse();
    return { status, body: failureConfirmation(status, typeof response === 'string' ? response : error.message) };
  }
  // The database is down or unreachable, or the request ran out of time: 503, the client may retry.
  if (error instanceof RequestTimeoutError || isDatabaseUnavailable(error)) return UNAVAILABLE;
  if (error instanceof ServiceBusyError) return BUSY;
  if (error instanceof ClientBusyError) return CLIENT_BUSY;
  const code = (error as { code?: string } | null)?.code;
  const known = code ? FASTIFY_ERRORS[code] : undefined;
  if (known) return { status: known.status, body: failureConfirmation(known.status, known.message) };
  if (error instanceof SyntaxError && (error as { statusCode?: number }).statusCode === 400) {
    return { status: 400, body: failureConfirmation(400, 'The request body is not valid JSON.') };
  }
  const statusCode = (error as { statusCode?: number } | null)?.statusCode;
  if (statusCode && statusCode >= 400 && statusCode < 500) {
    return { status: statusCode, body: failureConfirmation(statusCode, 'The request could not be read.') };
  }
  return { status: 500, body: failureConfirmation(500, 'An error has occurred.') };
}

/** Sends an error response, logging unexpected failures with the request id (never on the wire). */
export function sendError(error: unknown, request: FastifyRequest, reply: FastifyReply): void {
  const { status, body, headers, text } = toErrorResponse(error);
  // A 503 (overload, a deadline, the database away) is counted into one line per second, once per
  // answer (not again when the work of a request already answered fails later); any other 5xx is a
  // fault of the service, logged with its request.
  if (status === 503 && !(error instanceof PreparedAnswer)) {
    if (reply.sent) return;
    const reason =
      error instanceof RequestTimeoutError
        ? 'deadline'
        : error instanceof ServiceBusyError || error instanceof HttpException
          ? 'busy'
          : databaseReason(error);
    countUnavailable(request.server, request.server.log, reason, error);
  } else if (status >= 500) request.log.error({ err: error }, 'request failed');
  // The request already had its answer (it timed out, and its work failed later): nothing more to send.
  if (reply.sent) return;
  if (headers) void reply.headers(headers);
  if (text === '') return void reply.status(status).send();
  void reply
    .status(status)
    .header('content-type', 'application/json; charset=utf-8')
    .send(text ?? JSON.stringify(body));
}

/**
 * Requests Node's parser refuses before Fastify sees them (headers over the server's limit, a request
 * that takes too long to arrive, malformed HTTP): answered with the same error envelope, then closed.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'The request headers are larger than the server accepts.']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'The request took too long to arrive.']
        : [400, 'The request could not be read.'];
  const body = JSON.stringify(failureConfirmation(status, message));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/** The one global exception filter (registered as APP_FILTER). */
@Catch()
export class HttpExceptionFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    sendError(exception, http.getRequest<FastifyRequest>(), http.getResponse<FastifyReply>());
  }
}

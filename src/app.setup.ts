import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { StreamableFile } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import type { Logger } from 'pino';
import { RATE_LIMIT_STORAGE, type RedisThrottlerStorage } from './auth/redis-throttler.storage.js';
import { REQUEST_GUARDS } from './app.module.js';
import { parseJsonBody, refuseForeignCharset } from './http/body-limits.js';
import { installRecordRouter } from './http/record-router.js';
import { failureConfirmation } from './records/envelopes.js';
import { deferredChildLogger, logAnswer } from './platform/logging.js';
import { Database } from './persistence/database.js';
import { describeDocument, documentRecordRoutes, recordBasePaths, recordBodies } from './http/openapi-document.js';
import { RecordTypes } from './records/record-types.js';
import { documentSafeWrites } from './http/openapi-safe-writes.js';
import { documentCommands } from './http/openapi-commands.js';
import { RecordCommands } from './records/commands/record-commands.js';
import { installSecurityHeaders } from './http/http-headers.js';
import { AnswerDeadlines, type Deadline } from './platform/answer-deadlines.js';
import { answerClientError, RequestTimeoutError, sendError, UNAVAILABLE_MESSAGE } from './http/http-exception.filter.js';
import type { AppConfig } from './config/configuration.js';
import { Metrics } from './observability/metrics.js';

export const BODY_LIMIT = 1024 * 1024;
const CLIENT_REQUEST_ID = /^[\w.:-]{1,128}$/;

/** Trust the nearest `hops` proxies (as proxy-addr counts them). */
const trustHops = (hops: number) => (_address: string, hop: number) => hop < hops;

/**
 * Nest's Fastify adapter, except that a handler's result is dropped when the request was answered
 * already: its deadline's 503 went out while the handler still ran (setupApp). Fastify would log
 * "Reply was already sent" for each such result, which under overload is one warning per late handler.
 */
class AnsweredOnceAdapter extends FastifyAdapter {
  override reply(...[response, body, statusCode]: Parameters<FastifyAdapter['reply']>): ReturnType<FastifyAdapter['reply']> {
    if ('sent' in response && response.sent) {
      if (body instanceof StreamableFile) body.getStream().destroy();
      return response;
    }
    return super.reply(response, body, statusCode);
  }
}

/** Fastify as the service runs it, in production and in tests alike. */
export function createFastifyAdapter(config: Pick<AppConfig, 'REQUEST_TIMEOUT_MS' | 'TRUST_PROXY'>, logger: Logger): FastifyAdapter {
  return new AnsweredOnceAdapter({
    loggerInstance: logger,
    // No Nest middleware here, so no @fastify/middie: it ran on every request (about a twentieth of
    // a read's CPU) to find none. A module that needs middleware has to register middie first.
    skipMiddie: true,
    childLoggerFactory: deferredChildLogger,
    // Fastify's own request logging writes two lines per request, each with a child logger's bindings;
    // setupApp writes one line per answer instead (docs/architecture.md §1, "Request log").
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT,
    // A client's X-Request-Id is kept when it is a plain token (it reaches the logs), else one is made.
    requestIdHeader: false,
    genReqId: (request: IncomingMessage) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && CLIENT_REQUEST_ID.test(given) ? given : randomUUID();
    },
    routerOptions: { ignoreTrailingSlash: true },
    // Requests Node refuses before Fastify (headers over its limit: 431) get the error envelope too.
    clientErrorHandler: answerClientError,
    onProtoPoisoning: 'remove',
    onConstructorPoisoning: 'remove',
    // Receiving a request may take this long; answering it, REQUEST_TIMEOUT_MS (setupApp's deadline).
    requestTimeout: config.REQUEST_TIMEOUT_MS * 2,
    // Requests that arrive while closing are answered by setupApp's hook, in the contract's 503 body.
    return503OnClosing: false,
    // The client address (rate limits, logs) is X-Forwarded-For's only behind a trusted proxy.
    trustProxy: typeof config.TRUST_PROXY === 'number' ? trustHops(config.TRUST_PROXY) : config.TRUST_PROXY,
  });
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The deadline that answers 503 when the request is still unanswered at REQUEST_TIMEOUT_MS. */
    answerDeadline: Deadline<Unanswered> | null;
    /** When that is (a Date.now() time): on MariaDB the request's reads are stopped by the database then. */
    deadlineAt: number;
  }
}

/** A request waiting for its answer, and what its deadline must do. */
interface Unanswered {
  request: FastifyRequest;
  reply: FastifyReply;
  /** The second period: the database did not answer the interruption of the request's write. */
  lastResort: boolean;
}

function answerTimedOut(deadlines: AnswerDeadlines<Unanswered>, { request, reply, lastResort }: Unanswered): void {
  // A write whose database work is in flight is interrupted and rolled back first, and its failure
  // is the 503 (or it was committing, and its own answer goes out). Should the database not even
  // answer the interruption, the 503 goes out after another period all the same.
  if (!lastResort && request.writeScope?.expire()) {
    request.answerDeadline = deadlines.start({ request, reply, lastResort: true });
    return;
  }
  request.answerDeadline = null;
  if (!reply.sent) sendError(new RequestTimeoutError(), request, reply);
}

/** What Nest's module system cannot declare: Fastify hooks, extra body parsers and the API documents. */
export async function setupApp(app: NestFastifyApplication): Promise<void> {
  const fastify = app.getHttpAdapter().getInstance();
  const config = app.get(ConfigService<AppConfig, true>);
  // Helmet's headers and no-store on every answer, and CORS for CORS_ORIGINS (before any route is added).
  await installSecurityHeaders(app, { CORS_ORIGINS: config.get('CORS_ORIGINS', { infer: true }) });
  // Requests by route template, status and time, when metrics are on (docs/operations.md, "Metrics").
  app.get(Metrics).instrument(fastify);
  const redisStorage = app.get<typeof RATE_LIMIT_STORAGE, RedisThrottlerStorage | null>(RATE_LIMIT_STORAGE, { strict: false });
  if (redisStorage) app.get(Metrics).watchRateLimitStorage(() => redisStorage.usingRedis);
  // Once the server is closing (SIGTERM) it no longer listens; a request that still arrives on a
  // kept-alive connection is answered 503 (a load balancer retries it elsewhere), and every answer
  // closes its connection behind it, so idle connections do not hold the shutdown open.
  // (Callback-style hooks: they run on every request, and cost less than async ones.)
  let closing = false;
  fastify.addHook('preClose', async () => {
    closing = true;
  });
  // No request waits longer than REQUEST_TIMEOUT_MS for its answer: past it the client gets the 503
  // envelope (a database that stops answering fails requests instead of hanging them). One deadline per
  // request on one list with one timer (answer-deadlines.ts), left when the answer goes out; Fastify's
  // handlerTimeout does the same with a timer per request, and also makes
  // an AbortController per request and aborts it (building a DOMException) as each request closes,
  // which cost 3-5% of the CPU of a request. No handler here listens to request.signal.
  const timeoutMs = config.get('REQUEST_TIMEOUT_MS', { infer: true });
  app.get(Database).readTimeoutMs = timeoutMs;
  fastify.decorateRequest('answerDeadline', null);
  fastify.decorateRequest('deadlineAt', 0);
  fastify.decorateRequest('writeScope', null);
  const deadlines: AnswerDeadlines<Unanswered> = new AnswerDeadlines(timeoutMs, (unanswered) => answerTimedOut(deadlines, unanswered));
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    if (!closing) {
      request.answerDeadline = deadlines.start({ request, reply, lastResort: false });
      // Its reads are bounded by the deadline, passed to them explicitly (the record router's `run`).
      request.deadlineAt = Date.now() + timeoutMs;
      return done();
    }
    const body = request.url.startsWith('/health') ? { status: 'unavailable' } : failureConfirmation(503, UNAVAILABLE_MESSAGE);
    void reply.status(503).header('Connection', 'close').header('Retry-After', '5').send(body);
  });
  fastify.addHook('onSend', (request, reply, payload, done) => {
    deadlines.cancel(request.answerDeadline);
    if (closing) void reply.header('Connection', 'close');
    done(null, payload);
  });
  fastify.addHook('onResponse', logAnswer(fastify.log as Logger));
  // Other content types reach the routes as text, so the token endpoint can answer its own error
  // and record routes refuse them with 415 (recordBody) instead of Fastify answering first.
  // A body in another charset than UTF-8 would be read garbled: 415, whatever its type.
  fastify.addContentTypeParser('*', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (request, body, done) => {
    try {
      refuseForeignCharset(request.headers['content-type']);
      done(null, body);
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  // JSON bodies are bounded in depth and size before they are parsed (docs/api.md §11.2).
  const adapter = app.getHttpAdapter() as FastifyAdapter;
  adapter.useBodyParser(
    'application/json',
    false,
    { bodyLimit: BODY_LIMIT },
    (request: FastifyRequest, body: Buffer, done: (error: Error | null, body?: unknown) => void) => {
      done(null, parseJsonBody(body.toString('utf8'), request.headers['content-type']));
    },
  );

  // Every record route, served by the one record router with the guards of app.module.ts.
  const recordRoutes = installRecordRouter(app, REQUEST_GUARDS);

  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Coworking API')
      .setDescription('Billing, content and the token service of a coworking platform.')
      .setVersion('1')
      // package.json grants no licence ("private"): UNLICENSED in npm's sense, which its documentation explains.
      .setLicense('UNLICENSED', 'https://docs.npmjs.com/cli/configuring-npm/package-json#license')
      .addBearerAuth()
      .addBasicAuth()
      .build(),
    // The record types' bodies, which their routes' operations refer to (documentRecordRoutes).
    { extraModels: recordBodies(recordRoutes) },
  );
  documentRecordRoutes(document, recordRoutes);
  describeDocument(document, app.get(Database), app.get(RecordTypes).definitions());
  documentSafeWrites(document, recordBasePaths(recordRoutes));
  SwaggerModule.setup('api/docs', app, document, {
    jsonDocumentUrl: 'api/docs-json',
    // The token given to "Authorize" stays in the page's memory, never in localStorage.
    swaggerOptions: { persistAuthorization: false, validatorUrl: null },
  });
  await app.init();
  // The modules register their commands as they start (onModuleInit); the document served is this object.
  documentCommands(document, app.get(RecordCommands, { strict: false }));
}

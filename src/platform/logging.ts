import type { LoggerService } from '@nestjs/common';
import { pino, type Bindings, type DestinationStream, type ChildLoggerOptions, type Level, type Logger } from 'pino';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '../config/configuration.js';

/**
 * The process's one pino logger (JSON lines). Fastify uses it for request logs, with the request id
 * on every line; secrets in headers and bodies are redacted wherever they would appear.
 */
export function createLogger(config: Pick<AppConfig, 'LOG_LEVEL'>, destination?: DestinationStream): Logger {
  return pino(
    {
      level: config.LOG_LEVEL,
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          '*.password',
          '*.Password',
          '*.refresh_token',
          '*.TwoFactorSecret',
          '*.totp',
          '*.Secret',
        ],
        censor: '[redacted]',
      },
      serializers: { err: safeError, error: safeError },
    },
    destination,
  );
}

/** A quoted value in a database message, unless it names a column, key, table or constraint. */
const QUOTED_VALUE = /(\b(?:column|key|table|constraint|database|index|function|procedure|for)\s+)?'(?:[^'\\]|\\.|'')*'/gi;

/** A database message without the values it quotes ("Duplicate entry '…' for key 'UQ_user_EmailKey'"). */
export function withoutValues(message: string): string {
  return message.replace(QUOTED_VALUE, (quoted, name: string | undefined) => (name ? quoted : "'…'"));
}

/**
 * Errors as log lines: type, message, stack, codes and cause, and for a failed query its parameterised
 * SQL text only. Database errors carry the statement's parameter values (TypeORM's `parameters`, the
 * MySQL driver's `sql` with the values written in, and values quoted in some messages), which may be
 * passwords' hashes or two-factor secrets: none of that is written.
 */
export function safeError(error: unknown, depth = 0): unknown {
  if (!(error instanceof Error) || depth > 3) return error instanceof Error ? { type: error.name } : error;
  const e = error as Error & {
    code?: unknown;
    errno?: unknown;
    sqlState?: unknown;
    query?: unknown;
    driverError?: unknown;
    sqlMessage?: unknown;
    cause?: unknown;
  };
  const fromDatabase =
    'driverError' in e || 'sqlMessage' in e || 'sqlState' in e || (typeof e.code === 'string' && e.code.startsWith('SQLITE_'));
  const clean = (text: string | undefined) => (text === undefined ? undefined : fromDatabase ? withoutValues(text) : text);
  const driver = e.driverError as { code?: unknown; errno?: unknown } | undefined;
  return {
    type: e.name,
    message: clean(e.message),
    stack: clean(e.stack),
    code: e.code ?? driver?.code,
    errno: e.errno ?? driver?.errno,
    sqlState: e.sqlState,
    // The statement as written, with its placeholders (values are always bound, never spliced).
    query: typeof e.query === 'string' ? e.query : undefined,
    cause: e.cause === undefined ? undefined : safeError(e.cause, depth + 1),
  };
}

/**
 * Nest's start-up lines of every module, controller and route ("Mapped {/api/…, GET} route"): a few
 * hundred lines that say nothing an operator needs, so they are written at debug.
 */
const START_UP_DETAIL = new Set(['RouterExplorer', 'RoutesResolver', 'InstanceLoader']);

/** Nest's own log lines (start-up, shutdown) through the same pino logger. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}
  log(message: unknown, context?: string) {
    if (context !== undefined && START_UP_DETAIL.has(context)) this.logger.debug({ context }, String(message));
    else this.logger.info({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string) {
    this.logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string) {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string) {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string) {
    this.logger.trace({ context }, String(message));
  }
  fatal(message: unknown, context?: string) {
    this.logger.fatal({ context }, String(message));
  }
}

/**
 * Fastify's child logger per request (the request id on every line), made only when the request
 * writes a line. Fastify makes one for every request, and a pino child (bindings serialised, redaction
 * set up) cost more per request than the rate limit; most requests write nothing at warn level.
 */
export function deferredChildLogger(parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  // A route with its own level needs the real child to know what is enabled.
  if (options.level) return parent.child(bindings, options);
  return new DeferredChildLogger(parent as Logger, bindings, options);
}

class DeferredChildLogger {
  private made: Logger | undefined;

  constructor(
    private readonly parent: Logger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  private get logger(): Logger {
    return (this.made ??= this.parent.child(this.bindings, this.options));
  }

  get level(): string {
    return (this.made ?? this.parent).level;
  }

  set level(level: string) {
    this.logger.level = level;
  }

  isLevelEnabled(level: string): boolean {
    return (this.made ?? this.parent).isLevelEnabled(level);
  }

  fatal(...line: unknown[]): void {
    this.write('fatal', line);
  }
  error(...line: unknown[]): void {
    this.write('error', line);
  }
  warn(...line: unknown[]): void {
    this.write('warn', line);
  }
  info(...line: unknown[]): void {
    this.write('info', line);
  }
  debug(...line: unknown[]): void {
    this.write('debug', line);
  }
  trace(...line: unknown[]): void {
    this.write('trace', line);
  }
  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): Logger {
    return this.logger.child(bindings, options);
  }

  private write(level: Level, line: unknown[]): void {
    // pino's log methods take (object?, message?, ...interpolation values).
    if (this.isLevelEnabled(level)) this.logger[level](...(line as [unknown, string?, ...unknown[]]));
  }
}

/**
 * The request log: one line per answer, written by an onResponse hook, with the fields an operator
 * reads (request id, method, route, status, milliseconds). The route is the template
 * (`/api/billing/products/:id`), not the URL, so no query value (a filter, a download token) is
 * logged; a request no route matched logs its path without the query.
 */
export function logAnswer(logger: Logger): (request: FastifyRequest, reply: FastifyReply, done: () => void) => void {
  return (request, reply, done) => {
    if (logger.isLevelEnabled('info')) {
      const route = request.routeOptions.url ?? request.url.split('?', 1)[0];
      logger.info(
        { reqId: request.id, method: request.method, route, status: reply.statusCode, ms: Math.round(reply.elapsedTime * 10) / 10 },
        'answered',
      );
    }
    done();
  };
}

/**
 * Where log lines go when the service runs: standard output, written asynchronously (lines that
 * arrive while a write is under way go out together with the next one), so a request never waits on
 * the terminal or pipe; whatever is still buffered is written out when the process exits.
 */
export function asyncStdout(): DestinationStream {
  const destination = pino.destination({ dest: 1, sync: false });
  process.once('exit', () => {
    try {
      destination.flushSync();
    } catch {
      // Not open yet, or standard output is gone: nothing more can be written.
    }
  });
  return destination;
}

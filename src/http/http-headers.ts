import type { IncomingMessage, ServerResponse } from 'node:http';
import cors from '@fastify/cors';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import helmet, { type HelmetOptions } from 'helmet';
import type { AppConfig } from '../config/configuration.js';

// Security headers (helmet) and CORS for every answer (docs/operations.md, "Security headers and CORS").

/** The browsable API documentation (Swagger UI) and its assets; /api/docs-json is a plain JSON answer. */
export const isDocsPage = (url: string): boolean => url === '/api/docs' || url.startsWith('/api/docs/') || url.startsWith('/api/docs?');

/** JSON answers load nothing and are framed by no page. */
const API_CSP = {
  useDefaults: false,
  directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"], formAction: ["'none'"] },
};

/**
 * Swagger UI: its scripts, styles and images come from this server (no inline script: @nestjs/swagger
 * serves its start-up code as swagger-ui-init.js), inline styles are its own, and "Try it out" calls
 * this origin only.
 */
const DOCS_CSP = {
  useDefaults: false,
  directives: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:'],
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  },
};

/** Headers a browser may send cross-origin, and those its scripts may read from an answer. */
const ALLOWED_HEADERS = [
  'Authorization',
  'Content-Type',
  'Accept',
  'Idempotency-Key',
  'If-Match',
  'If-None-Match',
  'X-Request-Id',
  'client_id',
];
const EXPOSED_HEADERS = [
  'ETag',
  'Retry-After',
  'X-Request-Id',
  'Idempotent-Replayed',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
];

/**
 * The headers helmet sets with these options, worked out once: they depend on nothing in the request.
 * (@fastify/helmet runs helmet's middleware chain from an async hook on every request, which cost
 * about a third of a record read's throughput; setting the same headers from a plain hook costs little.)
 */
export function helmetHeaders(options: Readonly<HelmetOptions>): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: unknown) => void (headers[name] = String(value)),
    removeHeader: (name: string) => void delete headers[name],
    getHeader: (name: string) => headers[name],
  };
  let failed: unknown;
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => (failed = error));
  if (failed) throw failed instanceof Error ? failed : new Error(String(failed));
  return headers;
}

/**
 * Headers named in lower case, as Fastify keeps and sends them: `reply.header` lowercases every name it
 * is given, and a name that changes makes a new string on each request, which V8 then looks up in its
 * string table to use as a key (about 1% of a record read's CPU for these thirteen).
 */
const lowerCaseNames = (headers: Readonly<Record<string, string>>): Record<string, string> =>
  Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));

const HELMET_OPTIONS: HelmetOptions = { frameguard: { action: 'deny' } };
const API_HEADERS = lowerCaseNames({
  ...helmetHeaders({ ...HELMET_OPTIONS, contentSecurityPolicy: API_CSP }),
  'Cache-Control': 'no-store',
});
const DOCS_HEADERS = lowerCaseNames(helmetHeaders({ ...HELMET_OPTIONS, contentSecurityPolicy: DOCS_CSP }));

/**
 * Sets helmet's headers on every answer (X-Content-Type-Options: nosniff, a Content-Security-Policy,
 * frame and referrer policies…) and Cache-Control: no-store on every answer but the documentation's
 * (records and tokens are never cached: docs/api.md §1); and, when CORS_ORIGINS lists origins, CORS
 * for exactly those: a request or preflight from any other origin gets no CORS header at all. Must run
 * before any other onRequest hook, so early answers (a preflight) carry the headers too.
 */
export async function installSecurityHeaders(app: NestFastifyApplication, config: Pick<AppConfig, 'CORS_ORIGINS'>): Promise<void> {
  const fastify = app.getHttpAdapter().getInstance();
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.headers(isDocsPage(request.url) ? DOCS_HEADERS : API_HEADERS);
    done();
  });
  if (!config.CORS_ORIGINS.length) return;
  const allowed = new Set(config.CORS_ORIGINS);
  await app.register(cors, {
    origin: (origin: string | undefined, done: (error: Error | null, allow: string | false) => void) =>
      done(null, origin !== undefined && allowed.has(origin) ? origin : false),
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ALLOWED_HEADERS,
    exposedHeaders: EXPOSED_HEADERS,
    credentials: false,
    maxAge: 600,
    strictPreflight: true,
  });
}

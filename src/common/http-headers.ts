import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
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
const ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'Accept', 'Idempotency-Key', 'If-Match', 'If-None-Match', 'X-Request-Id', 'client_id'];
const EXPOSED_HEADERS = ['ETag', 'Retry-After', 'X-Request-Id', 'Idempotent-Replayed', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];

/**
 * Registers helmet (every answer: X-Content-Type-Options: nosniff, a Content-Security-Policy, frame and
 * referrer policies…) and, when CORS_ORIGINS lists origins, CORS for exactly those: a request or
 * preflight from any other origin gets no CORS header at all. Must run before the routes are added.
 */
export async function installSecurityHeaders(app: NestFastifyApplication, config: Pick<AppConfig, 'CORS_ORIGINS'>): Promise<void> {
  const fastify = app.getHttpAdapter().getInstance();
  // The documentation's routes (added later by @nestjs/swagger) get the policy that lets Swagger UI run.
  fastify.addHook('onRoute', (route) => {
    if (isDocsPage(route.url)) route.config = Object.assign(route.config ?? {}, { helmet: { contentSecurityPolicy: DOCS_CSP } });
  });
  await app.register(helmet, { global: true, contentSecurityPolicy: API_CSP, frameguard: { action: 'deny' } });
  if (!config.CORS_ORIGINS.length) return;
  const allowed = new Set(config.CORS_ORIGINS);
  await app.register(cors, {
    origin: (origin: string | undefined, done: (error: Error | null, allow: string | false) => void) => done(null, origin !== undefined && allowed.has(origin) ? origin : false),
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ALLOWED_HEADERS,
    exposedHeaders: EXPOSED_HEADERS,
    credentials: false,
    maxAge: 600,
    strictPreflight: true,
  });
}

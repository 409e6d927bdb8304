import { createServer, type Server } from 'node:http';
import { once } from 'node:events';
import { Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { Database } from '../persistence/database.js';
import type { AppConfig } from '../config/configuration.js';

// Prometheus metrics (docs/operations.md, "Metrics"): off unless METRICS_ENABLED=true or METRICS_PORT
// is set. Each application has a registry of its own (tests run several in one process). Labels hold
// route templates, methods, status codes and fixed words only: never a path with ids, a user or a value.

/** What the webhook outbox holds, read when metrics are scraped. */
export interface WebhookOutboxState {
  pending: number;
  oldestPendingSeconds: number;
  failed: number;
}

/** The route label of requests that matched no route (so unknown paths do not each make a series). */
export const UNMATCHED_ROUTE = '(unmatched)';

@Injectable()
export class Metrics implements OnApplicationBootstrap, BeforeApplicationShutdown {
  readonly enabled: boolean;
  readonly registry = new Registry();
  private readonly logger = new Logger('Metrics');
  private readonly port: number | undefined;
  private readonly host: string;
  private server: Server | undefined;
  private webhookOutbox: (() => Promise<WebhookOutboxState>) | undefined;
  private rateLimitInRedis: (() => boolean) | undefined;

  readonly httpRequests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route template and status code.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });

  readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from receiving a request to sending its answer, by method, route template and status code.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  readonly rateLimited = new Counter({
    name: 'coworking_rate_limited_total',
    help: 'Requests refused with 429 by the rate limit, by limit (token: /api/token; api: everything else).',
    labelNames: ['limit'] as const,
    registers: [this.registry],
  });

  readonly webhookAttempts = new Counter({
    name: 'coworking_webhook_attempts_total',
    help: 'Webhook delivery attempts made by this instance, by outcome (succeeded, failed: answered non-2xx or not at all).',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  /**
   * For the billing run: set it to the seconds between when the run was due and now while runs are
   * behind, and to 0 when the run has caught up. Never set: no billing run in this instance.
   */
  readonly billingRunLag = new Gauge({
    name: 'coworking_billing_run_lag_seconds',
    help: 'How far the billing run is behind its schedule, in seconds (0: up to date).',
    registers: [this.registry],
  });

  /** Billing runs of one business (docs/billing.md, "Runs"), by trigger: started, then finished or failed. */
  readonly billingRunsStarted = this.runCounter(
    'coworking_billing_runs_started_total',
    'Billing runs of one business begun by this instance, by trigger (Manual, Automatic). Started minus finished minus failed is what is running — or stalled.',
  );
  readonly billingRunsFinished = this.runCounter(
    'coworking_billing_runs_finished_total',
    'Billing runs of one business that ended, by trigger (customers that could not be billed are in coworking_billing_run_customer_errors_total).',
  );
  readonly billingRunsFailed = this.runCounter(
    'coworking_billing_runs_failed_total',
    "Billing runs of one business stopped by an unexpected error or the request's deadline, by trigger.",
  );
  readonly billingRunInvoices = this.runCounter('coworking_billing_run_invoices_total', 'Invoices made by billing runs, by trigger.');
  readonly billingRunLines = this.runCounter('coworking_billing_run_lines_total', 'Invoice lines made by billing runs, by trigger.');
  readonly billingRunCustomerErrors = this.runCounter(
    'coworking_billing_run_customer_errors_total',
    "Customers a billing run could not bill (an entry in the run's Errors), by trigger.",
  );
  readonly billingRunDuration = new Histogram({
    name: 'coworking_billing_run_duration_seconds',
    help: 'How long a billing run of one business took, by trigger.',
    labelNames: ['trigger'] as const,
    buckets: [0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600],
    registers: [this.registry],
  });

  /** Invoice prints (docs/settlement.md): PDFs and zips, from the queue to the bytes. */
  readonly prints = new Counter({
    name: 'coworking_prints_total',
    help: 'Prints (one PDF, or a zip of several) by outcome: made, failed (the PDF process failed or stopped), dropped (nobody waited any more).',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly printDuration = new Histogram({
    name: 'coworking_print_duration_seconds',
    help: 'Time from a print being queued to its file made, waiting for its turn included.',
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });

  private printQueue: (() => number) | undefined;

  private runCounter(name: string, help: string): Counter<'trigger'> {
    return new Counter({ name, help, labelNames: ['trigger'] as const, registers: [this.registry] });
  }

  constructor(config: ConfigService<AppConfig, true>, database: Database) {
    this.enabled = config.get('METRICS_ENABLED', { infer: true });
    this.port = config.get('METRICS_PORT', { infer: true });
    this.host = config.get('HOST', { infer: true });
    if (!this.enabled) return;
    collectDefaultMetrics({ register: this.registry });
    if (database.poolUse()) this.watchPool(database);
    const inRedis = () => this.rateLimitInRedis?.();
    new Gauge({
      name: 'coworking_rate_limit_redis',
      help: 'Where rate-limit hits are counted: 1 in Redis, 0 in this process (REDIS_URL set and its circuit breaker open); absent without REDIS_URL.',
      registers: [this.registry],
      collect() {
        const value = inRedis();
        if (value !== undefined) this.set(value ? 1 : 0);
      },
    });
    const printQueue = () => this.printQueue?.();
    new Gauge({
      name: 'coworking_print_steps_waiting',
      help: 'Print steps (one document, or a zip) waiting for the PDF process of this instance.',
      registers: [this.registry],
      collect() {
        this.set(printQueue() ?? 0);
      },
    });
    // The outbox is read once per scrape, for its four gauges together.
    let reading: Promise<WebhookOutboxState | null> | undefined;
    const readOutbox = () =>
      (reading ??= (this.webhookOutbox?.() ?? Promise.resolve(null))
        .catch(() => null)
        .finally(() => setImmediate(() => (reading = undefined))));
    const outboxGauge = (name: string, help: string, value: (state: WebhookOutboxState) => number) =>
      new Gauge({
        name,
        help,
        registers: [this.registry],
        async collect() {
          const state = await readOutbox();
          if (state) this.set(value(state));
        },
      });
    outboxGauge(
      'coworking_webhook_outbox_pending',
      'Webhook deliveries waiting to be sent or retried (all instances).',
      (state) => state.pending,
    );
    outboxGauge(
      'coworking_webhook_outbox_oldest_pending_seconds',
      'Age of the oldest delivery still pending, in seconds (0: none).',
      (state) => state.oldestPendingSeconds,
    );
    outboxGauge(
      'coworking_webhook_deliveries_failed',
      'Deliveries that used up their retries (Status Failed; kept 31 days).',
      (state) => state.failed,
    );
    new Gauge({
      name: 'coworking_webhook_outbox_up',
      help: 'Whether the webhook outbox could be read at this scrape (1) or not (0: the gauges above keep their last values).',
      registers: [this.registry],
      async collect() {
        this.set((await readOutbox()) ? 1 : 0);
      },
    });
  }

  /** The MySQL pool's gauges (SQLite has no pool: none of them). */
  private watchPool(database: Database): void {
    new Gauge({
      name: 'coworking_db_pool_connections',
      help: 'MySQL pool connections of this instance, by state (used, idle); MySQL only.',
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect() {
        const use = database.poolUse();
        if (!use) return;
        this.set({ state: 'used' }, use.open - use.idle);
        this.set({ state: 'idle' }, use.idle);
      },
    });
    new Gauge({
      name: 'coworking_db_pool_max_connections',
      help: 'The most connections the MySQL pool opens (DATABASE_POOL_SIZE); MySQL only.',
      registers: [this.registry],
      collect() {
        const use = database.poolUse();
        if (use) this.set(use.limit);
      },
    });
    new Gauge({
      name: 'coworking_db_pool_waiting_requests',
      help: 'Statements waiting for a free MySQL pool connection; MySQL only.',
      registers: [this.registry],
      collect() {
        const use = database.poolUse();
        if (use) this.set(use.waiting);
      },
    });
  }

  /** The webhooks module tells how to read the outbox's backlog. */
  watchWebhookOutbox(read: () => Promise<WebhookOutboxState>): void {
    this.webhookOutbox = read;
  }

  /** The invoice PDF renderer tells how many print steps wait for its process. */
  watchPrintQueue(size: () => number): void {
    this.printQueue = size;
  }

  /** The rate limiter's Redis storage tells whether it counts in Redis (docs/operations.md, "Redis"). */
  watchRateLimitStorage(inRedis: () => boolean): void {
    this.rateLimitInRedis = inRedis;
  }

  /** Counts every answer by its route template (Fastify's onResponse hook); only when metrics are on. */
  instrument(fastify: FastifyInstance): void {
    if (!this.enabled) return;
    fastify.addHook('onResponse', (request, reply, done) => {
      const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
      const labels = { method: request.method, route, status: String(reply.statusCode) };
      this.httpRequests.inc(labels);
      this.httpDuration.observe(labels, reply.elapsedTime / 1000);
      if (reply.statusCode === 429) this.rateLimited.inc({ limit: route === '/api/token' ? 'token' : 'api' });
      done();
    });
  }

  /** Whether /metrics is served on PORT (METRICS_ENABLED without a METRICS_PORT). */
  get onMainPort(): boolean {
    return this.enabled && this.port === undefined;
  }

  /** The text a scrape gets. */
  async exposition(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  /** METRICS_PORT: a listener of its own that answers GET /metrics and nothing else. */
  async onApplicationBootstrap(): Promise<void> {
    if (!this.enabled || this.port === undefined) return;
    this.server = createServer((request, response) => {
      const path = (request.url ?? '').split('?')[0];
      if (request.method !== 'GET' || path !== '/metrics') {
        response.writeHead(404, { 'Content-Type': 'text/plain', 'X-Content-Type-Options': 'nosniff' }).end('Not found');
        return;
      }
      this.exposition().then(
        ({ contentType, body }) =>
          response
            .writeHead(200, { 'Content-Type': contentType, 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' })
            .end(body),
        (error: unknown) => {
          this.logger.warn(`Metrics could not be collected: ${error instanceof Error ? error.message : String(error)}`);
          response.writeHead(500, { 'Content-Type': 'text/plain' }).end('metrics unavailable');
        },
      );
    });
    this.server.listen(this.port, this.host);
    await once(this.server, 'listening');
    this.logger.log(`Metrics on ${this.host}:${this.port}/metrics`);
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    this.server.close();
    this.server = undefined;
  }
}

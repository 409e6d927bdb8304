import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AppConfig } from '../../config/configuration.js';
import { Metrics } from '../../observability/metrics.js';
import { OutageLog } from '../../platform/outage-log.js';
import { signedHeaders } from './signatures.js';
import { WebhookDeliveriesRepository, type ClaimedDelivery } from './webhook-deliveries.repository.js';
import { ATTEMPT_TIMEOUT_MS, WebhookSender } from './webhook-sender.js';

/** How often an instance looks for due deliveries (the first attempt starts within a few seconds of the commit). */
const POLL_MS = 500;
/**
 * Attempts one instance makes at a time, at most PER_HOOK of them to one hook and PER_BUSINESS for one
 * business: a business whose receivers hang holds at most PER_BUSINESS slots (for up to an attempt's 10
 * seconds each), and the others stay free for the other businesses (docs/api.md §7.4).
 */
const CONCURRENCY = 16;
const PER_HOOK = 2;
const PER_BUSINESS = 4;
/** How long a claim holds a delivery: longer than an attempt, so only a dead instance's claims run out. */
const LEASE_MS = 3 * ATTEMPT_TIMEOUT_MS;
/** At shutdown, attempts in flight get this long to finish (within the process's 30-second stop). */
const DRAIN_MS = ATTEMPT_TIMEOUT_MS + 2_000;
const PRUNE_EVERY_MS = 3600_000;
const KEEP_DELIVERIES_MS = 31 * 24 * 3600_000;

/**
 * Sends the outbox's deliveries, in every instance and off the request path: every POLL_MS, and
 * whenever an attempt ends, it claims as many due deliveries as it has free slots (a lease in the database, so each attempt is
 * made by one instance), makes the attempts, and writes their results. On shutdown it stops
 * claiming, lets the attempts in flight finish (up to DRAIN_MS) and gives back any lease left.
 */
@Injectable()
export class WebhookDeliveryWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Webhooks');
  /** A database outage is logged once when it begins and once when it ends, not at each poll (outage-log.ts). */
  private readonly pollOutage = new OutageLog(this.logger);
  private readonly owner = `${hostname().slice(0, 40)}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly inFlightByHook = new Map<number, number>();
  private readonly inFlightByBusiness = new Map<number, number>();
  /** When this instance last started an attempt for each hook: the hooks served longest ago are claimed for first. */
  private readonly lastStarted = new Map<number, number>();
  private readonly sender: WebhookSender;
  private readonly retryDelays: readonly number[];
  private readonly maxFailures: number;
  private timer: NodeJS.Timeout | undefined;
  /** The poll under way: shutdown waits for it, so no claim it makes lands after the leases are given back. */
  private polling: Promise<void> | undefined;
  /** A poll was asked for while one ran: run another when it ends. */
  private pollAgain = false;
  private stopping = false;
  private lastPrune = 0;

  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    config: ConfigService<AppConfig, true>,
    private readonly metrics: Metrics,
  ) {
    metrics.watchWebhookOutbox(() => deliveries.backlog());
    this.sender = new WebhookSender(config.get('WEBHOOK_ALLOW_PRIVATE_TARGETS', { infer: true }));
    this.retryDelays = config.get('WEBHOOK_RETRY_DELAYS', { infer: true });
    this.maxFailures = config.get('WEBHOOK_MAX_CONSECUTIVE_FAILURES', { infer: true });
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.poll(), POLL_MS);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    clearInterval(this.timer);
    await this.polling;
    if (this.inFlight.size) await Promise.race([Promise.allSettled(this.inFlight), sleep(DRAIN_MS)]);
    await this.deliveries
      .release(this.owner)
      .catch((error: unknown) => this.logger.warn(`Could not give back webhook leases: ${String(error)}`));
    await this.sender.close().catch(() => undefined);
  }

  private poll(): Promise<void> {
    if (this.stopping) return Promise.resolve();
    if (this.polling) {
      this.pollAgain = true;
      return this.polling;
    }
    this.pollAgain = false;
    this.polling = this.claimAndStart().finally(() => {
      this.polling = undefined;
      if (this.pollAgain) void this.poll();
    });
    return this.polling;
  }

  private async claimAndStart(): Promise<void> {
    try {
      const free = CONCURRENCY - this.inFlight.size;
      if (free <= 0) return;
      const room = {
        hook: (hook: number) => PER_HOOK - (this.inFlightByHook.get(hook) ?? 0),
        business: (business: number) => PER_BUSINESS - (this.inFlightByBusiness.get(business) ?? 0),
        lastStarted: (hook: number) => this.lastStarted.get(hook) ?? 0,
      };
      const claimed = await this.deliveries.claim(this.owner, free, new Date(Date.now() + LEASE_MS), room);
      for (const delivery of claimed) this.start(delivery);
      if (Date.now() - this.lastPrune > PRUNE_EVERY_MS) {
        this.lastPrune = Date.now();
        await this.deliveries.prune(new Date(Date.now() - KEEP_DELIVERIES_MS));
      }
    } catch (error) {
      // The database is away or busy: the next poll tries again.
      this.pollOutage.failed('Webhook poll failed', error);
      return;
    }
    this.pollOutage.recovered('Webhook polls succeed again');
  }

  private start(delivery: ClaimedDelivery): void {
    const { webHookId: hook, businessId: business } = delivery;
    count(this.inFlightByHook, hook, 1);
    count(this.inFlightByBusiness, business, 1);
    if (this.lastStarted.size > 10_000) this.lastStarted.clear();
    this.lastStarted.set(hook, Date.now());
    const attempt: Promise<void> = this.attempt(delivery).finally(() => {
      this.inFlight.delete(attempt);
      count(this.inFlightByHook, hook, -1);
      count(this.inFlightByBusiness, business, -1);
      // A slot is free: more may be due now (a busy hook's next deliveries, most likely).
      void this.poll();
    });
    this.inFlight.add(attempt);
  }

  private async attempt(delivery: ClaimedDelivery): Promise<void> {
    const outcome = await this.sender.send(delivery.url, delivery.body, signedHeaders(delivery.secret, delivery.eventId, delivery.body));
    this.metrics.webhookAttempts.inc({ outcome: outcome.ok ? 'succeeded' : 'failed' });
    try {
      await this.deliveries.finish(
        this.owner,
        delivery,
        { ...outcome, gone: outcome.statusCode === 410 },
        this.retryDelays,
        this.maxFailures,
      );
    } catch (error) {
      // The result is lost; the lease runs out and the delivery is attempted again (at least once).
      this.logger.warn(`Could not record webhook delivery ${delivery.id}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

/** Adds `by` to a key's count, dropping the key at zero. */
function count(counts: Map<number, number>, key: number, by: number): void {
  const value = (counts.get(key) ?? 0) + by;
  if (value > 0) counts.set(key, value);
  else counts.delete(key);
}

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ConfigService } from '@nestjs/config';
import type { AppConfig } from '../../config/configuration.js';
import type { ClaimedDelivery, WebhookDeliveriesRepository } from './webhook-deliveries.repository.js';
import { WebhookDeliveryWorker } from './webhook-delivery.worker.js';
import type { Database } from '../../persistence/database.js';
import { Metrics } from '../../observability/metrics.js';

const CONFIG = {
  get: (key: string) => ({ WEBHOOK_ALLOW_PRIVATE_TARGETS: true, WEBHOOK_RETRY_DELAYS: [1], WEBHOOK_MAX_CONSECUTIVE_FAILURES: 5 })[key],
} as unknown as ConfigService<AppConfig, true>;
/** Metrics off (METRICS_ENABLED unset): counted, never served. */
const METRICS = new Metrics(CONFIG, null as unknown as Database);
const DELIVERY: ClaimedDelivery = {
  id: 1,
  webHookId: 7,
  businessId: 3,
  eventId: 'evt-1',
  body: '[]',
  attempts: 0,
  url: 'http://receiver.test/',
  secret: 'whsec_x',
};

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

describe('webhook delivery worker, at shutdown', () => {
  // Giving leases back while a claim was still under way let another instance claim the same delivery
  // while this one sent it: one event received twice in one recorded attempt.
  it('waits for a claim under way and its attempts before it gives the leases back', async () => {
    const events: string[] = [];
    const claim = deferred<ClaimedDelivery[]>();
    const repository = {
      claim: async () => {
        events.push('claim started');
        return claim.promise;
      },
      finish: async () => {
        events.push('finished');
      },
      release: async () => {
        events.push('released');
      },
      prune: async () => undefined,
    } as unknown as WebhookDeliveriesRepository;
    const worker = new WebhookDeliveryWorker(repository, CONFIG, METRICS);
    Object.assign(worker, {
      sender: {
        send: async () => {
          events.push('sent');
          return { ok: true, statusCode: 200, error: null };
        },
        close: async () => undefined,
      },
    });

    const polled = (worker as unknown as { poll(): Promise<void> }).poll();
    const stopped = worker.beforeApplicationShutdown();
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(events, ['claim started'], 'the leases are not given back while the claim is under way');
    claim.resolve([DELIVERY]);
    await Promise.all([polled, stopped]);
    assert.deepEqual(events, ['claim started', 'sent', 'finished', 'released']);
  });

  it('claims nothing more once it is stopping', async () => {
    let claims = 0;
    const repository = {
      claim: async () => {
        claims++;
        return [];
      },
      release: async () => undefined,
    } as unknown as WebhookDeliveriesRepository;
    const worker = new WebhookDeliveryWorker(repository, CONFIG, METRICS);
    await worker.beforeApplicationShutdown();
    await (worker as unknown as { poll(): Promise<void> }).poll();
    assert.equal(claims, 0);
  });
});

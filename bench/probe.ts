// GET by id at a steady rate, open loop, each request timed from the moment it was due (bench/pdf.ts,
// bench/billing-run.ts): a service whose request thread stalls is charged for every request that queued
// behind the stall, where loading it as fast as it answers would measure the length of its queue.
import { Agent, request } from 'node:http';
import { median, type Case } from './harness.js';

export interface Latency {
  requests: number;
  p50: number;
  p99: number;
  max: number;
  /** Answers other than 200. */
  failed: number;
}

export const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

/** The latency figures of some GETs (milliseconds). */
export function latencyOf(latencies: number[], failed: number): Latency {
  const sorted = [...latencies].sort((x, y) => x - y);
  const round = (ms: number) => Math.round(ms * 100) / 100;
  return {
    requests: sorted.length,
    p50: round(percentile(sorted, 50)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted.at(-1) ?? 0),
    failed,
  };
}

/**
 * GET by id at `rate` per second for `seconds`, open loop: request i is due at start + i/rate and is sent
 * then (on a free keep-alive connection, a new one when all are busy); its latency counts from when it was
 * due (or sent, if that was earlier), so a service that stalls is charged for the requests that queued behind the stall.
 */
export async function probe(
  agent: Agent,
  base: string,
  c: Case,
  seconds: number,
  rate: number,
): Promise<{ latencies: number[]; failed: number }> {
  const url = new URL(base);
  const latencies: number[] = [];
  let failed = 0;
  const one = (due: number) =>
    new Promise<void>((resolve) => {
      // A request sent up to 1 ms before it was due (the loop does not sleep for less) counts from its sending.
      const from = Math.min(due, performance.now());
      const req = request({ agent, host: url.hostname, port: url.port, method: 'GET', path: c.path(), headers: c.headers }, (res) => {
        if (res.statusCode !== 200) failed++;
        res.resume();
        res.on('end', () => {
          latencies.push(performance.now() - from);
          resolve();
        });
      });
      req.on('error', () => {
        failed++;
        resolve();
      });
      req.end();
    });
  const inFlight: Array<Promise<void>> = [];
  const start = performance.now();
  const total = Math.round(seconds * rate);
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    inFlight.push(one(due));
  }
  await Promise.all(inFlight);
  return { latencies, failed };
}

export const hundredths = (ms: number) => Math.round(ms * 100) / 100;

export const medianLatency = (all: Latency[]): Latency => ({
  requests: all.reduce((sum, l) => sum + l.requests, 0),
  // The median of an even number of rounds is a mean of two: rounded as each round's figures are.
  p50: hundredths(median(all.map((l) => l.p50))),
  p99: hundredths(median(all.map((l) => l.p99))),
  max: Math.max(...all.map((l) => l.max)),
  failed: all.reduce((sum, l) => sum + l.failed, 0),
});

import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Database } from '../../persistence/database.js';
import { listEnvelope, type ListEnvelope } from '../../records/envelopes.js';
import { parseListQuery } from '../../records/list-query.js';
import { toWire } from '../../records/wire-values.js';
import type { Tx } from '../../persistence/tx.js';

export type DeliveryStatus = 'Pending' | 'Succeeded' | 'Failed';

/** A delivery to be written to the outbox: one record, for one hook and action. */
export interface NewDelivery {
  webHookId: number;
  action: number;
  entity: string;
  recordId: number;
  record: unknown;
}

/** A delivery an instance has claimed, with what it needs to make the attempt. */
export interface ClaimedDelivery {
  id: number;
  webHookId: number;
  /** The hook's business when it was claimed: its attempts in flight count against that business. */
  businessId: number;
  eventId: string;
  body: string;
  attempts: number;
  url: string;
  secret: string;
}

/** How many more attempts an instance may start, per hook and per business, and whom it served last. */
export interface ClaimRoom {
  hook(webHookId: number): number;
  business(businessId: number): number;
  /** When the instance last started an attempt for the hook (0: never). */
  lastStarted(webHookId: number): number;
}

/** The result of an attempt, to be written back. */
export interface AttemptResult {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  /** The answer was 410 Gone: the hook is deactivated at once. */
  gone: boolean;
}

const LIST_SCHEMA = { entityName: 'WebHookDelivery', fields: [{ name: 'Id', kind: 'int' as const }] };
const COLUMNS = ['WebHookId', 'EventId', 'Action', 'Entity', 'RecordId', 'Body', 'Status', 'Attempts', 'CreatedOn', 'NextAttemptOn'];

/**
 * The webhook outbox (table webhook_delivery): deliveries are inserted in the transaction of the
 * change they carry, claimed by one instance at a time under a lease, and updated with each attempt.
 */
@Injectable()
export class WebhookDeliveriesRepository {
  constructor(private readonly db: Database) {}

  private q = (name: string) => this.db.id(name);

  /** The outbox's backlog for the metrics: deliveries pending (and the oldest one's age) and failed. */
  async backlog(now = new Date()): Promise<{ pending: number; oldestPendingSeconds: number; failed: number }> {
    const q = this.q;
    const rows = await this.db.query<{ Status: string; Count: number | string; Oldest: string | null }>(
      `SELECT ${q('Status')} AS ${q('Status')}, COUNT(*) AS ${q('Count')}, MIN(${q('CreatedOn')}) AS ${q('Oldest')} FROM ${q('webhook_delivery')} ` +
        `WHERE ${q('Status')} IN ('Pending', 'Failed') GROUP BY ${q('Status')}`,
    );
    const pending = rows.find((row) => row.Status === 'Pending');
    const failed = rows.find((row) => row.Status === 'Failed');
    const oldest = pending?.Oldest ? Date.parse(`${String(pending.Oldest).replace(' ', 'T')}Z`) : NaN;
    return {
      pending: Number(pending?.Count ?? 0),
      oldestPendingSeconds: Number.isNaN(oldest) ? 0 : Math.max(0, (now.getTime() - oldest) / 1000),
      failed: Number(failed?.Count ?? 0),
    };
  }

  /** Inserts deliveries, due now, inside `tx`'s transaction (or on their own). */
  async insert(deliveries: NewDelivery[], tx?: Tx): Promise<void> {
    if (!deliveries.length) return;
    const now = this.db.dateParam(new Date());
    // Each delivery is kept with the business its hook had when it was made: the hook's log and its
    // redeliveries show only the deliveries of the hook's current business (a hook moved to another
    // business does not hand it the bodies made for the first).
    const rows = deliveries.map((d) => [
      d.webHookId,
      randomUUID(),
      d.action,
      d.entity,
      d.recordId,
      JSON.stringify([d.record]),
      'Pending',
      0,
      now,
      now,
      d.webHookId,
    ]);
    const business = `(SELECT h.${this.q('BusinessId')} FROM ${this.q('webhook')} h WHERE h.${this.q('Id')} = ?)`;
    await this.db.query(
      `INSERT INTO ${this.q('webhook_delivery')} (${[...COLUMNS, 'BusinessId'].map(this.q).join(', ')}) VALUES ${rows.map(() => `(${COLUMNS.map(() => '?').join(', ')}, ${business})`).join(', ')}`,
      rows.flat(),
      tx,
    );
  }

  /** The condition that a delivery was made for the current business of the hook bound as its parameter. */
  private ofCurrentBusiness(): string {
    const q = this.q;
    return `${q('BusinessId')} = (SELECT h.${q('BusinessId')} FROM ${q('webhook')} h WHERE h.${q('Id')} = ?)`;
  }

  /** A hook's deliveries made for its current business, newest first, in the list envelope. */
  async list(webHookId: number, query: Record<string, unknown>): Promise<ListEnvelope<Record<string, unknown>>> {
    const page = parseListQuery(query, LIST_SCHEMA);
    const q = this.q;
    const table = q('webhook_delivery');
    const ofHook = `${q('WebHookId')} = ? AND ${this.ofCurrentBusiness()}`;
    const [count] = await this.db.query<{ n: unknown }>(`SELECT COUNT(*) AS n FROM ${table} WHERE ${ofHook}`, [webHookId, webHookId]);
    const rows = await this.db.query(`SELECT * FROM ${table} WHERE ${ofHook} ORDER BY ${q('Id')} DESC LIMIT ? OFFSET ?`, [
      webHookId,
      webHookId,
      page.size,
      (page.page - 1) * page.size,
    ]);
    const date = (value: unknown) => toWire('datetime', value);
    const records = rows.map((row) => ({
      Id: Number(row.Id),
      WebHookId: Number(row.WebHookId),
      EventId: row.EventId,
      Action: Number(row.Action),
      RecordId: Number(row.RecordId),
      Status: row.Status,
      Attempts: Number(row.Attempts),
      CreatedOn: date(row.CreatedOn),
      LastAttemptOn: date(row.LastAttemptOn),
      NextAttemptOn: date(row.NextAttemptOn),
      LastStatusCode: row.LastStatusCode === null ? null : Number(row.LastStatusCode),
      LastError: row.LastError ?? null,
    }));
    return listEnvelope(records, { ...page, direction: -1 }, Number(count.n));
  }

  /** Makes a delivery of the hook due again now, with its webhook-id and body; false when there is none. */
  async redeliver(webHookId: number, deliveryId: number): Promise<boolean> {
    const q = this.q;
    return this.db.transaction(async (tx) => {
      const [found] = await this.db.query(
        `SELECT ${q('Id')} FROM ${q('webhook_delivery')} WHERE ${q('Id')} = ? AND ${q('WebHookId')} = ? AND ${this.ofCurrentBusiness()}`,
        [deliveryId, webHookId, webHookId],
        tx,
      );
      if (!found) return false;
      await this.db.query(
        // Any lease is dropped too: an attempt still in flight no longer writes its result over this one.
        `UPDATE ${q('webhook_delivery')} SET ${q('Status')} = 'Pending', ${q('NextAttemptOn')} = ?, ${q('LeaseOwner')} = NULL, ${q('LeaseUntil')} = NULL WHERE ${q('Id')} = ?`,
        [this.db.dateParam(new Date()), deliveryId],
        tx,
      );
      return true;
    });
  }

  /**
   * Claims up to `limit` due deliveries of active hooks for `owner` until `leaseUntil`: on MySQL with
   * SELECT … FOR UPDATE SKIP LOCKED, so instances claiming at once take different rows; on SQLite the
   * one process is the only writer. A lease that ran out (its instance died) is claimed again.
   * `room` says how many more attempts this instance may start per hook and per business: a hook or
   * business at its bound is left out of the search, so its backlog never stands in front of another
   * business's deliveries (docs/api.md §7.4). Among the rest, the hooks this instance served longest
   * ago go first, one delivery each in turn, each hook's deliveries oldest first.
   */
  async claim(owner: string, limit: number, leaseUntil: Date, room: ClaimRoom): Promise<ClaimedDelivery[]> {
    const q = this.q;
    const hooks = await this.db.query<{ Id: unknown; BusinessId: unknown }>(
      `SELECT ${q('Id')} AS ${q('Id')}, ${q('BusinessId')} AS ${q('BusinessId')} FROM ${q('webhook')} WHERE ${q('Active')} = 1`,
    );
    const businessOf = new Map(hooks.map((hook) => [Number(hook.Id), Number(hook.BusinessId)]));
    if (!businessOf.size) return [];
    const now = this.db.dateParam(new Date());
    const batch = limit * 4;
    return this.db.transaction(async (tx) => {
      const taken = new Map<number, number>();
      const takenByBusiness = new Map<number, number>();
      const hookRoom = (hook: number) => room.hook(hook) - (taken.get(hook) ?? 0);
      const businessRoom = (business: number) => room.business(business) - (takenByBusiness.get(business) ?? 0);
      const ids: number[] = [];
      // Each search after the first leaves out at least one more hook or business (filled by the one
      // before), so a few searches at most find every business that has room.
      for (let search = 0; ids.length < limit && search <= limit; search++) {
        const eligible = [...businessOf]
          .filter(([hook, business]) => hookRoom(hook) > 0 && businessRoom(business) > 0)
          .map(([hook]) => hook);
        if (!eligible.length) break;
        const due = await this.db.query<{ Id: unknown; WebHookId: unknown }>(
          `SELECT ${q('Id')} AS ${q('Id')}, ${q('WebHookId')} AS ${q('WebHookId')} FROM ${q('webhook_delivery')} WHERE ${q('Status')} = 'Pending' AND ${q('NextAttemptOn')} <= ? ` +
            `AND (${q('LeaseUntil')} IS NULL OR ${q('LeaseUntil')} < ?) AND ${q('WebHookId')} IN (${eligible.map(() => '?').join(', ')}) ` +
            (ids.length ? `AND ${q('Id')} NOT IN (${ids.map(() => '?').join(', ')}) ` : '') +
            `ORDER BY ${q('NextAttemptOn')}, ${q('Id')} LIMIT ?${this.db.isMySql ? ' FOR UPDATE SKIP LOCKED' : ''}`,
          [now, now, ...eligible, ...ids, batch],
          tx,
        );
        // Hooks are read again inside the transaction: one deactivated since the read above (a 410
        // just now) keeps its deliveries waiting.
        const dueHooks = [...new Set(due.map((row) => Number(row.WebHookId)))];
        const stillActive = dueHooks.length
          ? new Set(
              (
                await this.db.query<{ Id: unknown }>(
                  `SELECT ${q('Id')} AS ${q('Id')} FROM ${q('webhook')} WHERE ${q('Active')} = 1 AND ${q('Id')} IN (${dueHooks.map(() => '?').join(', ')})`,
                  dueHooks,
                  tx,
                )
              ).map((row) => Number(row.Id)),
            )
          : new Set<number>();
        for (const hook of dueHooks) if (!stillActive.has(hook)) businessOf.delete(hook);
        const queues = new Map<number, number[]>();
        for (const row of due) {
          const hook = Number(row.WebHookId);
          if (stillActive.has(hook)) queues.set(hook, [...(queues.get(hook) ?? []), Number(row.Id)]);
        }
        // Hooks served longest ago first (a Map keeps the due order among equals), one delivery per turn.
        const order = [...queues.keys()].sort((x, y) => room.lastStarted(x) - room.lastStarted(y));
        for (let progress = true; progress && ids.length < limit;) {
          progress = false;
          for (const hook of order) {
            const business = businessOf.get(hook)!;
            const next = queues.get(hook)!;
            if (ids.length >= limit || !next.length || hookRoom(hook) <= 0 || businessRoom(business) <= 0) continue;
            ids.push(next.shift()!);
            taken.set(hook, (taken.get(hook) ?? 0) + 1);
            takenByBusiness.set(business, (takenByBusiness.get(business) ?? 0) + 1);
            progress = true;
          }
        }
        // Fewer than a batch: every due delivery of the hooks with room was seen.
        if (due.length < batch) break;
      }
      if (!ids.length) return [];
      const idList = ids.map(() => '?').join(', ');
      await this.db.query(
        `UPDATE ${q('webhook_delivery')} SET ${q('LeaseOwner')} = ?, ${q('LeaseUntil')} = ? WHERE ${q('Id')} IN (${idList})`,
        [owner, this.db.dateParam(leaseUntil), ...ids],
        tx,
      );
      const rows = await this.db.query(
        `SELECT d.${q('Id')} AS id, d.${q('WebHookId')} AS hook, d.${q('EventId')} AS event, d.${q('Body')} AS body, d.${q('Attempts')} AS attempts, ` +
          `h.${q('URL')} AS url, h.${q('Secret')} AS secret FROM ${q('webhook_delivery')} d JOIN ${q('webhook')} h ON h.${q('Id')} = d.${q('WebHookId')} WHERE d.${q('Id')} IN (${idList})`,
        ids,
        tx,
      );
      return rows.map((row) => ({
        id: Number(row.id),
        webHookId: Number(row.hook),
        businessId: businessOf.get(Number(row.hook)) ?? 0,
        eventId: String(row.event),
        body: String(row.body),
        attempts: Number(row.attempts),
        url: String(row.url),
        secret: String(row.secret),
      }));
    });
  }

  /**
   * Writes an attempt's result: the delivery's status (retried after the next of `retryDelays`, or
   * Failed once they are used up) and the hook's LastTrigger, or ErrorCount and LastError (deactivating
   * it after `maxFailures` in a row, or at once on 410). Nothing is written if the lease was lost.
   */
  async finish(
    owner: string,
    delivery: ClaimedDelivery,
    result: AttemptResult,
    retryDelays: readonly number[],
    maxFailures: number,
  ): Promise<void> {
    const q = this.q;
    const now = new Date();
    const attempts = delivery.attempts + 1;
    const retryIn = result.ok ? undefined : retryDelays[attempts - 1];
    const status: DeliveryStatus = result.ok ? 'Succeeded' : retryIn === undefined ? 'Failed' : 'Pending';
    const next = status === 'Pending' ? this.db.dateParam(new Date(now.getTime() + retryIn! * 1000)) : null;
    await this.db.transaction(async (tx) => {
      const updated = await this.db.run(
        `UPDATE ${q('webhook_delivery')} SET ${q('Status')} = ?, ${q('Attempts')} = ?, ${q('LastAttemptOn')} = ?, ${q('NextAttemptOn')} = ?, ` +
          `${q('LastStatusCode')} = ?, ${q('LastError')} = ?, ${q('LeaseOwner')} = NULL, ${q('LeaseUntil')} = NULL WHERE ${q('Id')} = ? AND ${q('LeaseOwner')} = ?`,
        [status, attempts, this.db.dateParam(now), next, result.statusCode, result.error, delivery.id, owner],
        tx,
      );
      if (updated.affected !== 1) return;
      if (result.ok) {
        await this.db.query(
          `UPDATE ${q('webhook')} SET ${q('LastTrigger')} = ?, ${q('ErrorCount')} = 0 WHERE ${q('Id')} = ?`,
          [this.db.dateParam(now), delivery.webHookId],
          tx,
        );
        return;
      }
      // Active is assigned first: MySQL evaluates assignments in order, SQLite from the old row.
      await this.db.query(
        `UPDATE ${q('webhook')} SET ${q('Active')} = CASE WHEN ? = 1 OR ${q('ErrorCount')} + 1 >= ? THEN 0 ELSE ${q('Active')} END, ` +
          `${q('ErrorCount')} = ${q('ErrorCount')} + 1, ${q('LastError')} = ? WHERE ${q('Id')} = ?`,
        [result.gone ? 1 : 0, maxFailures, result.error, delivery.webHookId],
        tx,
      );
    });
  }

  /**
   * A hook moved to business `businessId`: its pending deliveries made for another business are never
   * sent (they would carry that business's records to the new owner's receiver). They end as Failed,
   * saying why, and their leases are dropped, so an attempt in flight writes nothing back.
   */
  async dropForOtherBusinesses(webHookId: number, businessId: number, tx: Tx): Promise<void> {
    const q = this.q;
    await this.db.query(
      `UPDATE ${q('webhook_delivery')} SET ${q('Status')} = 'Failed', ${q('NextAttemptOn')} = NULL, ${q('LeaseOwner')} = NULL, ${q('LeaseUntil')} = NULL, ` +
        `${q('LastError')} = 'Not sent: the hook moved to another business.' WHERE ${q('WebHookId')} = ? AND ${q('Status')} = 'Pending' AND ${q('BusinessId')} <> ?`,
      [webHookId, businessId],
      tx,
    );
  }

  /** Gives back the leases `owner` still holds (at shutdown), so other instances take them at once. */
  async release(owner: string): Promise<void> {
    const q = this.q;
    await this.db.query(
      `UPDATE ${q('webhook_delivery')} SET ${q('LeaseOwner')} = NULL, ${q('LeaseUntil')} = NULL WHERE ${q('LeaseOwner')} = ?`,
      [owner],
    );
  }

  /** Removes finished deliveries created before `before` (the log is kept at least 30 days). */
  async prune(before: Date): Promise<void> {
    const q = this.q;
    await this.db.query(`DELETE FROM ${q('webhook_delivery')} WHERE ${q('CreatedOn')} < ? AND ${q('Status')} <> 'Pending'`, [
      this.db.dateParam(before),
    ]);
  }
}

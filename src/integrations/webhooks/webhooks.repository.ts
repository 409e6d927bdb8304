import { Injectable } from '@nestjs/common';
import type { ChangeProbe } from '../../records/change-log/change-log.repository.js';
import { Database } from '../../persistence/database.js';
import type { Tx } from '../../persistence/tx.js';

/** An active hook a change fires: its id and action. */
export interface FiredHook {
  id: number;
  action: number;
}

/**
 * The SQL of the hooks (table webhook) beyond the record machinery's own: the active hooks a change
 * fires and the signing secret.
 */
@Injectable()
export class WebhooksRepository {
  constructor(private readonly db: Database) {}

  private q = (name: string) => this.db.id(name);

  /**
   * The count of the business's active hooks for one of `actions`, as SQL the change log runs with
   * its entry's INSERT (a RETURNING subquery where the database has one).
   */
  activeHookCount(businessId: number, actions: number[]): ChangeProbe {
    return this.activeHooksSelect('COUNT(*)', businessId, actions);
  }

  /** The business's active hooks for one of `actions`. */
  async activeHooks(businessId: number, actions: number[], tx: Tx): Promise<FiredHook[]> {
    const q = this.q;
    const select = this.activeHooksSelect(`${q('Id')} AS ${q('Id')}, ${q('Action')} AS ${q('Action')}`, businessId, actions);
    const rows = await this.db.query<{ Id: unknown; Action: unknown }>(select.sql, select.parameters, tx);
    return rows.map((row) => ({ id: Number(row.Id), action: Number(row.Action) }));
  }

  /** Every business's active hooks, as business id → the actions they wait for (read on every node as of now: Galera's causality wait). */
  async activeActions(): Promise<Map<number, Set<number>>> {
    const q = this.q;
    const rows = await this.db.causalRead<{ b: unknown; a: unknown }>(
      `SELECT DISTINCT ${q('BusinessId')} AS b, ${q('Action')} AS a FROM ${q('webhook')} WHERE ${q('Active')} = 1`,
    );
    const actions = new Map<number, Set<number>>();
    for (const row of rows) {
      const business = Number(row.b);
      let known = actions.get(business);
      if (!known) actions.set(business, (known = new Set()));
      known.add(Number(row.a));
    }
    return actions;
  }

  /** The hook's signing secret; null when there is no such hook. */
  async secret(id: number): Promise<string | null> {
    const q = this.q;
    const [row] = await this.db.query<{ s: string }>(`SELECT ${q('Secret')} AS s FROM ${q('webhook')} WHERE ${q('Id')} = ?`, [id]);
    return row ? row.s : null;
  }

  private activeHooksSelect(what: string, businessId: number, actions: number[]): ChangeProbe {
    const q = this.q;
    return {
      sql: `SELECT ${what} FROM ${q('webhook')} WHERE ${q('BusinessId')} = ? AND ${q('Active')} = 1 AND ${q('Action')} IN (${actions.map(() => '?').join(', ')})`,
      parameters: [businessId, ...actions],
    };
  }
}

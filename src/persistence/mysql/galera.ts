// Galera causality (docs/billing.md, "Exactly once"): a node applies other nodes' commits
// asynchronously, so a read that must see every write committed anywhere first waits until the node
// has caught up. Only the statements that need it pay for the wait.

/** A Galera node runs `sql` once it has applied what the cluster committed before (for this statement only). */
export const afterCausalityWait = (sql: string): string => `SET STATEMENT wsrep_sync_wait=1 FOR ${sql}`;

/** The statement a causal transaction runs before START TRANSACTION: inside one, no read waits. */
export const CATCH_UP = afterCausalityWait('SELECT 1');

/**
 * Whether the MySQL server is a node of a Galera cluster (`wsrep_on`), asked once with `ask`; asked
 * again after a failure (the database may be back).
 */
export class GaleraProbe {
  private answer: Promise<boolean> | undefined;

  constructor(private readonly ask: (sql: string) => Promise<Array<{ Value: string }>>) {}

  isGalera(): Promise<boolean> {
    return (this.answer ??= this.ask("SHOW VARIABLES LIKE 'wsrep_on'")
      .then(([row]) => String(row?.Value ?? '').toUpperCase() === 'ON')
      .catch((error: unknown) => {
        this.answer = undefined;
        throw error;
      }));
  }
}

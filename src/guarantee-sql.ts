import { RefreshTokenRepository } from './auth/refresh-token.repository.js';
import { UserLoginRepository } from './auth/user-login.repository.js';
import { BillingRunsRepository } from './billing/billing-runs/billing-runs.repository.js';
import { DueSourcesRepository } from './billing/billing-runs/due-sources.repository.js';
import { CreditSpendingRepository } from './billing/coworker-booking-credit-use-histories/credit-spending.repository.js';
import { CoworkerContract } from './billing/coworker-contracts/coworker-contract.entity.js';
import { DueItemsRepository } from './billing/due-items/due-items.repository.js';
import { CoworkerTimePassesRepository } from './billing/coworker-time-passes/coworker-time-passes.repository.js';
import { InvoiceIssuanceRepository } from './billing/invoice-issuance.repository.js';
import { Product } from './billing/products/product.entity.js';
import { ProductsRepository } from './billing/products/products.repository.js';
import { SettlementRepository } from './billing/settlement/settlement.repository.js';
import { Database, type RunResult } from './persistence/database.js';
import { IdempotencyRepository } from './http/idempotency/idempotency.repository.js';
import { BookingsRepository } from './spaces/bookings/bookings.repository.js';
import type { Tx } from './persistence/tx.js';

/**
 * A Database that runs nothing: it records the SQL the code sends through the façade and answers with
 * `rows`, one changed row and id 1. The guarantee statements below are taken from the very methods that run them, so the snapshot changes
 * when they do.
 */
export class RecordingDatabase extends Database {
  readonly sent: string[] = [];
  rows: Array<Record<string, unknown>> = [];

  override query<T>(sql: string): Promise<T[]> {
    this.sent.push(sql);
    return Promise.resolve(this.rows as T[]);
  }

  override queryArrays(sql: string): Promise<unknown[][]> {
    this.sent.push(sql);
    return Promise.resolve(this.rows.map((row) => Object.values(row)));
  }

  override run(sql: string): Promise<RunResult> {
    this.sent.push(sql);
    return Promise.resolve({ affected: 1, insertId: 1 });
  }

  override write<T>(sql: string): Promise<T[]> {
    return this.query<T>(sql);
  }

  override causalRead<T>(sql: string): Promise<T[]> {
    return this.query<T>(sql);
  }

  /** The statements of one server; the turns a Galera cluster adds are an entry of their own (recordTurn). */
  override replicated(): Promise<boolean> {
    return Promise.resolve(false);
  }
}

/** Two contracts' period claims of one batch, one from a period read and one never billed: the set claim's sample. */
const TWO_CONTRACT_CLAIMS = [
  { id: 1, marks: { InvoicedPeriod: '2026-02-01 00:00:00', RenewalDate: null }, unclaimed: { InvoicedPeriod: '2026-01-01 00:00:00' } },
  { id: 2, marks: { InvoicedPeriod: '2026-03-01 00:00:00', RenewalDate: null }, unclaimed: { InvoicedPeriod: null } },
];

interface Guarantee {
  title: string;
  /** The `Class.method`s it runs (src/sql-snapshot-coverage.spec.ts). */
  methods: string[];
  /** What the statements guarantee, in one sentence. */
  guarantees: string;
  /** Rows the reads answer with, when the method needs one to go on. */
  rows?: Array<Record<string, unknown>>;
  run(db: RecordingDatabase, tx: Tx): Promise<unknown>;
}

/** The statements that carry the exactly-once guarantees (docs/billing.md "Exactly once", docs/api.md), in the order of a request's life. */
export const GUARANTEES: Guarantee[] = [
  {
    title: 'Idempotency-Key claim',
    methods: ['IdempotencyRepository.insert'],
    guarantees:
      'the unique ScopeHash lets one request of a key claim it; a second of the same scope fails as a unique violation and is answered from the stored claim (docs/api.md, "Idempotency-Key").',
    run: (db) => new IdempotencyRepository(db).insert('scope', 'request', 1, new Date(0), new Date(0)),
  },
  {
    title: "Idempotency-Key answer, stored in the write's own transaction",
    methods: ['IdempotencyRepository.complete'],
    guarantees: 'the answer commits with the write it answers, or neither does.',
    run: (db, tx) => new IdempotencyRepository(db).complete(1, 200, '{}', null, tx),
  },
  {
    title: 'Refresh-token rotation',
    methods: ['RefreshTokenRepository.markUsed'],
    guarantees:
      'of parallel refreshes with one token, exactly one marks it used (one changed row) and gets the next token; the others are refused.',
    run: (db) => new RefreshTokenRepository(db).markUsed(1),
  },
  {
    title: 'TOTP time step',
    methods: ['UserLoginRepository.claimTotpStep'],
    guarantees: "a code's time step is accepted once: of parallel logins with it (or an earlier one), one changes the row (RFC 6238 §5.2).",
    run: (db) => new UserLoginRepository(db).claimTotpStep(1, 1),
  },
  {
    title: 'The billing lease (automatic runs)',
    methods: ['BillingRunsRepository.takeLease', 'BillingRunsRepository.releaseLease'],
    guarantees:
      'the row is made once (unique BusinessId, a duplicate ignored), then one conditional UPDATE gives the lease to one instance until LeaseUntil; its holder alone releases it (docs/billing.md).',
    run: async (db) => {
      const lease = new BillingRunsRepository(db);
      await lease.takeLease(1, 'holder', new Date(0), new Date(0));
      await lease.releaseLease(1, 'holder');
    },
  },
  {
    title: "The customer's billing turn",
    methods: ['BillingRunsRepository.takeTurns'],
    guarantees:
      'every transaction billing a customer (or a batch of them, one UPDATE) first writes its row, so they take turns on one server and conflict (and run again) across Galera nodes; none commits on what it read before another\'s commit (docs/billing.md, "Exactly once").',
    run: (db, tx) => new BillingRunsRepository(db).takeTurns([1, 2], tx),
  },
  {
    title: 'Claim of a due item (contract period; contract products and sales alike)',
    methods: ['DueSourcesRepository.conditionalUpdate'],
    guarantees:
      'the item is marked billed only from the state the run read (one changed row), so no period is billed twice, whatever runs at once.',
    run: (db, tx) =>
      new DueSourcesRepository(db).conditionalUpdate(
        tx,
        undefined,
        CoworkerContract,
        1,
        { RenewalDate: null },
        'RenewalDate',
        '2026-01-01 00:00:00',
      ),
  },
  {
    title: "Claims of a batch's due items by set (contract periods here; contract products and sales alike)",
    methods: ['DueItemsRepository.claimMany'],
    guarantees:
      'one UPDATE claims the items of one kind of a batch of customers, each only from the state the run read; the batch commits only if every one of them changed (docs/billing.md, "Exactly once").',
    run: (db, tx) => new DueItemsRepository(db).claimMany(CoworkerContract, TWO_CONTRACT_CLAIMS, undefined, tx),
  },
  {
    title: 'Invoice number',
    methods: ['InvoiceIssuanceRepository.nextNumber'],
    guarantees:
      "one upsert takes the next number of the business's series and holds the counter row until the transaction ends: numbers are unique, sequential and never reused.",
    rows: [{ n: 1 }],
    run: (db, tx) => new InvoiceIssuanceRepository(db).nextNumber('CoworkerInvoice', 1, tx),
  },
  {
    title: 'The invoice lock (settlement)',
    methods: ['SettlementRepository.lockInvoice'],
    guarantees:
      'every writer of one invoice (payments, credit notes, cancellations) takes turns on its row: a row lock on MySQL, the one writer on SQLite (docs/settlement.md).',
    run: (db, tx) => new SettlementRepository(db).lockInvoice(1, tx),
  },
  {
    title: 'Stock decrement (a sale)',
    methods: ['ProductsRepository.takeStock'],
    guarantees:
      'one conditional UPDATE takes the quantity only while enough is left (unless negative stock is allowed): concurrent sales never oversell.',
    run: (db, tx) => new ProductsRepository(db).takeStock(1, 1, tx),
  },
  {
    title: "A guarded write's turn (Galera: after the stock, credit, pass, booking, invoice-lock and refresh-token statements)",
    methods: ['Database.recordTurn'],
    guarantees:
      "a unique key on (table, row, Version or sequence after the write): on a Galera cluster two nodes' writes that took the same turn of a row cannot both commit, where the conditional UPDATE alone can run on a replaced row version (docs/architecture.md §7).",
    run: async (db, tx) => {
      await db.recordTurn(tx, Product, 1, 'Version');
      // A refresh token's spend takes its row's one turn (a fixed 1: a token is spent once).
      await db.recordTurn(tx, 'refresh_token', 1, 1);
    },
  },
  {
    title: 'Booking credit spent',
    methods: ['CreditSpendingRepository.take'],
    guarantees: 'one conditional UPDATE takes the amount only while the credit holds it: no credit is spent below zero.',
    run: (db, tx) => new CreditSpendingRepository(db).take(1, 1n, tx),
  },
  {
    title: "A resource's bookings take turns",
    methods: ['BookingsRepository.lockResource'],
    guarantees:
      "a write of the resource's row makes every booking write of it wait for the one before, so no two bookings overlap (docs/bookings.md).",
    run: (db, tx) => new BookingsRepository(db).lockResource(1, tx),
  },
  {
    title: 'A pass used by a check-in',
    methods: ['CoworkerTimePassesRepository.claim'],
    guarantees: 'one conditional UPDATE marks the pass used while nobody has: of parallel check-ins, one uses it (docs/presence.md).',
    run: (db, tx) => new CoworkerTimePassesRepository(db).claim(1, new Date(0), null, tx),
  },
];

/** The guarantee statements of one dialect's `db`, as reviewable text (docs/sql/<dialect>/guarantees.sql). */
export async function guaranteeSql(offline: Database): Promise<string> {
  const db = new RecordingDatabase(offline.dataSource);
  const lines = [
    '-- The statements that carry the exactly-once guarantees: generated by `npm run sql:snapshots` from the',
    '-- methods that run them (src/guarantee-sql.ts); do not edit.',
  ];
  for (const guarantee of GUARANTEES) {
    db.sent.length = 0;
    db.rows = guarantee.rows ?? [];
    await guarantee.run(db, db.outsideTransaction);
    lines.push('', `-- ${guarantee.title}: ${guarantee.guarantees}`, ...db.sent.map((sql) => `${sql};`));
  }
  return `${lines.join('\n')}\n`;
}

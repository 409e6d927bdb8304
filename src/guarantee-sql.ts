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
import type { Database } from './persistence/database.js';
import { IdempotencyRepository } from './http/idempotency/idempotency.repository.js';
import { BookingsRepository } from './spaces/bookings/bookings.repository.js';
import { RecordingDatabase } from './recording-database.js';
import { RecordRepository } from './records/record.repository.js';
import { compileRecordPlan } from './records/record-plan.js';
import { products } from './billing/products/products.definition.js';
import { TaxRate } from './kernel/tax-rates/tax-rate.entity.js';
import { UsersRepository } from './customers/users/users.repository.js';
import { CoworkerContractsRepository } from './billing/coworker-contracts/coworker-contracts.repository.js';
import { EventAttendeesRepository } from './content/event-attendees/event-attendees.repository.js';
import { CoworkerBookingCreditsRepository } from './billing/coworker-booking-credits/coworker-booking-credits.repository.js';
import { CoworkerDeliveriesRepository } from './spaces/coworker-deliveries/coworker-deliveries.repository.js';
import { WebhookDeliveriesRepository } from './integrations/webhooks/webhook-deliveries.repository.js';
import type { Tx } from './persistence/tx.js';

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
    title: 'The records a write references stay',
    methods: ['RecordRepository.existingIds'],
    guarantees:
      "inside a write's transaction on MySQL the referenced rows it finds are held in share mode until it commits, so a delete of one (which locks its row first) waits and then sees the reference (docs/architecture.md §2.3).",
    run: (db, tx) => new RecordRepository(db, compileRecordPlan(products, db), products).existingIds(TaxRate, [1, 2], tx, true),
  },
  {
    title: "A customer's writes take turns",
    methods: [
      'UsersRepository.lockCustomerBusiness',
      'CoworkerContractsRepository.lockCustomerBusiness',
      'lockCustomerBusiness',
      'UsersRepository.customerHasLogin',
    ],
    guarantees:
      "the customer's row, locked until the transaction ends on MySQL (SQLite has one writer), makes two logins made for it at once, and the main-contract marks of its contracts, take turns; the check for a login then is a locking read, which sees one committed meanwhile (customer-rows.repository.ts).",
    run: async (db, tx) => {
      await new UsersRepository(db).lockCustomerBusiness(1, tx);
      await new CoworkerContractsRepository(db).lockCustomerBusiness(1, tx);
      await new UsersRepository(db).customerHasLogin(1, tx, { exceptUserId: 2, lock: true });
    },
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
    title: 'Invoice numbers of a batch',
    methods: ['InvoiceIssuanceRepository.nextNumbers'],
    guarantees:
      "one upsert moves the business's counter by the batch's count and holds its row until the transaction ends: a billing run's numbers are unique, sequential and never reused, as one invoice's are (docs/billing.md, \"Exactly once\").",
    rows: [{ n: 3 }],
    run: (db, tx) => new InvoiceIssuanceRepository(db).nextNumbers('CoworkerInvoice', 1, 3, tx),
  },
  {
    title: 'The invoice lock (settlement)',
    methods: ['SettlementRepository.lockInvoice'],
    guarantees:
      'every writer of one invoice (payments, credit notes, cancellations) takes turns on its row: a row lock on MySQL, the one writer on SQLite (docs/settlement.md).',
    run: (db, tx) => new SettlementRepository(db).lockInvoice(1, tx),
  },
  {
    title: 'The invoice lock on a Galera cluster',
    methods: ['SettlementRepository.lockInvoice'],
    guarantees:
      "a row lock holds on its own node only, so every writer of the invoice first raises its SettlementSequence and takes that turn: two nodes' writers of one invoice conflict, and the second runs again after the first (docs/settlement.md).",
    run: (db, tx) => {
      db.cluster = true;
      return new SettlementRepository(db).lockInvoice(1, tx);
    },
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
    title: "A credit's uses, counted under its lock",
    methods: ['CreditSpendingRepository.usesOf'],
    guarantees:
      'the credit\'s row is locked on MySQL first (SQLite has one writer), so a spend or return of it waits until the transaction ends, and the sum of its unreturned uses counts every spend committed before (docs/bookings.md, "Credits keep their invariant").',
    run: (db, tx) => new CreditSpendingRepository(db).usesOf(1, tx),
  },
  {
    title: "A resource's bookings take turns",
    methods: ['BookingsRepository.lockResource'],
    guarantees:
      "a write of the resource's row makes every booking write of it wait for the one before, so no two bookings overlap (docs/bookings.md).",
    run: (db, tx) => new BookingsRepository(db).lockResource(1, tx),
  },
  {
    title: 'A booking held against its billing',
    methods: ['BookingsRepository.holdUninvoiced'],
    guarantees:
      "an UPDATE that changes nothing while the booking is not invoiced waits for an invoice run's claim of the row (or a delete) to commit, so a move or delete never overtakes the billing of it; when it changed no row, a locking read on MySQL tells an invoiced booking from a gone one (docs/bookings.md).",
    run: (db, tx) => {
      db.affected = 0;
      return new BookingsRepository(db).holdUninvoiced(1, tx);
    },
  },
  {
    title: 'A pass used by a check-in',
    methods: ['CoworkerTimePassesRepository.claim'],
    guarantees: 'one conditional UPDATE marks the pass used while nobody has: of parallel check-ins, one uses it (docs/presence.md).',
    run: (db, tx) => new CoworkerTimePassesRepository(db).claim(1, new Date(0), null, tx),
  },
  {
    title: 'A used pass held, or given back',
    methods: ['CoworkerTimePassesRepository.holdUsed', 'CoworkerTimePassesRepository.giveBack'],
    guarantees:
      'a check-in that uses a pass of its day again holds the pass with a write that changes nothing but waits for a concurrent give-back or delete of it; a give-back is one conditional UPDATE that frees the pass only while it is used and not billed (docs/presence.md).',
    rows: [{ id: 1 }],
    run: async (db, tx) => {
      const passes = new CoworkerTimePassesRepository(db);
      await passes.holdUsed('u', tx);
      await passes.giveBack('u', null, tx);
    },
  },
  {
    title: "An event's places",
    methods: ['EventAttendeesRepository.lockPlaces'],
    guarantees:
      "on MySQL the event's row and its attendees are read with locks held until the transaction ends (SQLite has one writer), so concurrent sign-ups take turns and each counts the places taken before it.",
    rows: [{ Allocation: 10, n: 0 }],
    run: (db, tx) => new EventAttendeesRepository(db).lockPlaces(1, tx),
  },
  {
    title: "A deleted sale's unused credits and uncollected deliveries",
    methods: ['CoworkerBookingCreditsRepository.removeUnusedOfSale', 'CoworkerDeliveriesRepository.uncollectedOfSale'],
    guarantees:
      'one conditional DELETE takes only the credits still unused, and the count after it finds any used meanwhile (the delete is then refused and rolled back); the uncollected deliveries are locked on MySQL until the transaction ends, so a collect committed meanwhile is seen and a later one waits (docs/stock-and-deliveries.md).',
    rows: [{ n: 0 }],
    run: async (db, tx) => {
      await new CoworkerBookingCreditsRepository(db).removeUnusedOfSale('u', tx);
      await new CoworkerDeliveriesRepository(db).uncollectedOfSale('u', tx);
    },
  },
  {
    title: "A webhook delivery's lease",
    methods: ['WebhookDeliveriesRepository.claim', 'WebhookDeliveriesRepository.finish', 'WebhookDeliveriesRepository.release'],
    guarantees:
      "due deliveries are claimed under a lease, on MySQL with SELECT … FOR UPDATE SKIP LOCKED (SQLite has one writer), so instances claiming at once take different rows; an attempt's result (here a success, then a failure) is written only while its lease holds, and an instance gives back its leases at shutdown (docs/api.md §11.7).",
    rows: [
      { Id: 1, BusinessId: 1, WebHookId: 1, id: 1, hook: 1, event: 'e', body: '[]', attempts: 0, url: 'https://example.com', secret: 's' },
    ],
    run: async (db) => {
      const deliveries = new WebhookDeliveriesRepository(db);
      const [claimed] = await deliveries.claim('owner', 1, new Date(0), { hook: () => 1, business: () => 1, lastStarted: () => 0 });
      await deliveries.finish('owner', claimed, { ok: true, statusCode: 200, error: null, gone: false }, [60], 5);
      await deliveries.finish('owner', claimed, { ok: false, statusCode: 500, error: 'HTTP 500', gone: false }, [60], 5);
      await deliveries.release('owner');
    },
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
    db.reset(guarantee.rows);
    await guarantee.run(db, db.outsideTransaction);
    lines.push('', `-- ${guarantee.title}: ${guarantee.guarantees}`, ...db.sent.map((sql) => `${sql};`));
  }
  return `${lines.join('\n')}\n`;
}

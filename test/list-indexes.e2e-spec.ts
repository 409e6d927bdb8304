import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FIRST_DUE_DATE, seedRows } from '../bench/seed.js';
import type { Database } from '../src/persistence/database.js';
import { statementsSent, type Statement } from './support/statements.js';
import { onMySql, startApp, type TestApp } from './support/test-app.js';

// The lists back-office tools page through stay cheap as the data grows: for the SQL the service
// runs (the page and its count), the database's plan reads the record table through an index (EXPLAIN
// on MariaDB, EXPLAIN QUERY PLAN on SQLite), never the whole table; a list filtered by equality only is
// read in its order from the index, so a far page costs no sort of all the matching rows; and the count
// is made from an index alone, without reading the rows; on MariaDB the page's ids are found from an
// index alone too. (A date range listed in Id order sorts the ids in its range: those the count counts
// anyway.)

/** Runs `work` and returns the SELECTs on the record table it made the service run. */
const statementsOf = (db: Database, table: string, work: () => Promise<void>): Promise<Statement[]> =>
  statementsSent(db, (sql) => sql.includes(`FROM ${db.id(table)} r`), work);

/** The plan's steps on the record table `r`, as text, and what is wrong with them. */
async function planProblems(db: Database, { sql, parameters }: Statement, inOrder: boolean): Promise<{ plan: string; problems: string[] }> {
  const problems: string[] = [];
  const isCount = /COUNT\(\*\)/.test(sql);
  if (onMySql) {
    // As text, not as a prepared statement: MariaDB's EXPLAIN of a statement prepared again on the same
    // connection may leave "Using index" out.
    const steps = await db.query<{ select_type: string; table: string; type: string; key: string | null; Extra: string | null }>(
      `EXPLAIN ${sql}`,
      parameters,
      db.outsideTransaction,
    );
    for (const step of steps.filter((s) => s.table === 'r')) {
      if (step.type === 'ALL') problems.push('reads the whole table');
      else if (!step.key) problems.push('uses no index');
      else if (step.type === 'index' && step.key === 'PRIMARY') problems.push('reads the whole primary key');
      if (inOrder && !isCount && /filesort/i.test(step.Extra ?? '')) problems.push('sorts the rows');
      if (isCount && !/Using index(;|$)/.test(step.Extra ?? '')) problems.push('reads the rows to count them');
      // A page's ids are found first (src/records/page-query.ts): from an index alone, so a far page skips index entries, not rows.
      if (!isCount && step.select_type === 'DERIVED' && !/Using index(;|$)/.test(step.Extra ?? ''))
        problems.push("reads rows to find the page's ids");
    }
    return { plan: JSON.stringify(steps), problems };
  }
  const steps = await db.query<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, parameters);
  for (const { detail } of steps) {
    if (/^SCAN r\b/.test(detail)) problems.push(`reads the whole table or index (${detail})`);
    if (inOrder && !isCount && /TEMP B-TREE FOR ORDER BY/.test(detail)) problems.push('sorts the rows');
    if (isCount && /^SEARCH r /.test(detail) && !/COVERING INDEX/.test(detail)) problems.push('reads the rows to count them');
  }
  return { plan: steps.map((s) => s.detail).join(' | '), problems };
}

const day = (offset: number) => new Date(FIRST_DUE_DATE + offset * 86_400_000).toISOString().slice(0, 10);

describe('list indexes (EXPLAIN of the SQL the service runs)', () => {
  let app: TestApp;
  let business: number;

  before(async () => {
    app = await startApp();
    await seedRows(app.db.dataSource, { products: 2_000, invoices: 20_000 });
    // MariaDB keeps its statistics up to date in the background; have them now.
    if (onMySql) for (const table of ['invoice', 'product']) await app.db.query(`ANALYZE TABLE ${app.db.id(table)}`);
    const [{ id }] = await app.db.query<{ id: number }>(`SELECT MAX(${app.db.id('Id')}) AS id FROM ${app.db.id('business')}`);
    business = Number(id) - 3;
  });
  after(async () => app?.close());

  const lists: Array<{ name: string; table: string; path: () => string; inOrder?: boolean }> = [
    {
      name: "a page of one business's invoices",
      table: 'invoice',
      path: () => `/api/billing/invoices?Invoice_Business=${business}&size=25&page=20`,
      inOrder: true,
    },
    {
      name: "a page of one business's invoices, newest first",
      table: 'invoice',
      path: () => `/api/billing/invoices?Invoice_Business=${business}&size=25&page=3&dir=desc`,
      inOrder: true,
    },
    {
      name: "a page of one business's products",
      table: 'product',
      path: () => `/api/billing/products?Product_Business=${business}&size=25&page=4`,
      inOrder: true,
    },
    {
      name: "one business's invoices due within a month",
      table: 'invoice',
      path: () => `/api/billing/invoices?Invoice_Business=${business}&from_Invoice_DueDate=${day(200)}&to_Invoice_DueDate=${day(229)}`,
    },
    {
      name: "one business's invoices by due date",
      table: 'invoice',
      path: () => `/api/billing/invoices?Invoice_Business=${business}&orderBy=DueDate&size=25&page=5`,
      inOrder: true,
    },
    {
      name: 'all invoices due within a week',
      table: 'invoice',
      path: () => `/api/billing/invoices?from_Invoice_DueDate=${day(300)}&to_Invoice_DueDate=${day(306)}`,
    },
  ];

  // The optimiser's choice between indexes that lead with BusinessId follows its row estimates, which
  // differ from business to business: every business's far page must be read in order.
  it("a far page of every business's invoices reads the business's ids in order, from an index alone", async () => {
    const businesses = await app.db.query<{ id: number }>(`SELECT ${app.db.id('Id')} AS id FROM ${app.db.id('business')}`);
    assert.ok(businesses.length >= 20);
    for (const { id } of businesses) {
      const statements = await statementsOf(app.db, 'invoice', async () => {
        const response = await app.get(`/api/billing/invoices?Invoice_Business=${id}&size=25&page=30`);
        assert.equal(response.status, 200, response.text);
      });
      const page = statements.find((statement) => !/COUNT\(\*\)/.test(statement.sql))!;
      const { plan, problems } = await planProblems(app.db, page, true);
      assert.deepEqual(problems, [], `business ${id}: ${plan}\n${page.sql}`);
    }
  });

  for (const list of lists) {
    it(`${list.name}: ${list.inOrder ? "the page reads an index in the list's order" : 'the page reads an index'}, the count an index alone`, async () => {
      let total = 0;
      const statements = await statementsOf(app.db, list.table, async () => {
        const response = await app.get(list.path());
        assert.equal(response.status, 200, response.text);
        total = response.body.TotalItems;
      });
      assert.ok(total > 0, 'the list is not empty');
      assert.equal(statements.length, 2, 'a page and a count');
      for (const statement of statements) {
        const { plan, problems } = await planProblems(app.db, statement, list.inOrder === true);
        assert.deepEqual(problems, [], `${plan}\n${statement.sql}`);
      }
    });
  }
});

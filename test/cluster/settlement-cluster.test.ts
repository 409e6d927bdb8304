// Part of npm run test:cluster: settlement (docs/settlement.md) across two instances of the built service on
// one MariaDB database behind nginx. Payments of one invoice arriving on both instances at once never take
// it above what the contract allows, and a void racing a payment on the two instances ends as one of them.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { serverErrors, twoInstancesBehindNginx, type ClusterAnswer as Res, type TwoInstances } from '../support/cluster.js';
import type { Nginx } from '../support/nginx.js';
import type { Service } from '../support/service.js';

const ADMIN = { email: 'settlement-admin@test.example', password: 'settlement-admin-password' };
const INVOICES = '/api/billing/coworkerinvoices';
const ENTRIES = '/api/billing/coworkerledgerentries';

describe('settlement across two instances behind nginx', () => {
  let cluster: TwoInstances;
  let a: Service;
  let b: Service;
  let nginx: Nginx;
  let gbp: number;
  let business: number;
  let customer: number;

  before(async () => {
    cluster = await twoInstancesBehindNginx(ADMIN, '10.27.0.1');
    ({ a, b, nginx } = cluster);
    gbp = (await call(a.url, 'GET', '/api/sys/currencies?Currency_Code=GBP')).body.Records[0].Id;
    const gb = (await call(a.url, 'GET', '/api/sys/countries?Country_TwoDigitsCode=GB')).body.Records[0].Id;
    business = await createOk('/api/sys/businesses', { Name: 'Settled Works', CurrencyId: gbp, CountryId: gb });
    customer = await createOk('/api/spaces/coworkers', { BusinessId: business, FullName: 'Payer', Email: 'payer@example.com' });
  });

  after(() => cluster?.stop());

  const call = (base: string, method: string, path: string, json?: unknown): Promise<Res> => cluster.call(base, method, path, json);
  const createOk = (path: string, body: unknown) => cluster.createOk(path, body);
  const invoice = (total: number) =>
    createOk(INVOICES, { BusinessId: business, CoworkerId: customer, CurrencyId: gbp, TotalAmount: total, TaxAmount: 0 });
  const settledOf = async (id: number) => {
    const { PaidAmount, DueAmount, Paid, PaidOn, Void } = (await call(b.url, 'GET', `${INVOICES}/${id}`)).body;
    return { PaidAmount, DueAmount, Paid, PaidOn, Void };
  };
  /** The payments and refunds of an invoice: its entries but the service's own (INV, VOID: docs/settlement.md). */
  const entriesOf = async (id: number) =>
    ((await call(a.url, 'GET', `${ENTRIES}?CoworkerLedgerEntry_CoworkerInvoice=${id}&size=100`)).body.Records as any[]).filter(
      (entry) => !['INV', 'CRN', 'VOID'].includes(entry.Code),
    );

  it('10 parallel quarter payments of one invoice through nginx, over both instances: exactly 4 land, the invoice paid, the ledger consistent', async () => {
    for (let round = 0; round < 3; round++) {
      const id = await invoice(100);
      const answers = await Promise.all(
        Array.from({ length: 10 }, () =>
          call(nginx.url, 'POST', ENTRIES, { BusinessId: business, CoworkerId: customer, CoworkerInvoiceId: id, Credit: 25, Code: 'PAYM' }),
        ),
      );
      assert.deepEqual(serverErrors(answers), []);
      assert.deepEqual(
        new Set(answers.map((answer) => answer.upstream)),
        new Set([`127.0.0.1:${a.port}`, `127.0.0.1:${b.port}`]),
        'both instances took payments',
      );
      assert.deepEqual(
        answers.map((answer) => answer.status).sort(),
        [200, 200, 200, 200, 400, 400, 400, 400, 400, 400],
        answers.map((answer) => answer.text).join('\n'),
      );
      for (const refused of answers.filter((answer) => answer.status === 400))
        assert.equal(refused.body.Errors[0].PropertyName, 'Credit', refused.text);

      const entries = await entriesOf(id);
      assert.deepEqual(
        entries.map((entry) => entry.Id).sort(),
        answers
          .filter((answer) => answer.status === 200)
          .map((answer) => answer.body.Value.Id)
          .sort(),
        'the acknowledged payments, and only they',
      );
      const latest = entries
        .map((entry) => entry.TransactionDate as string)
        .sort()
        .at(-1);
      assert.deepEqual(await settledOf(id), { PaidAmount: 100, DueAmount: 0, Paid: true, PaidOn: latest, Void: false });
    }
    // The customer's running Balance, read on either instance, is the sum of every entry up to it.
    const all = (await call(b.url, 'GET', `${ENTRIES}?CoworkerLedgerEntry_Coworker=${customer}&size=1000`)).body.Records as any[];
    // Three invoices (INV entries of 100 each) and their twelve payments: nothing owed.
    assert.equal(all.length, 15);
    all.sort((x, y) => x.TransactionDate.localeCompare(y.TransactionDate) || x.Id - y.Id);
    let balance = 0;
    for (const entry of all) {
      balance += entry.Debit - entry.Credit;
      assert.equal(entry.Balance, balance, `Balance of entry ${entry.Id}`);
    }
    assert.equal(balance, 0);
  });

  it('VOID_INVOICE and PAY_COWORKER_INVOICE_MANUAL racing on the two instances: one wins, the state that of one serial order', async () => {
    const wins = { void: 0, pay: 0 };
    for (let round = 0; round < 8; round++) {
      const id = await invoice(40);
      const [voidOn, payOn] = round % 2 ? [a, b] : [b, a];
      const [voiding, paying] = await Promise.all([
        call(voidOn.url, 'POST', `${INVOICES}/runcommand`, { Key: 'VOID_INVOICE', Ids: [id] }),
        call(payOn.url, 'POST', `${INVOICES}/runcommand`, { Key: 'PAY_COWORKER_INVOICE_MANUAL', Ids: [id] }),
      ]);
      assert.deepEqual(serverErrors([voiding, paying]), []);
      assert.deepEqual([voiding.status, paying.status], [200, 200], `${voiding.text} ${paying.text}`);
      assert.equal([voiding.body.WasSuccessful, paying.body.WasSuccessful].filter(Boolean).length, 1, `${voiding.text} ${paying.text}`);
      const loser = voiding.body.WasSuccessful ? paying.body : voiding.body;
      assert.equal(loser.Status, 400);
      const settled = await settledOf(id);
      const entries = await entriesOf(id);
      if (voiding.body.WasSuccessful) {
        wins.void++;
        // Voided first: the payment found it void.
        assert.match(loser.Message, /void/);
        assert.deepEqual(settled, { PaidAmount: 0, DueAmount: 0, Paid: false, PaidOn: null, Void: true });
        assert.equal(entries.length, 0);
      } else {
        wins.pay++;
        // Paid first: the void found payments.
        assert.match(loser.Message, /payments/);
        assert.equal(entries.length, 1);
        assert.deepEqual(settled, { PaidAmount: 40, DueAmount: 0, Paid: true, PaidOn: entries[0].TransactionDate, Void: false });
      }
      const commands = ((await call(a.url, 'GET', `${INVOICES}/commands?id=${id}`)).body as Array<{ Key: string }>)
        .map((command) => command.Key)
        .sort();
      assert.deepEqual(
        commands,
        voiding.body.WasSuccessful ? ['COWORKER_INVOICE_PRINT'] : ['COWORKER_INVOICE_PRINT', 'COWORKER_INVOICE_REFUND'],
      );
    }
    assert.equal(wins.void + wins.pay, 8);
  });
});

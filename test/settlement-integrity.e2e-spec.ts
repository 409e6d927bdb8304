import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { InvoiceLedgerEntries1765510000000 } from '../src/database/migrations/1765510000000-InvoiceLedgerEntries.js';
import { createProduct } from './support/billing-fixtures.js';
import { create, createBusiness, createCoworker, createTariff, currencyId } from './support/fixtures.js';
import { pdfText } from './support/pdf.js';
import { tableRows } from './support/record-checks.js';
import { appPerSuite } from './support/test-app.js';

const INVOICES = '/api/billing/coworkerinvoices';
const ENTRIES = '/api/billing/coworkerledgerentries';
const CREDITS = '/api/billing/coworkerbookingcredits';
const TABLES = ['coworkerinvoice', 'coworkerledgerentry', 'coworkerinvoiceline', 'invoice_sequence', 'coworkerproduct', 'coworkercontract'];

// Settlement integrity (docs/settlement.md, issue #45): what an invoice keeps once settled, one rule for
// both doors that delete it, money that moves in cents, the service's own ledger entries (Balance is what
// the customer owes), the printed rows that add up, and booking credits that keep their invariant.
describe('settlement integrity', () => {
  const t = appPerSuite();
  let business: number;
  let gbp: number;
  let eur: number;

  before(async () => {
    gbp = await currencyId(t, 'GBP');
    eur = await currencyId(t, 'EUR');
    business = await createBusiness(t, { Name: 'Integrity Works' });
  });

  const invoice = (customer: number, total: number, tax: number, overrides: Record<string, unknown> = {}) =>
    create(t, INVOICES, {
      BusinessId: business,
      CoworkerId: customer,
      CurrencyId: gbp,
      TotalAmount: total,
      TaxAmount: tax,
      Description: 'Desk, March',
      ...overrides,
    });
  const read = async (id: number) => (await t.get(`${INVOICES}/${id}`)).body;
  const pay = (customer: number, invoiceId: number, credit: number) =>
    t.post(ENTRIES, { BusinessId: business, CoworkerId: customer, CoworkerInvoiceId: invoiceId, Credit: credit, Code: 'PAYM' });
  const run = (key: string, ids: number[], parameters: Array<{ Name: string; Value: unknown }> = []) =>
    t.post(`${INVOICES}/runcommand`, { Key: key, Ids: ids, Parameters: parameters });
  const ok = (res: { status: number; body: any }) => {
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.WasSuccessful, true, JSON.stringify(res.body));
    return res.body;
  };
  const snapshot = async () => Object.fromEntries(await Promise.all(TABLES.map(async (table) => [table, await tableRows(t, table)])));
  /** A request refused with 400 naming `field`, after which no row of the settlement tables changed. */
  const refusedNaming = async (field: string, send: () => Promise<{ status: number; body: any }>) => {
    const before = await snapshot();
    const res = await send();
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.ok(
      res.body.Errors.some((error: any) => error.PropertyName === field),
      JSON.stringify(res.body),
    );
    assert.deepEqual(await snapshot(), before);
    return res.body;
  };
  /** A record DELETE or a command refused (400, or a command's WasSuccessful false), nothing changed. */
  const refusedUnchanged = async (send: () => Promise<{ status: number; body: any }>, message?: RegExp) => {
    const before = await snapshot();
    const res = await send();
    assert.equal(res.body.WasSuccessful, false, JSON.stringify(res.body));
    assert.equal(res.body.Status, 400, JSON.stringify(res.body));
    if (message) assert.match(res.body.Message, message);
    assert.deepEqual(await snapshot(), before);
  };
  const entriesOf = async (customer: number) =>
    (await t.get(`${ENTRIES}?CoworkerLedgerEntry_Coworker=${customer}&size=1000`)).body.Records as any[];
  /** The customer's Balance: that of its last entry in TransactionDate, Id order. */
  const balanceOf = async (customer: number) => {
    const entries = (await entriesOf(customer)).sort((a, b) =>
      a.TransactionDate < b.TransactionDate ? -1 : a.TransactionDate > b.TransactionDate ? 1 : a.Id - b.Id,
    );
    return entries.length ? entries[entries.length - 1].Balance : 0;
  };
  const creditNoteOf = async (id: number, amount: number) =>
    ok(await run('COWORKER_INVOICE_CANCEL', [id], [{ Name: `Amount${id}`, Value: amount }])).Value[0].Id as number;

  describe('what a settled invoice keeps', () => {
    it('an invoice with payments, a void invoice and a credit note keep their customer and currency (400 naming the field, nothing changed)', async () => {
      const x = await createCoworker(t, business, { FullName: 'Xavier Payer' });
      const y = await createCoworker(t, business, { FullName: 'Yvonne Other' });
      const paid = await invoice(x, 100, 20);
      ok(await pay(x, paid, 40));
      const stored = await read(paid);
      await refusedNaming('CoworkerId', () => t.put(INVOICES, { ...stored, CoworkerId: y }));
      await refusedNaming('CurrencyId', () => t.put(INVOICES, { ...stored, CurrencyId: eur }));
      const voided = await invoice(x, 50, 10);
      ok(await run('VOID_INVOICE', [voided]));
      await refusedNaming('CoworkerId', async () => t.put(INVOICES, { ...(await read(voided)), CoworkerId: y }));
      const credited = await invoice(x, 60, 10);
      const note = await creditNoteOf(credited, 15);
      await refusedNaming('CoworkerId', async () => t.put(INVOICES, { ...(await read(note)), CoworkerId: y }));
      await refusedNaming('CoworkerId', async () => t.put(INVOICES, { ...(await read(credited)), CoworkerId: y }));
      await refusedNaming('CurrencyId', async () => t.put(INVOICES, { ...(await read(credited)), CurrencyId: eur }));
      // X's payment still sits on X's invoice.
      assert.equal((await read(paid)).CoworkerId, x);
      // An invoice with nothing but its INV entry may still go to another customer: its entry follows it.
      const fresh = await invoice(x, 30, 5);
      ok(await t.put(INVOICES, { ...(await read(fresh)), CoworkerId: y }));
      const moved = (await tableRows(t, 'coworkerledgerentry')).filter((row) => Number(row.CoworkerInvoiceId) === fresh);
      assert.deepEqual(
        moved.map((row) => [row.Code, Number(row.CoworkerId)]),
        [['INV', y]],
      );
    });

    it('a void invoice, a credit note and an invoice with payments or credit notes keep their amounts; PUT-back as read succeeds', async () => {
      const customer = await createCoworker(t, business);
      const voided = await invoice(customer, 80, 10);
      ok(await run('VOID_INVOICE', [voided]));
      const paid = await invoice(customer, 90, 15, { DiscountAmount: 5 });
      ok(await pay(customer, paid, 10));
      const credited = await invoice(customer, 70, 10);
      const note = await creditNoteOf(credited, 20);
      for (const id of [voided, paid, credited, note]) {
        const stored = await read(id);
        await refusedNaming('TotalAmount', () => t.put(INVOICES, { ...stored, TotalAmount: Number(stored.TotalAmount) + 1 }));
        await refusedNaming('TaxAmount', () => t.put(INVOICES, { ...stored, TaxAmount: Number(stored.TaxAmount) / 2 }));
        await refusedNaming('DiscountAmount', () => t.put(INVOICES, { ...stored, DiscountAmount: 1.5 }));
        ok(await t.put(INVOICES, stored));
        const after = await read(id);
        for (const field of ['TotalAmount', 'TaxAmount', 'DiscountAmount', 'PaidAmount', 'DueAmount', 'Void', 'CoworkerId', 'CurrencyId'])
          assert.deepEqual(after[field], stored[field], `${id} ${field}`);
      }
    });

    it('TaxAmount never exceeds TotalAmount in absolute value (400 naming TaxAmount), on create and update', async () => {
      const customer = await createCoworker(t, business);
      await refusedNaming('TaxAmount', () =>
        t.post(INVOICES, { BusinessId: business, CoworkerId: customer, CurrencyId: gbp, TotalAmount: 10, TaxAmount: 10.01 }),
      );
      await refusedNaming('TaxAmount', () =>
        t.post(INVOICES, { BusinessId: business, CoworkerId: customer, CurrencyId: gbp, TotalAmount: -10, TaxAmount: -12 }),
      );
      const id = await invoice(customer, 10, 2);
      const stored = await read(id);
      await refusedNaming('TaxAmount', () => t.put(INVOICES, { ...stored, TaxAmount: 11 }));
      await refusedNaming('TaxAmount', () => t.put(INVOICES, { ...stored, TotalAmount: 1 }));
      ok(await t.put(INVOICES, { ...stored, TotalAmount: 12, TaxAmount: 12 }));
    });
  });

  describe('one rule, two doors: a record DELETE obeys COWORKER_INVOICE_DELETE', () => {
    it('refuses what the command refuses (credit notes, payments, void, a credit note), nothing removed', async () => {
      const customer = await createCoworker(t, business);
      const credited = await invoice(customer, 100, 20);
      const note = await creditNoteOf(credited, 30);
      const paid = await invoice(customer, 40, 5);
      ok(await pay(customer, paid, 40));
      const voided = await invoice(customer, 20, 0);
      ok(await run('VOID_INVOICE', [voided]));
      for (const [id, why] of [
        [credited, /credit notes/],
        [note, /credit note/],
        [paid, /payments/],
        [voided, /void/],
      ] as const) {
        await refusedUnchanged(() => t.delete(`${INVOICES}/${id}`), why);
        await refusedUnchanged(() => run('COWORKER_INVOICE_DELETE', [id]), why);
      }
    });

    it('deletes an invoice made by a run as the command does: its lines and INV entry go, what it billed is due again', async () => {
      const customer = await createCoworker(t, business);
      const sale = await create(t, '/api/billing/coworkerproducts', {
        CoworkerId: customer,
        ProductId: await createProduct(t, business, { Price: 12.5 }),
        SaleDate: '2025-01-02',
      });
      const billRun = () =>
        t.post('/api/spaces/coworkers/runcommand', {
          Key: 'COWORKER_BILL_RUN',
          Ids: [customer],
          Parameters: [{ Name: 'Until', Value: '2025-01-31' }],
        });
      const billed = ok(await billRun()).Value[0].Id as number;
      assert.equal((await t.get(`/api/billing/coworkerproducts/${sale}`)).body.Invoiced, true);
      ok(await t.delete(`${INVOICES}/${billed}`));
      assert.equal((await t.get(`${INVOICES}/${billed}`)).status, 404);
      assert.equal((await t.get(`/api/billing/coworkerproducts/${sale}`)).body.Invoiced, false);
      const left = async (table: string) => (await tableRows(t, table)).filter((row) => Number(row.CoworkerInvoiceId) === billed).length;
      assert.equal(await left('coworkerinvoiceline'), 0);
      assert.equal(await left('coworkerledgerentry'), 0);
      assert.equal(await balanceOf(customer), 0);
      // Billed again by the next run, on a new invoice.
      const again = ok(await billRun()).Value[0].Id as number;
      assert.notEqual(again, billed);
      assert.equal(await balanceOf(customer), 12.5);
    });
  });

  describe('money that moves has at most 2 decimals; prices are never negative', () => {
    it('refuses payments and refunds of 0.001 (naming Credit, Debit) and command amounts of 0.005', async () => {
      const customer = await createCoworker(t, business);
      const id = await invoice(customer, 10, 0);
      await refusedNaming('Credit', () => pay(customer, id, 0.001));
      await refusedNaming('Credit', () => pay(customer, id, 1.005));
      await refusedNaming('Debit', () => t.post(ENTRIES, { BusinessId: business, CoworkerId: customer, Debit: 0.005 }));
      await refusedUnchanged(() => run('COWORKER_INVOICE_CANCEL', [id], [{ Name: `Amount${id}`, Value: 0.005 }]), /2 decimal/);
      ok(await pay(customer, id, 5));
      await refusedUnchanged(() => run('COWORKER_INVOICE_REFUND', [id], [{ Name: `Amount${id}`, Value: 0.001 }]), /2 decimal/);
      await refusedUnchanged(() => run('COWORKER_INVOICE_CANCEL', [id], [{ Name: `Amount${id}`, Value: 5.01 }]));
      await refusedUnchanged(() => run('COWORKER_INVOICE_CANCEL', [id], [{ Name: `Amount${id}`, Value: 0 }]));
      ok(await run('COWORKER_INVOICE_CANCEL', [id], [{ Name: `Amount${id}`, Value: 0.05 }]));
    });

    it('refuses negative prices of products, sales and contract products (400 naming Price); a price keeps 4 decimals', async () => {
      const customer = await createCoworker(t, business);
      await refusedNaming('Price', () =>
        t.post('/api/billing/products', {
          BusinessId: business,
          Name: 'Refund',
          SystemProductType: 1,
          DisplayOrder: 0,
          Price: -60,
          CurrencyId: gbp,
          AvailableAs: 3,
        }),
      );
      const product = await createProduct(t, business, { Price: 1.2345 });
      assert.equal((await t.get(`/api/billing/products/${product}`)).body.Price, 1.2345);
      await refusedNaming('Price', () =>
        t.post('/api/billing/coworkerproducts', { CoworkerId: customer, ProductId: product, SaleDate: '2025-01-02', Price: -60 }),
      );
      const contract = await create(t, '/api/billing/coworkercontracts', {
        CoworkerId: customer,
        TariffId: await createTariff(t, business, { Price: 10 }),
        StartDate: '2025-01-01',
      });
      await refusedNaming('Price', () =>
        t.post('/api/billing/contractproducts', { CoworkerContractId: contract, ProductId: product, Price: -1 }),
      );
    });
  });

  describe('the ledger says what the customer owes', () => {
    it("an invoice is an INV entry; paid in full the Balance is 0; the service's entries are not payments and cannot be changed or deleted", async () => {
      const customer = await createCoworker(t, business);
      const id = await invoice(customer, 950.06, 158.34);
      const { InvoiceNumber, CreatedOn } = await read(id);
      const [entry] = await entriesOf(customer);
      assert.deepEqual(
        [entry.Code, entry.Debit, entry.Credit, entry.Description, entry.CoworkerInvoiceId, entry.TransactionDate, entry.Balance],
        ['INV', 950.06, 0, `Invoice ${InvoiceNumber}`, id, CreatedOn, 950.06],
      );
      assert.deepEqual([(await read(id)).PaidAmount, (await read(id)).DueAmount, (await read(id)).Paid], [0, 950.06, false]);
      // While nothing is paid, a new total moves the entry with it.
      ok(await t.put(INVOICES, { ...(await read(id)), TotalAmount: 960.06 }));
      assert.equal(await balanceOf(customer), 960.06);
      ok(await run('PAY_COWORKER_INVOICE_MANUAL', [id]));
      assert.equal(await balanceOf(customer), 0);
      assert.deepEqual([(await read(id)).PaidAmount, (await read(id)).DueAmount, (await read(id)).Paid], [960.06, 0, true]);
      // The service's own entry: no PUT, no DELETE, and no client entry takes its Code.
      const own = (await entriesOf(customer)).find((e) => e.Code === 'INV');
      await refusedNaming('Code', () => t.put(ENTRIES, { ...own, Debit: 1 }));
      await refusedNaming('Code', () => t.put(ENTRIES, { ...own }));
      await refusedUnchanged(() => t.delete(`${ENTRIES}/${own.Id}`));
      await refusedNaming('Code', () => t.post(ENTRIES, { BusinessId: business, CoworkerId: customer, Debit: 5, Code: 'inv' }));
    });

    it('a credit note writes CRN naming it, a void writes VOID; a run and the raise route write INV; the command delete removes the INV entry', async () => {
      const customer = await createCoworker(t, business);
      const id = await invoice(customer, 300, 50);
      const note = await creditNoteOf(id, 100);
      const crn = (await entriesOf(customer)).find((e) => e.Code === 'CRN');
      assert.deepEqual(
        [crn.Credit, crn.Debit, crn.CoworkerInvoiceId, crn.Description],
        [100, 0, note, `Credit note ${(await read(note)).InvoiceNumber}`],
      );
      assert.equal(await balanceOf(customer), 200);
      assert.deepEqual(
        [(await read(id)).PaidAmount, (await read(id)).DueAmount, (await read(note)).PaidAmount, (await read(note)).DueAmount],
        [0, 200, 0, 0],
      );
      const other = await invoice(customer, 45.5, 7.5);
      assert.equal(await balanceOf(customer), 245.5);
      ok(await run('VOID_INVOICE', [other]));
      const voidEntry = (await entriesOf(customer)).find((e) => e.Code === 'VOID');
      assert.deepEqual([voidEntry.Credit, voidEntry.CoworkerInvoiceId], [45.5, other]);
      assert.equal(await balanceOf(customer), 200);
      assert.deepEqual([(await read(other)).PaidAmount, (await read(other)).DueAmount], [0, 0]);

      const member = await createCoworker(t, business);
      await create(t, '/api/billing/coworkerproducts', {
        CoworkerId: member,
        ProductId: await createProduct(t, business, { Price: 20 }),
        SaleDate: '2025-01-02',
      });
      const raised = ok(await t.post(`${INVOICES}/${business}/create/${member}`, {})).Value.Id as number;
      const inv = (await entriesOf(member)).filter((e) => e.Code === 'INV');
      assert.deepEqual(
        inv.map((e) => [e.CoworkerInvoiceId, e.Debit]),
        [[raised, (await read(raised)).TotalAmount]],
      );
      ok(await run('COWORKER_INVOICE_DELETE', [raised]));
      assert.deepEqual(await entriesOf(member), []);
    });
  });

  it('the back-fill migration writes the INV, CRN and VOID entries of invoices issued before them, once', async () => {
    const customer = await createCoworker(t, business, { FullName: 'Before The Ledger' });
    const first = await invoice(customer, 100, 0);
    const note = await creditNoteOf(first, 30);
    const voided = await invoice(customer, 50, 0);
    ok(await run('VOID_INVOICE', [voided]));
    const own = async () =>
      (await entriesOf(customer))
        .map((e) => [e.Code, e.CoworkerInvoiceId, e.Debit, e.Credit, e.Description, e.Code === 'VOID' ? null : e.TransactionDate])
        .sort();
    const written = await own();
    assert.equal(written.length, 4);
    // As the data was before the service wrote them.
    await t.db.query(`DELETE FROM ${t.db.id('coworkerledgerentry')} WHERE ${t.db.id('CoworkerId')} = ?`, [customer]);
    assert.equal(await balanceOf(customer), 0);
    // The migration's own SQL, on this suite's database (SQLite or MariaDB).
    const runner = {
      connection: { driver: { escape: (name: string) => t.db.id(name) } },
      query: (sql: string, parameters?: unknown[]) => t.db.query(sql, parameters),
    };
    const migration = new InvoiceLedgerEntries1765510000000();
    await migration.up(runner as never);
    assert.deepEqual(await own(), written);
    assert.equal(await balanceOf(customer), 70);
    assert.ok((await entriesOf(customer)).some((e) => e.Code === 'CRN' && e.CoworkerInvoiceId === note));
    await migration.up(runner as never);
    assert.equal((await entriesOf(customer)).length, 4);
  });

  describe('the printed invoice adds up', () => {
    it('Total, each credit note by number, paid, refunded and the amount due: rows that add up, every amount with 2 decimals and the code', async () => {
      const customer = await createCoworker(t, business);
      const id = await invoice(customer, 953.81, 158.97);
      const note = await creditNoteOf(id, 30);
      ok(await pay(customer, id, 100));
      ok(await run('COWORKER_INVOICE_REFUND', [id], [{ Name: `Amount${id}`, Value: 25 }]));
      const stored = await read(id);
      const link = ok(await run('COWORKER_INVOICE_PRINT', [id])).RedirectURL as string;
      const text = pdfText(new Uint8Array(await (await fetch(t.url + link)).arrayBuffer()));
      // Every amount printed with a currency code has exactly 2 decimals (the subtotal once read "794.8400 GBP").
      const printed = [...text.matchAll(/(-?[\d,]+(?:\.\d+)?) GBP/g)].map((m) => m[1]);
      assert.ok(printed.length >= 8, text);
      for (const amount of printed) assert.match(amount, /^-?[\d,]+\.\d{2}$/, text);
      assert.ok(text.includes('794.84 GBP'), text);
      const row = (label: string) => {
        const match = new RegExp(`^\\s*${label}\\s+(-?[\\d,]+\\.\\d{2}) GBP`, 'm').exec(text);
        assert.ok(match, `${label} in:\n${text}`);
        return Math.round(Number(match[1].replace(/,/g, '')) * 100);
      };
      const noteNumber = (await read(note)).InvoiceNumber;
      const rows = [row('Total'), row(`Credit note ${noteNumber}`), row('Paid'), row('Refunded'), row('Refunds not due again')];
      assert.deepEqual(rows, [95381, -3000, -10000, 2500, -2500]);
      assert.equal(row('Amount due'), Math.round(stored.DueAmount * 100));
      assert.equal(
        rows.reduce((a, b) => a + b, 0),
        row('Amount due'),
      );
    });
  });

  describe('booking credits keep Remaining = Total − Σ unreturned uses', () => {
    it('a credit read before a booking and PUT back after restores nothing; a RemainingCredit sent is ignored; a TotalCredit below the uses is 400', async () => {
      const customer = await createCoworker(t, business);
      const type = await create(t, '/api/spaces/resourcetypes', { BusinessId: business, Name: 'Rooms' });
      const room = await create(t, '/api/spaces/resources', {
        BusinessId: business,
        Name: 'Room A',
        ResourceTypeId: type,
        HourlyPrice: 20,
      });
      const credit = await create(t, CREDITS, { CoworkerId: customer, BusinessId: business, TotalCredit: 30, CaneBeUsedForBookings: true });
      const readBefore = (await t.get(`${CREDITS}/${credit}`)).body;
      await create(t, '/api/spaces/bookings', {
        ResourceId: room,
        CoworkerId: customer,
        FromTime: '2031-03-03T09:00:00Z',
        ToTime: '2031-03-03T10:00:00Z',
      });
      const remaining = async () => (await t.get(`${CREDITS}/${credit}`)).body.RemainingCredit;
      assert.equal(await remaining(), 10);
      ok(await t.put(CREDITS, readBefore));
      assert.equal(await remaining(), 10);
      ok(await t.put(CREDITS, { ...readBefore, RemainingCredit: 1000 }));
      assert.equal(await remaining(), 10);
      await refusedNaming('TotalCredit', () => t.put(CREDITS, { ...readBefore, TotalCredit: 19.99 }));
      ok(await t.put(CREDITS, { ...readBefore, TotalCredit: 45 }));
      assert.equal(await remaining(), 25);
    });

    it('PUT-backs racing bookings on one credit: Remaining = Total − Σ unreturned uses afterwards', async () => {
      const customer = await createCoworker(t, business);
      const type = await create(t, '/api/spaces/resourcetypes', { BusinessId: business, Name: 'Desks' });
      const desk = await create(t, '/api/spaces/resources', {
        BusinessId: business,
        Name: 'Desk R',
        ResourceTypeId: type,
        HourlyPrice: 10,
      });
      const credit = await create(t, CREDITS, {
        CoworkerId: customer,
        BusinessId: business,
        TotalCredit: 100,
        CaneBeUsedForBookings: true,
      });
      const readBefore = (await t.get(`${CREDITS}/${credit}`)).body;
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          i % 2
            ? t.put(CREDITS, readBefore)
            : t.post('/api/spaces/bookings', {
                ResourceId: desk,
                CoworkerId: customer,
                FromTime: `2031-04-0${1 + i / 2}T09:00:00Z`,
                ToTime: `2031-04-0${1 + i / 2}T10:00:00Z`,
              }),
        ),
      );
      for (const answer of answers) assert.equal(answer.status, 200, JSON.stringify(answer.body));
      const uses = (
        (
          await t.get(
            `/api/billing/coworkerbookingcreditusehistories?CoworkerBookingCreditUseHistory_CoworkerBookingCredit=${credit}&size=100`,
          )
        ).body.Records as any[]
      ).filter((use) => !use.Returned);
      assert.equal(
        uses.reduce((total, use) => total + use.CreditUsed, 0),
        50,
      );
      assert.equal((await t.get(`${CREDITS}/${credit}`)).body.RemainingCredit, 50);
    });

    it('without uses, RemainingCredit is at most TotalCredit (400 naming RemainingCredit)', async () => {
      const customer = await createCoworker(t, business);
      await refusedNaming('RemainingCredit', () =>
        t.post(CREDITS, { CoworkerId: customer, BusinessId: business, TotalCredit: 30, RemainingCredit: 1000 }),
      );
      const credit = await create(t, CREDITS, { CoworkerId: customer, BusinessId: business, TotalCredit: 30, RemainingCredit: 12 });
      const stored = (await t.get(`${CREDITS}/${credit}`)).body;
      await refusedNaming('RemainingCredit', () => t.put(CREDITS, { ...stored, RemainingCredit: 30.01 }));
      ok(await t.put(CREDITS, { ...stored, RemainingCredit: 30 }));
      assert.equal((await t.get(`${CREDITS}/${credit}`)).body.RemainingCredit, 30);
    });
  });
});

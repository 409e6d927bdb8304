import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { unzipSync } from 'fflate';
import { create, createBusiness, createCoworker, currencyId } from './support/fixtures.js';
import { pdfText } from './support/pdf.js';
import { tableRows } from './support/record-checks.js';
import { appPerSuite } from './support/test-app.js';

const INVOICES = '/api/billing/coworkerinvoices';
const ENTRIES = '/api/billing/coworkerledgerentries';
const SETTLEMENT_TABLES = ['coworkerinvoice', 'coworkerledgerentry', 'coworkerinvoiceline', 'invoice_sequence'];

// Settlement (docs/api.md §10, docs/settlement.md): payments as ledger entries, the invoice commands,
// the PDF and its download.
describe('settlement', () => {
  const t = appPerSuite();
  let business: number;
  let customer: number;
  let gbp: number;

  before(async () => {
    gbp = await currencyId(t, 'GBP');
    business = await createBusiness(t, { Name: 'Café Coworking Łódź', Address: 'ul. Piotrkowska 101', City: 'Łódź' });
    customer = await createCoworker(t, business, { FullName: 'Zoë Šťastná Дмитрий Ανδρέας', City: 'Kraków', Address: 'Ulica Łódzka 5' });
  });

  const invoice = (total = 120, overrides: Record<string, unknown> = {}) =>
    create(t, INVOICES, {
      BusinessId: business,
      CoworkerId: customer,
      CurrencyId: gbp,
      TotalAmount: total,
      TaxAmount: Math.min(20, Math.abs(total)),
      Description: 'Membership, March',
      ...overrides,
    });
  const read = async (id: number) => (await t.get(`${INVOICES}/${id}`)).body;
  const pay = (invoiceId: number, credit: number, extra: Record<string, unknown> = {}) =>
    t.post(ENTRIES, { BusinessId: business, CoworkerId: customer, CoworkerInvoiceId: invoiceId, Credit: credit, Code: 'PAYM', ...extra });
  const run = (key: string, ids: number[], parameters: Array<{ Name: string; Value: unknown }> = []) =>
    t.post(`${INVOICES}/runcommand`, { Key: key, Ids: ids, Parameters: parameters });
  const allowed = async (id: number) =>
    ((await t.get(`${INVOICES}/commands?id=${id}`)).body as Array<{ Key: string }>).map((c) => c.Key).sort();
  const settledOf = async (id: number) => {
    const { PaidAmount, DueAmount, Paid, PaidOn, Void, CreditNote, Refunded, RefundedAmount } = await read(id);
    return { PaidAmount, DueAmount, Paid, PaidOn, Void, CreditNote, Refunded, RefundedAmount };
  };
  const snapshot = async () =>
    Object.fromEntries(await Promise.all(SETTLEMENT_TABLES.map(async (table) => [table, await tableRows(t, table)])));
  /** A refused command: HTTP 200, WasSuccessful false, Status 400, and nothing written anywhere. */
  const refusedCommand = async (key: string, ids: number[], parameters: Array<{ Name: string; Value: unknown }> = [], message?: RegExp) => {
    const before = await snapshot();
    const res = await run(key, ids, parameters);
    assert.equal(res.status, 200);
    assert.equal(res.body.WasSuccessful, false, JSON.stringify(res.body));
    assert.equal(res.body.Status, 400);
    if (message) assert.match(res.body.Message, message);
    assert.deepEqual(await snapshot(), before);
    return res.body;
  };
  const ok = (res: { status: number; body: any }) => {
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.WasSuccessful, true, JSON.stringify(res.body));
    return res.body;
  };

  describe('ledger entries', () => {
    it('read a running Balance in TransactionDate, Id order and the invoice number; a Balance sent is ignored', async () => {
      const other = await createCoworker(t, business, { FullName: 'Balance Only' });
      const entry = (body: Record<string, unknown>) => create(t, ENTRIES, { BusinessId: business, CoworkerId: other, ...body });
      const charge = await entry({ Debit: 100.1, TransactionDate: '2025-01-10T00:00:00Z', Description: 'Charge', Balance: 999 });
      const paid = await entry({ Credit: 30.2, TransactionDate: '2025-01-20T00:00:00Z' });
      const earlier = await entry({ Debit: 0.1, TransactionDate: '2025-01-05T00:00:00Z' });
      const sameTime = await entry({ Credit: 0.2, TransactionDate: '2025-01-20T00:00:00Z' });
      const balance = async (id: number) => (await t.get(`${ENTRIES}/${id}`)).body.Balance;
      assert.equal(await balance(earlier), 0.1);
      assert.equal(await balance(charge), 100.2);
      assert.equal(await balance(paid), 70);
      assert.equal(await balance(sameTime), 69.8);
      const record = (await t.get(`${ENTRIES}/${charge}`)).body;
      assert.equal(record.PaymentGatewayName, 11);
      assert.equal(record.CoworkerInvoiceNumber, null);
      const id = await invoice(10);
      const res = ok(await pay(id, 4));
      assert.equal((await t.get(`${ENTRIES}/${res.Value.Id}`)).body.CoworkerInvoiceNumber, (await read(id)).InvoiceNumber);
    });

    it('refuse an entry without exactly one of Debit and Credit above 0 (400 naming Credit), an invoice of another customer, and write nothing', async () => {
      const id = await invoice(10);
      const other = await createCoworker(t, business, { FullName: 'Someone Else' });
      for (const body of [{}, { Debit: 0, Credit: 0 }, { Debit: 5, Credit: 5 }, { Credit: -5 }]) {
        const before = await snapshot();
        const res = await t.post(ENTRIES, { BusinessId: business, CoworkerId: customer, ...body });
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.ok(
          res.body.Errors.some((e: any) => e.PropertyName === 'Credit'),
          JSON.stringify(res.body),
        );
        assert.deepEqual(await snapshot(), before);
      }
      const before = await snapshot();
      const res = await t.post(ENTRIES, { BusinessId: business, CoworkerId: other, CoworkerInvoiceId: id, Credit: 1 });
      assert.equal(res.status, 400);
      assert.equal(res.body.Errors[0].PropertyName, 'CoworkerInvoiceId');
      const method = await t.post(ENTRIES, { BusinessId: business, CoworkerId: customer, Credit: 1, PaymentGatewayName: 10 });
      assert.equal(method.status, 400);
      assert.equal(method.body.Errors[0].PropertyName, 'PaymentGatewayName');
      assert.deepEqual(await snapshot(), before);
    });

    it('ePaymentProvider is listed by /api/utils/enums', async () => {
      const values = (await t.get('/api/utils/enums?name=ePaymentProvider')).body;
      for (const value of [
        { Id: 0, Name: 'None' },
        { Id: 11, Name: 'Manual' },
        { Id: 994, Name: 'Credit' },
        { Id: 999, Name: 'Other' },
      ])
        assert.ok(
          values.some((v: any) => v.Id === value.Id && v.Name === value.Name),
          value.Name,
        );
      assert.ok(!values.some((v: any) => v.Id === 10));
    });
  });

  describe('payments', () => {
    it("a partial then a full payment: PaidAmount, DueAmount, and PaidOn the settling payment's date", async () => {
      const id = await invoice(120);
      assert.deepEqual(await settledOf(id), {
        PaidAmount: 0,
        DueAmount: 120,
        Paid: false,
        PaidOn: null,
        Void: false,
        CreditNote: false,
        Refunded: false,
        RefundedAmount: 0,
      });
      ok(await pay(id, 50.25, { TransactionDate: '2025-03-02T10:00:00Z' }));
      assert.deepEqual(await settledOf(id), {
        PaidAmount: 50.25,
        DueAmount: 69.75,
        Paid: false,
        PaidOn: null,
        Void: false,
        CreditNote: false,
        Refunded: false,
        RefundedAmount: 0,
      });
      ok(await pay(id, 69.75, { TransactionDate: '2025-03-09T15:30:00Z' }));
      assert.deepEqual(await settledOf(id), {
        PaidAmount: 120,
        DueAmount: 0,
        Paid: true,
        PaidOn: '2025-03-09T15:30:00Z',
        Void: false,
        CreditNote: false,
        Refunded: false,
        RefundedAmount: 0,
      });
    });

    it('refuses an overpayment, naming Credit, and changes nothing', async () => {
      const id = await invoice(100);
      ok(await pay(id, 60));
      const before = await snapshot();
      const res = await pay(id, 40.0001);
      assert.equal(res.status, 400);
      assert.equal(res.body.Errors[0].PropertyName, 'Credit');
      assert.deepEqual(await snapshot(), before);
      ok(await pay(id, 40));
      const after = await snapshot();
      assert.equal((await pay(id, 0.01)).status, 400);
      assert.deepEqual(await snapshot(), after);
    });

    it('an edited payment is checked without its own earlier amount and recomputes; a deleted one too', async () => {
      const id = await invoice(100);
      const first = ok(await pay(id, 30, { TransactionDate: '2025-04-01T00:00:00Z' })).Value.Id;
      const second = ok(await pay(id, 70, { TransactionDate: '2025-04-05T00:00:00Z' })).Value.Id;
      assert.equal((await read(id)).Paid, true);
      // 70 → 60: due 10 again, not paid.
      ok(await t.put(`${ENTRIES}/${second}`, { Credit: 60 }));
      assert.deepEqual(await settledOf(id), {
        PaidAmount: 90,
        DueAmount: 10,
        Paid: false,
        PaidOn: null,
        Void: false,
        CreditNote: false,
        Refunded: false,
        RefundedAmount: 0,
      });
      // 30 → 40 (its own 30 not counted): paid again, PaidOn the latest payment's date.
      ok(await t.put(`${ENTRIES}/${first}`, { Credit: 40, TransactionDate: '2025-04-07T00:00:00Z' }));
      assert.deepEqual(await settledOf(id), {
        PaidAmount: 100,
        DueAmount: 0,
        Paid: true,
        PaidOn: '2025-04-07T00:00:00Z',
        Void: false,
        CreditNote: false,
        Refunded: false,
        RefundedAmount: 0,
      });
      const before = await snapshot();
      const res = await t.put(`${ENTRIES}/${first}`, { Credit: 40.01 });
      assert.equal(res.status, 400);
      assert.equal(res.body.Errors[0].PropertyName, 'Credit');
      assert.deepEqual(await snapshot(), before);
      ok(await t.delete(`${ENTRIES}/${second}`));
      assert.deepEqual(await settledOf(id), {
        PaidAmount: 40,
        DueAmount: 60,
        Paid: false,
        PaidOn: null,
        Void: false,
        CreditNote: false,
        Refunded: false,
        RefundedAmount: 0,
      });
    });

    it('PUT of an invoice as read changes none of its settled fields; a POST cannot set them either', async () => {
      const id = await invoice(80, { Paid: true, PaidOn: '2025-01-01T00:00:00Z', Void: true, PaidAmount: 80, DueAmount: 0 });
      assert.deepEqual(await settledOf(id), {
        PaidAmount: 0,
        DueAmount: 80,
        Paid: false,
        PaidOn: null,
        Void: false,
        CreditNote: false,
        Refunded: false,
        RefundedAmount: 0,
      });
      ok(await pay(id, 30));
      const stored = await read(id);
      const forged = {
        ...stored,
        Paid: true,
        PaidOn: '2020-01-01T00:00:00Z',
        Void: true,
        PaidAmount: 1,
        DueAmount: 2,
        CreditNote: true,
        Refunded: true,
        RefundedAmount: 3,
        RefundedOn: '2020-01-01T00:00:00Z',
      };
      ok(await t.put(INVOICES, stored));
      ok(await t.put(INVOICES, forged));
      assert.deepEqual(await settledOf(id), {
        PaidAmount: 30,
        DueAmount: 50,
        Paid: false,
        PaidOn: null,
        Void: false,
        CreditNote: false,
        Refunded: false,
        RefundedAmount: 0,
      });
      // An invoice with payments keeps its amounts (docs/settlement.md): a new total is refused, naming it.
      for (const total of [30, 29.99]) {
        const before = await snapshot();
        const res = await t.put(`${INVOICES}/${id}`, { ...stored, TotalAmount: total });
        assert.equal(res.status, 400);
        assert.equal(res.body.Errors[0].PropertyName, 'TotalAmount');
        assert.deepEqual(await snapshot(), before);
      }
      // Without payments or credit notes, a new total (an invoice without lines) moves what is due.
      const unpaid = await invoice(80);
      ok(await t.put(`${INVOICES}/${unpaid}`, { ...(await read(unpaid)), TotalAmount: 30 }));
      assert.deepEqual(await settledOf(unpaid), {
        PaidAmount: 0,
        DueAmount: 30,
        Paid: false,
        PaidOn: null,
        Void: false,
        CreditNote: false,
        Refunded: false,
        RefundedAmount: 0,
      });
    });

    it('10 parallel quarter payments of one invoice: exactly 4 land, the others are refused', async () => {
      const id = await invoice(100);
      const answers = await Promise.all(Array.from({ length: 10 }, () => pay(id, 25)));
      assert.deepEqual(answers.map((a) => a.status).sort(), [200, 200, 200, 200, 400, 400, 400, 400, 400, 400]);
      for (const refused of answers.filter((a) => a.status === 400)) assert.equal(refused.body.Errors[0].PropertyName, 'Credit');
      assert.deepEqual(await settledOf(id), {
        PaidAmount: 100,
        DueAmount: 0,
        Paid: true,
        PaidOn: (await read(id)).PaidOn,
        Void: false,
        CreditNote: false,
        Refunded: false,
        RefundedAmount: 0,
      });
      assert.equal(
        (await tableRows(t, 'coworkerledgerentry')).filter((row) => Number(row.CoworkerInvoiceId) === id && row.Code === 'PAYM').length,
        4,
      );
    });
  });

  describe('commands', () => {
    it('lists exactly what each state allows', async () => {
      const fresh = await invoice(100);
      assert.deepEqual(await allowed(fresh), [
        'COWORKER_INVOICE_CANCEL',
        'COWORKER_INVOICE_DELETE',
        'COWORKER_INVOICE_PRINT',
        'PAY_COWORKER_INVOICE_MANUAL',
        'VOID_INVOICE',
      ]);
      ok(await pay(fresh, 40));
      assert.deepEqual(await allowed(fresh), [
        'COWORKER_INVOICE_CANCEL',
        'COWORKER_INVOICE_PRINT',
        'COWORKER_INVOICE_REFUND',
        'PAY_COWORKER_INVOICE_MANUAL',
      ]);
      ok(await pay(fresh, 60));
      assert.deepEqual(await allowed(fresh), ['COWORKER_INVOICE_PRINT', 'COWORKER_INVOICE_REFUND']);
      const voided = await invoice(100);
      ok(await run('VOID_INVOICE', [voided]));
      assert.deepEqual(await allowed(voided), ['COWORKER_INVOICE_PRINT']);
      const credited = await invoice(100);
      const note = ok(await run('COWORKER_INVOICE_CANCEL', [credited], [{ Name: `Amount${credited}`, Value: 30 }])).Value[0].Id;
      assert.deepEqual(await allowed(credited), ['COWORKER_INVOICE_CANCEL', 'COWORKER_INVOICE_PRINT', 'PAY_COWORKER_INVOICE_MANUAL']);
      // A credit note has its line: it can be exported as an e-invoice (docs/api.md §14.1); the invoices above, made by POST, have none.
      assert.deepEqual(await allowed(note), ['COWORKER_INVOICE_EXPORT_EN16931', 'COWORKER_INVOICE_PRINT']);
    });

    it('PAY_COWORKER_INVOICE_MANUAL pays what is due with the method and date given; refused with nothing due', async () => {
      const id = await invoice(120);
      ok(await pay(id, 20, { TransactionDate: '2025-05-01T00:00:00Z' }));
      ok(
        await run(
          'PAY_COWORKER_INVOICE_MANUAL',
          [id],
          [
            { Name: 'Payment Method', Value: '996' },
            { Name: 'TransactionDate', Value: '2025-05-06T07:08:09Z' },
          ],
        ),
      );
      assert.deepEqual(await settledOf(id), {
        PaidAmount: 120,
        DueAmount: 0,
        Paid: true,
        PaidOn: '2025-05-06T07:08:09Z',
        Void: false,
        CreditNote: false,
        Refunded: false,
        RefundedAmount: 0,
      });
      const entry = (await t.get(`${ENTRIES}?CoworkerLedgerEntry_CoworkerInvoice=${id}&orderBy=Id&dir=desc`)).body.Records[0];
      assert.equal(entry.Credit, 100);
      assert.equal(entry.PaymentGatewayName, 996);
      await refusedCommand('PAY_COWORKER_INVOICE_MANUAL', [id], [], /nothing due/);
      const other = await invoice(10);
      await refusedCommand('PAY_COWORKER_INVOICE_MANUAL', [other, id]);
      await refusedCommand('PAY_COWORKER_INVOICE_MANUAL', [other], [{ Name: 'Payment Method', Value: 10 }], /Payment Method/);
    });

    it('VOID_INVOICE: void with nothing due; refused when void already, paid in part, credited, or a credit note; a void invoice cannot be paid', async () => {
      const id = await invoice(120);
      ok(await run('VOID_INVOICE', [id]));
      assert.deepEqual(await settledOf(id), {
        PaidAmount: 0,
        DueAmount: 0,
        Paid: false,
        PaidOn: null,
        Void: true,
        CreditNote: false,
        Refunded: false,
        RefundedAmount: 0,
      });
      await refusedCommand('VOID_INVOICE', [id], [], /already void/);
      const before = await snapshot();
      const payment = await pay(id, 1);
      assert.equal(payment.status, 400);
      assert.equal(payment.body.Errors[0].PropertyName, 'Credit');
      assert.deepEqual(await snapshot(), before);
      const paid = await invoice(50);
      ok(await pay(paid, 10));
      await refusedCommand('VOID_INVOICE', [paid], [], /payments/);
      const credited = await invoice(50);
      const note = ok(await run('COWORKER_INVOICE_CANCEL', [credited], [{ Name: `Amount${credited}`, Value: 5 }])).Value[0].Id;
      await refusedCommand('VOID_INVOICE', [credited], [], /credit notes/);
      await refusedCommand('VOID_INVOICE', [note], [], /credit note/);
    });

    it('COWORKER_INVOICE_CANCEL: a numbered credit note of one line, tax in proportion; preview writes nothing; bounded by what is due', async () => {
      const id = await invoice(120);
      const original = await read(id);
      const preview = ok(
        await run(
          'COWORKER_INVOICE_CANCEL',
          [id],
          [
            { Name: `Amount${id}`, Value: '50' },
            { Name: 'Preview', Value: 'true' },
          ],
        ),
      );
      assert.deepEqual(preview.Value, [
        {
          CoworkerInvoiceId: id,
          CoworkerId: customer,
          CurrencyId: gbp,
          TotalAmount: -50,
          TaxAmount: -8.33,
          CreditNote: true,
          OriginalInvoiceGuid: original.UniqueId,
        },
      ]);
      const before = await snapshot();
      ok(
        await run(
          'COWORKER_INVOICE_CANCEL',
          [id],
          [
            { Name: `Amount${id}`, Value: 50 },
            { Name: 'Preview', Value: true },
          ],
        ),
      );
      assert.deepEqual(await snapshot(), before);

      const answer = ok(
        await run(
          'COWORKER_INVOICE_CANCEL',
          [id],
          [
            { Name: `Amount${id}`, Value: 50 },
            { Name: 'DoNotApplyCreditAutomatically', Value: true },
          ],
        ),
      );
      const note = await read(answer.Value[0].Id);
      assert.equal(Number(note.InvoiceNumber), Number(original.InvoiceNumber) + 1);
      assert.equal(note.CreditNote, true);
      assert.equal(note.OriginalInvoiceGuid, original.UniqueId);
      assert.equal(note.TotalAmount, -50);
      assert.equal(note.TaxAmount, -8.33);
      assert.equal(note.PaidAmount, 0);
      assert.equal(note.DueAmount, 0);
      assert.equal(note.Paid, false);
      assert.equal(note.CoworkerId, customer);
      assert.equal(note.BillToName, original.BillToName);
      const lines = (await t.get(`/api/billing/coworkerinvoicelines?CoworkerInvoiceLine_CoworkerInvoice=${note.Id}`)).body.Records;
      assert.equal(lines.length, 1);
      assert.equal(lines[0].TotalAmount, -50);
      assert.equal(lines[0].TaxAmount, -8.33);
      assert.equal(lines[0].SubTotal, -41.67);
      assert.equal((await read(id)).DueAmount, 70);

      await refusedCommand('COWORKER_INVOICE_CANCEL', [id], [{ Name: `Amount${id}`, Value: 70.01 }], /over what is due/);
      await refusedCommand('COWORKER_INVOICE_CANCEL', [id], [{ Name: `Amount${id}`, Value: 0 }], /above 0/);
      await refusedCommand('COWORKER_INVOICE_CANCEL', [note.Id], [], /credit note/);
      // The rest by default: nothing due then, so neither payment nor another credit note.
      ok(await run('COWORKER_INVOICE_CANCEL', [id]));
      assert.deepEqual(await settledOf(id), {
        PaidAmount: 0,
        DueAmount: 0,
        Paid: false,
        PaidOn: null,
        Void: false,
        CreditNote: false,
        Refunded: false,
        RefundedAmount: 0,
      });
      await refusedCommand('COWORKER_INVOICE_CANCEL', [id], [], /nothing due/);
      const payment = await pay(id, 1);
      assert.equal(payment.status, 400);
      const voided = await invoice(10);
      ok(await run('VOID_INVOICE', [voided]));
      await refusedCommand('COWORKER_INVOICE_CANCEL', [voided], [], /void/);
      // A credit note cannot be paid.
      assert.equal((await pay(note.Id, 1)).status, 400);
    });

    it('parallel credit notes of one invoice never credit more than was due', async () => {
      const id = await invoice(100);
      const answers = await Promise.all(
        Array.from({ length: 6 }, () => run('COWORKER_INVOICE_CANCEL', [id], [{ Name: `Amount${id}`, Value: 30 }])),
      );
      assert.equal(answers.filter((a) => a.body.WasSuccessful === true).length, 3);
      assert.equal((await read(id)).DueAmount, 10);
      const notes = (
        await t.get(`${INVOICES}?CoworkerInvoice_CreditNote=true&CoworkerInvoice_OriginalInvoiceGuid=${(await read(id)).UniqueId}`)
      ).body.Records;
      assert.equal(notes.length, 3);
      assert.equal(new Set(notes.map((n: any) => n.InvoiceNumber)).size, 3);
    });

    it('COWORKER_INVOICE_REFUND: a Debit entry, Refunded; bounded by what was paid and not refunded; the invoice stays paid', async () => {
      const id = await invoice(120);
      await refusedCommand('COWORKER_INVOICE_REFUND', [id], [], /no payment left/);
      ok(await run('PAY_COWORKER_INVOICE_MANUAL', [id]));
      ok(
        await run(
          'COWORKER_INVOICE_REFUND',
          [id],
          [
            { Name: `Amount${id}`, Value: 20 },
            { Name: 'ePaymentProvider0', Value: 997 },
          ],
        ),
      );
      const refunded = await read(id);
      assert.equal(refunded.Refunded, true);
      assert.equal(refunded.RefundedAmount, 20);
      assert.ok(refunded.RefundedOn);
      assert.equal(refunded.Paid, true);
      assert.equal(refunded.DueAmount, 0);
      const entry = (await t.get(`${ENTRIES}?CoworkerLedgerEntry_CoworkerInvoice=${id}&orderBy=Id&dir=desc`)).body.Records[0];
      assert.equal(entry.Debit, 20);
      assert.equal(entry.PaymentGatewayName, 997);
      await refusedCommand('COWORKER_INVOICE_REFUND', [id], [{ Name: `Amount${id}`, Value: 100.01 }], /over what was paid/);
      // A refund written as a Debit entry is bounded the same way.
      const before = await snapshot();
      const direct = await t.post(ENTRIES, { BusinessId: business, CoworkerId: customer, CoworkerInvoiceId: id, Debit: 100.01 });
      assert.equal(direct.status, 400);
      assert.equal(direct.body.Errors[0].PropertyName, 'Debit');
      assert.deepEqual(await snapshot(), before);
      ok(await run('COWORKER_INVOICE_REFUND', [id]));
      assert.equal((await read(id)).RefundedAmount, 120);
      await refusedCommand('COWORKER_INVOICE_REFUND', [id], [], /no payment left/);
      // A payment cannot be deleted below what was refunded.
      const payment = (await t.get(`${ENTRIES}?CoworkerLedgerEntry_CoworkerInvoice=${id}&from_CoworkerLedgerEntry_Credit=0.01`)).body
        .Records[0];
      const kept = await snapshot();
      assert.equal((await t.delete(`${ENTRIES}/${payment.Id}`)).status, 400);
      assert.deepEqual(await snapshot(), kept);
    });

    it('COWORKER_INVOICE_REFUND refuses an amount of 0 and an unknown ePaymentProvider0; every command refuses an id that does not exist, writing nothing', async () => {
      const id = await invoice(30);
      ok(await run('PAY_COWORKER_INVOICE_MANUAL', [id]));
      await refusedCommand('COWORKER_INVOICE_REFUND', [id], [{ Name: `Amount${id}`, Value: 0 }], /above 0/);
      await refusedCommand('COWORKER_INVOICE_REFUND', [id], [{ Name: 'ePaymentProvider0', Value: 10 }], /ePaymentProvider0/);
      const missing = id + 100_000;
      const downloads = await tableRows(t, 'download_file');
      for (const key of [
        'PAY_COWORKER_INVOICE_MANUAL',
        'VOID_INVOICE',
        'COWORKER_INVOICE_CANCEL',
        'COWORKER_INVOICE_REFUND',
        'COWORKER_INVOICE_DELETE',
        'COWORKER_INVOICE_PRINT',
      ]) {
        await refusedCommand(key, [missing], [], /does not exist/);
      }
      // One unknown id after a known one refuses both: no PDF is made for the known one.
      await refusedCommand('COWORKER_INVOICE_PRINT', [id, missing], [], /does not exist/);
      assert.equal((await tableRows(t, 'download_file')).length, downloads.length, 'no PDF stored');
    });

    it('COWORKER_INVOICE_DELETE: deletes an invoice with nothing paid or credited, whose number is never used again; refused otherwise', async () => {
      const id = await invoice(50);
      const { InvoiceNumber } = await read(id);
      ok(await run('COWORKER_INVOICE_DELETE', [id]));
      assert.equal((await t.get(`${INVOICES}/${id}`)).status, 404);
      const next = await read(await invoice(50));
      assert.ok(Number(next.InvoiceNumber) > Number(InvoiceNumber));
      ok(await pay(next.Id, 1));
      await refusedCommand('COWORKER_INVOICE_DELETE', [next.Id], [], /payments/);
      const voided = await invoice(5);
      ok(await run('VOID_INVOICE', [voided]));
      await refusedCommand('COWORKER_INVOICE_DELETE', [voided], [], /void/);
      const credited = await invoice(5);
      const note = ok(await run('COWORKER_INVOICE_CANCEL', [credited], [{ Name: `Amount${credited}`, Value: 1 }])).Value[0].Id;
      await refusedCommand('COWORKER_INVOICE_DELETE', [credited], [], /credit notes/);
      await refusedCommand('COWORKER_INVOICE_DELETE', [note], [], /credit note/);
      // All or nothing: one refused id keeps the others.
      const fine = await invoice(5);
      await refusedCommand('COWORKER_INVOICE_DELETE', [fine, voided]);
      assert.equal((await t.get(`${INVOICES}/${fine}`)).status, 200);
    });

    it('void and pay racing on one invoice: one wins, the other is refused', async () => {
      for (let round = 0; round < 5; round++) {
        const id = await invoice(40);
        const [voiding, paying] = await Promise.all([run('VOID_INVOICE', [id]), run('PAY_COWORKER_INVOICE_MANUAL', [id])]);
        assert.equal(
          [voiding.body.WasSuccessful, paying.body.WasSuccessful].filter(Boolean).length,
          1,
          JSON.stringify([voiding.body, paying.body]),
        );
        const settled = await settledOf(id);
        if (voiding.body.WasSuccessful) assert.deepEqual([settled.Void, settled.PaidAmount, settled.DueAmount], [true, 0, 0]);
        else assert.deepEqual([settled.Void, settled.Paid, settled.PaidAmount], [false, true, 40]);
        // Besides its INV entry: a VOID entry, or one payment.
        const entries = (await tableRows(t, 'coworkerledgerentry')).filter(
          (row) => Number(row.CoworkerInvoiceId) === id && row.Code !== 'INV',
        );
        assert.deepEqual(
          entries.map((row) => row.Code),
          voiding.body.WasSuccessful ? ['VOID'] : ['PAYM'],
        );
      }
    });
  });

  describe('the PDF and its download', () => {
    it('COWORKER_INVOICE_PRINT answers a link that works without credentials; the PDF holds the number, bill-to, lines and totals', async () => {
      const id = await invoice(120);
      ok(await pay(id, 20));
      const { InvoiceNumber, BillToName } = await read(id);
      const answer = ok(await run('COWORKER_INVOICE_PRINT', [id]));
      assert.match(
        answer.RedirectURL,
        /^\/ContentDownload\/DownloadTempDataFile\?uniqueId=[A-Za-z0-9_-]{43}&downloadFileName=Invoice-\d+\.pdf$/,
      );
      const res = await fetch(t.url + answer.RedirectURL);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'application/pdf');
      assert.match(res.headers.get('content-disposition')!, /attachment; filename="Invoice-\d+\.pdf"/);
      const text = pdfText(new Uint8Array(await res.arrayBuffer()));
      for (const expected of [
        'Café Coworking Łódź',
        'INVOICE',
        InvoiceNumber,
        BillToName,
        'Zoë Šťastná Дмитрий Ανδρέας',
        'Membership, March',
        '120.00 GBP',
        '20.00 GBP',
        '100.00 GBP',
      ]) {
        assert.ok(text.includes(expected), `${expected} in:\n${text}`);
      }
      // With credentials too, and again.
      assert.equal((await fetch(t.url + answer.RedirectURL, { headers: { authorization: t.adminAuth } })).status, 200);
    });

    it('a credit note and a void invoice say so', async () => {
      const voided = await invoice(10);
      ok(await run('VOID_INVOICE', [voided]));
      const credited = await invoice(120);
      const note = ok(await run('COWORKER_INVOICE_CANCEL', [credited], [{ Name: `Amount${credited}`, Value: 50 }])).Value[0].Id;
      const textOf = async (id: number) =>
        pdfText(new Uint8Array(await (await fetch(t.url + ok(await run('COWORKER_INVOICE_PRINT', [id])).RedirectURL)).arrayBuffer()));
      assert.match(await textOf(voided), /VOID/);
      const noteText = await textOf(note);
      assert.match(noteText, /CREDIT NOTE/);
      assert.match(noteText, /-50\.00 GBP/);
      assert.ok(noteText.includes(`Credit of invoice ${(await read(credited)).InvoiceNumber}`));
    });

    it('several ids: Invoices.zip holding one PDF each', async () => {
      const ids = [await invoice(11), await invoice(22)];
      const answer = ok(await run('COWORKER_INVOICE_PRINT', ids));
      assert.match(answer.RedirectURL, /downloadFileName=Invoices\.zip$/);
      const res = await fetch(t.url + answer.RedirectURL);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'application/zip');
      const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
      const numbers = await Promise.all(ids.map(async (id) => (await read(id)).InvoiceNumber as string));
      assert.deepEqual(Object.keys(files).sort(), numbers.map((n) => `Invoice-${n}.pdf`).sort());
      for (const n of numbers) assert.ok(pdfText(files[`Invoice-${n}.pdf`]).includes(n));
    });

    it('an unknown or expired token is a 404, with or without credentials', async () => {
      const answer = ok(await run('COWORKER_INVOICE_PRINT', [await invoice(5)]));
      assert.equal(
        (await fetch(`${t.url}/ContentDownload/DownloadTempDataFile?uniqueId=${'A'.repeat(43)}&downloadFileName=x.pdf`)).status,
        404,
      );
      assert.equal((await fetch(`${t.url}/ContentDownload/DownloadTempDataFile`)).status, 404);
      const row = (await tableRows(t, 'download_file')).at(-1)!;
      const expiresIn = Date.parse(`${String(row.ExpiresOn).replace(' ', 'T').slice(0, 19)}Z`) - Date.now();
      assert.ok(expiresIn >= 5 * 60_000, `valid for ${expiresIn} ms`);
      await t.db.query(`UPDATE ${t.db.id('download_file')} SET ${t.db.id('ExpiresOn')} = ? WHERE ${t.db.id('Id')} = ?`, [
        '2000-01-01 00:00:00',
        row.Id,
      ]);
      assert.equal((await fetch(t.url + answer.RedirectURL)).status, 404);
      assert.equal((await fetch(t.url + answer.RedirectURL, { headers: { authorization: t.adminAuth } })).status, 404);
    });
  });

  describe('with billing runs', () => {
    const billRun = (ids: number[], until: string) =>
      t.post('/api/spaces/coworkers/runcommand', { Key: 'COWORKER_BILL_RUN', Ids: ids, Parameters: [{ Name: 'Until', Value: until }] });
    const linesOf = async (id: number) =>
      (await t.get(`/api/billing/coworkerinvoicelines?CoworkerInvoiceLine_CoworkerInvoice=${id}&orderBy=Position&size=100`)).body
        .Records as any[];

    it('COWORKER_INVOICE_DELETE releases what the invoice billed: the next run bills it again, with a new number', async () => {
      const vat = await create(t, '/api/sys/taxrates', { BusinessId: business, Name: 'VAT', Rate: 20 });
      const tariff = await create(t, '/api/billing/tariffs', {
        BusinessId: business,
        Name: 'Resident desk',
        Price: 200,
        CurrencyId: gbp,
        TaxRateId: vat,
      });
      const member = await createCoworker(t, business, { FullName: 'Ξανθίππη Ковалёва' });
      const contract = await create(t, '/api/billing/coworkercontracts', {
        CoworkerId: member,
        TariffId: tariff,
        StartDate: '2025-01-01',
        BillingDay: 1,
      });
      const product = await create(t, '/api/billing/products', {
        BusinessId: business,
        Name: 'Coffee',
        SystemProductType: 1,
        Description: 'Sold at the bar',
        DisplayOrder: 0,
        Price: 2.5,
        CurrencyId: gbp,
        AvailableAs: 3,
        TaxRateId: vat,
      });
      const sale = await create(t, '/api/billing/coworkerproducts', {
        CoworkerId: member,
        ProductId: product,
        Quantity: 4,
        SaleDate: '2025-01-15',
      });
      const first = ok(await billRun([member], '2025-02-10')).Value[0];
      const billed = await read(first.Id);
      const lines = await linesOf(first.Id);
      assert.equal(lines.length, 3);
      assert.equal((await t.get(`/api/billing/coworkerproducts/${sale}`)).body.Invoiced, true);

      // Delete refused while a later invoice bills later periods of the same contract.
      const later = ok(await billRun([member], '2025-03-10')).Value[0];
      await refusedCommand('COWORKER_INVOICE_DELETE', [first.Id], [], /later periods/);
      ok(await run('COWORKER_INVOICE_DELETE', [later.Id]));
      assert.equal((await t.get(`/api/billing/coworkercontracts/${contract}`)).body.RenewalDate, '2025-03-01T00:00:00Z');

      ok(await run('COWORKER_INVOICE_DELETE', [first.Id]));
      assert.equal((await t.get(`${INVOICES}/${first.Id}`)).status, 404);
      assert.equal((await t.get(`/api/billing/coworkerproducts/${sale}`)).body.Invoiced, false);
      const released = (await t.get(`/api/billing/coworkercontracts/${contract}`)).body;
      assert.equal(released.InvoicedPeriod, null);
      assert.equal(released.RenewalDate, '2025-01-01T00:00:00Z');

      const again = ok(await billRun([member], '2025-02-10')).Value[0];
      // Its totals are its lines': a PUT of other totals keeps them.
      const stored = await read(again.Id);
      ok(await t.put(INVOICES, { ...stored, TotalAmount: 1, TaxAmount: 0, Description: 'Re-billed' }));
      assert.deepEqual(
        [(await read(again.Id)).TotalAmount, (await read(again.Id)).TaxAmount, (await read(again.Id)).Description],
        [stored.TotalAmount, stored.TaxAmount, 'Re-billed'],
      );
      const rebilled = await read(again.Id);
      assert.ok(Number(rebilled.InvoiceNumber) > Number(later.InvoiceNumber), `${rebilled.InvoiceNumber} after ${later.InvoiceNumber}`);
      assert.equal(rebilled.TotalAmount, billed.TotalAmount);
      const strip = (l: any) => [l.Description, l.Quantity, l.UnitPrice, l.TotalAmount, l.PeriodFrom, l.PeriodTo];
      assert.deepEqual((await linesOf(again.Id)).map(strip), lines.map(strip));
    });

    it('the PDF of an invoice made by a run shows every line and the totals', async () => {
      const vat = await create(t, '/api/sys/taxrates', { BusinessId: business, Name: 'VAT 23', Rate: 23 });
      const tariff = await create(t, '/api/billing/tariffs', {
        BusinessId: business,
        Name: 'Dedicated desk',
        Price: 350,
        CurrencyId: gbp,
        TaxRateId: vat,
      });
      const member = await createCoworker(t, business, {
        FullName: 'Zoë Šťastná',
        CompanyName: 'Ανδρέας & Дмитрий Sp. z o.o.',
        Address: 'Ulica Łódzka 5',
        City: 'Kraków',
        PostCode: '30-001',
      });
      await create(t, '/api/billing/coworkercontracts', { CoworkerId: member, TariffId: tariff, StartDate: '2025-03-01', BillingDay: 1 });
      const room = await create(t, '/api/billing/products', {
        BusinessId: business,
        Name: 'Meeting room (2 h)',
        SystemProductType: 1,
        Description: 'Sold at the bar',
        DisplayOrder: 0,
        Price: 25.5,
        CurrencyId: gbp,
        AvailableAs: 3,
        TaxRateId: vat,
      });
      await create(t, '/api/billing/coworkerproducts', { CoworkerId: member, ProductId: room, Quantity: 2, SaleDate: '2025-03-12' });
      const made = ok(await billRun([member], '2025-03-31')).Value[0];
      ok(await pay(made.Id, 100, { CoworkerId: member }));
      const invoiceRecord = await read(made.Id);
      const answer = ok(await run('COWORKER_INVOICE_PRINT', [made.Id]));
      const pdf = new Uint8Array(await (await fetch(t.url + answer.RedirectURL)).arrayBuffer());
      if (process.env.SETTLEMENT_PDF_OUT) (await import('node:fs')).writeFileSync(process.env.SETTLEMENT_PDF_OUT, pdf);
      // The layout keeps each line whole; reading order keeps a wrapped description whole.
      const texts = [pdfText(pdf), pdfText(pdf, true)];
      const expected = [
        invoiceRecord.InvoiceNumber,
        'Ανδρέας & Дмитрий Sp. z o.o.',
        'Kraków',
        ...(await linesOf(made.Id)).map((l) => l.Description as string),
        `${invoiceRecord.TotalAmount.toFixed(2)} GBP`,
        `${invoiceRecord.TaxAmount.toFixed(2)} GBP`,
        '100.00 GBP',
        `${invoiceRecord.DueAmount.toFixed(2)} GBP`,
      ];
      for (const item of expected)
        assert.ok(
          texts.some((text) => text.includes(item)),
          `${item} in:\n${texts[0]}`,
        );
    });
  });

  it('the accounting sync query: paid invoices that are not credit notes, paid from a date', async () => {
    const early = await invoice(10);
    ok(await pay(early, 10, { TransactionDate: '2024-12-31T23:59:59Z' }));
    const late = await invoice(10);
    ok(await pay(late, 10, { TransactionDate: '2026-01-02T00:00:00Z' }));
    const unpaid = await invoice(10);
    const credited = await invoice(10);
    const note = ok(await run('COWORKER_INVOICE_CANCEL', [credited])).Value[0].Id;
    const res = await t.get(
      `${INVOICES}?CoworkerInvoice_CreditNote=false&CoworkerInvoice_Paid=true&from_CoworkerInvoice_PaidOn=2026-01-01&size=1000`,
    );
    assert.equal(res.status, 200);
    const ids = res.body.Records.map((r: any) => r.Id);
    assert.ok(ids.includes(late));
    for (const id of [early, unpaid, credited, note]) assert.ok(!ids.includes(id));
    for (const record of res.body.Records) assert.ok(record.Paid === true && record.CreditNote === false && record.PaidOn >= '2026-01-01');
  });

  it('webhook events: 23 on every payment, 21 when paid, 20 for a credit note, 19 for a refund', async () => {
    const hooked = await createBusiness(t, { Name: 'Hooked Hub' });
    const buyer = await createCoworker(t, hooked);
    for (const action of [19, 20, 21, 23])
      await create(t, '/api/sys/webhooks', { BusinessId: hooked, Name: `hook ${action}`, Action: action, URL: 'https://example.com/hook' });
    const id = await create(t, INVOICES, { BusinessId: hooked, CoworkerId: buyer, CurrencyId: gbp, TotalAmount: 100, TaxAmount: 0 });
    const count = async (action: number) =>
      (await tableRows(t, 'webhook_delivery')).filter((row) => Number(row.Action) === action && Number(row.RecordId) >= id).length;
    ok(await t.post(ENTRIES, { BusinessId: hooked, CoworkerId: buyer, CoworkerInvoiceId: id, Credit: 40 }));
    assert.deepEqual([await count(23), await count(21)], [1, 0]);
    ok(await run('COWORKER_INVOICE_CANCEL', [id], [{ Name: `Amount${id}`, Value: 10 }]));
    assert.equal(await count(20), 1);
    ok(await run('PAY_COWORKER_INVOICE_MANUAL', [id]));
    assert.deepEqual([await count(23), await count(21)], [2, 1]);
    ok(await run('COWORKER_INVOICE_REFUND', [id], [{ Name: `Amount${id}`, Value: 5 }]));
    assert.equal(await count(19), 1);
  });
});

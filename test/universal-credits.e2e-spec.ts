import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { asPreviewLine, billRun, createProduct, linesOf } from './support/billing-fixtures.js';
import { create, createBusinesses, createCoworker, createTariff, currencyId } from './support/fixtures.js';
import { assertFields } from './support/record-checks.js';
import { appPerSuite } from './support/test-app.js';

const CREDITS = '/api/billing/coworkerbookingcredits';
const USES = '/api/billing/coworkerbookingcreditusehistories';
const CHARGES = '/api/billing/charges';
const SALES = '/api/billing/coworkerproducts';
const INVOICES = '/api/billing/coworkerinvoices';

// Universal credits pay invoice lines (docs/api.md §13.1, docs/billing.md "Universal credits").
describe('universal credits pay invoice lines', () => {
  const t = appPerSuite();
  let business: number;
  let vat: number;

  before(async () => {
    [business] = await createBusinesses(t, 'Canal Works');
    vat = await create(t, '/api/sys/taxrates', { BusinessId: business, Name: 'VAT 20', Rate: 20 });
  });

  const customer = (name: string) => createCoworker(t, business, { FullName: name });
  const credit = (coworkerId: number, amount: number, overrides: Record<string, unknown> = {}) =>
    create(t, CREDITS, {
      CoworkerId: coworkerId,
      BusinessId: business,
      Description: 'Welcome credit',
      TotalCredit: amount,
      RemainingCredit: amount,
      IsUniversalCredit: true,
      ...overrides,
    });
  const sell = async (coworkerId: number, product: number, saleDate = '2027-05-03', overrides: Record<string, unknown> = {}) =>
    create(t, SALES, { CoworkerId: coworkerId, ProductId: product, SaleDate: saleDate, ...overrides });
  const charge = (coworkerId: number, amount: number, saleDate = '2027-05-04', overrides: Record<string, unknown> = {}) =>
    create(t, CHARGES, {
      BusinessId: business,
      CoworkerId: coworkerId,
      Description: 'Printing',
      TotalAmount: amount,
      TaxRateId: vat,
      SaleDate: saleDate,
      ...overrides,
    });
  const read = async (path: string, id: number) => (await t.get(`${path}/${id}`)).body;
  const usesOf = async (creditId: number) =>
    (await t.get(`${USES}?CoworkerBookingCreditUseHistory_CoworkerBookingCredit=${creditId}&orderBy=Id&size=1000`)).body.Records as any[];
  /** Σ CreditUsed of a credit's unreturned uses = TotalCredit − RemainingCredit, and it never went below 0. */
  const assertInvariant = async (creditId: number) => {
    const stored = await read(CREDITS, creditId);
    const used = (await usesOf(creditId)).filter((use) => !use.Returned).reduce((sum, use) => sum + Math.round(use.CreditUsed * 10_000), 0);
    assert.ok(stored.RemainingCredit >= 0, `RemainingCredit ${stored.RemainingCredit}`);
    assert.equal(used, Math.round((stored.TotalCredit - stored.RemainingCredit) * 10_000), JSON.stringify(stored));
    return stored;
  };
  const shape = (lines: any[]) =>
    lines.map((l) => [l.Description, l.Quantity, l.UnitPrice, l.SubTotal, l.TaxRate, l.TaxAmount, l.TotalAmount, l.CreditAmount]);

  it('the worked example of docs/billing.md: a 20.00 credit pays a 12.34 sale and 7.66 of a 15.00 charge; credit lines with their tax; a preview showed the same and spent nothing', async () => {
    const who = await customer('Worked example');
    const pack = await createProduct(t, business, { Name: 'Meeting pack', Price: 12.34, TaxRateId: vat });
    const welcome = await credit(who, 20, { ExpireDate: '2027-12-31T00:00:00Z' });
    const sale = await sell(who, pack);
    const printing = await charge(who, 15);
    const preview = await billRun(t, [who], '2027-05-31', true);
    assert.equal((await read(CREDITS, welcome)).RemainingCredit, 20, 'a preview spends nothing');
    assert.deepEqual(await usesOf(welcome), []);
    const made = await billRun(t, [who], '2027-05-31');
    assert.equal(made.body.WasSuccessful, true, JSON.stringify(made.body));
    const invoice = await read(INVOICES, made.body.Value[0].Id);
    const lines = await linesOf(t, invoice.Id);
    assert.deepEqual(shape(lines), [
      ['Meeting pack (2027-05-03)', 1, 12.34, 12.34, 20, 2.47, 14.81, 12.34],
      ['Credit: Welcome credit', 1, -12.34, -12.34, 20, -2.47, -14.81, 0],
      ['Printing', 1, 15, 15, 20, 3, 18, 7.66],
      ['Credit: Welcome credit', 1, -7.66, -7.66, 20, -1.53, -9.19, 0],
    ]);
    assertFields(invoice, { TotalAmount: 8.81, TaxAmount: 1.47 });
    assert.deepEqual(lines.map(asPreviewLine), preview.body.Value[0].Lines, 'the preview showed exactly these lines');
    assert.equal(preview.body.Value[0].TotalAmount, 8.81);
    const creditUnique = (await read(CREDITS, welcome)).UniqueId;
    assert.deepEqual(
      lines.map((l) => [
        l.Position,
        l.CoworkerBookingCreditUniqueId,
        l.CoworkerProductUniqueId !== null,
        l.CoworkerChargeUniqueId !== null,
      ]),
      [
        [1, null, true, false],
        [2, creditUnique, false, false],
        [3, null, false, true],
        [4, creditUnique, false, false],
      ],
    );
    for (const [paid, creditLine] of [
      [lines[0], lines[1]],
      [lines[2], lines[3]],
    ]) {
      assertFields(creditLine, {
        TaxRateId: vat,
        PeriodFrom: paid.PeriodFrom,
        PeriodTo: paid.PeriodTo,
        BookingUniqueId: null,
        CoworkerTimePassUniqueId: null,
        CoworkerContractUniqueId: null,
      });
    }
    assert.deepEqual(
      (await usesOf(welcome)).map((u) => [u.BookingId, u.CoworkerInvoiceLineId, u.CreditUsed, u.Returned, u.CoworkerId]),
      [
        [null, lines[0].Id, 12.34, false, who],
        [null, lines[2].Id, 7.66, false, who],
      ],
    );
    assertFields(await assertInvariant(welcome), { RemainingCredit: 0 });
    assertFields(await read(CHARGES, printing), { CreditAmount: 7.66, Invoiced: true });
    assertFields(await read(SALES, sale), { Invoiced: true });
  });

  it('which lines: sales, charges and passes by ElegibleProducts, AppliesToCharges, ElegiblePasses; never contract periods; never a credit that is not universal', async () => {
    const who = await customer('Eligibility');
    const kept = await createProduct(t, business, { Name: 'Locker', Price: 10 });
    const other = await createProduct(t, business, { Name: 'Snacks', Price: 4 });
    const dayPass = await create(t, '/api/billing/timepasses', {
      BusinessId: business,
      Name: 'Day',
      Price: 8,
      CurrencyId: await currencyId(t, 'GBP'),
    });
    const otherPass = await create(t, '/api/billing/timepasses', {
      BusinessId: business,
      Name: 'Evening',
      Price: 6,
      CurrencyId: await currencyId(t, 'GBP'),
    });
    await create(t, '/api/billing/coworkercontracts', {
      CoworkerId: who,
      TariffId: await createTariff(t, business, { Price: 100 }),
      StartDate: '2027-05-01',
      BillingDay: 1,
    });
    await sell(who, kept);
    await sell(who, other);
    await charge(who, 3, '2027-05-04', { TaxRateId: null });
    await create(t, '/api/billing/coworkertimepasses', {
      CoworkerId: who,
      BusinessId: business,
      TimePassId: dayPass,
      SaleDate: '2027-05-05T10:00:00Z',
    });
    await create(t, '/api/billing/coworkertimepasses', {
      CoworkerId: who,
      BusinessId: business,
      TimePassId: otherPass,
      SaleDate: '2027-05-05T11:00:00Z',
    });
    const forLocker = await credit(who, 100, {
      Description: 'Locker credit',
      ElegibleProducts: [kept],
      ExpireDate: '2027-12-01T00:00:00Z',
    });
    const forCharges = await credit(who, 100, { Description: 'Charge credit', AppliesToCharges: true, ExpireDate: '2027-12-02T00:00:00Z' });
    const forPasses = await credit(who, 100, { Description: 'Pass credit', ElegiblePasses: [dayPass], ExpireDate: '2027-12-03T00:00:00Z' });
    await credit(who, 100, { Description: 'Bookings only', IsUniversalCredit: false, CaneBeUsedForBookings: true });
    const made = await billRun(t, [who], '2027-05-31');
    const lines = await linesOf(t, made.body.Value[0].Id);
    const paidBy = lines
      .filter((l) => l.CoworkerBookingCreditUniqueId === null)
      .map((l) => [l.Description.replace(/ \(.*\)$/, ''), l.CreditAmount]);
    assert.deepEqual(
      paidBy.filter(([d]) => !String(d).startsWith('Resident')),
      [
        ['Locker', 10],
        ['Snacks', 0],
        ['Printing', 3],
        ['Day', 8],
        ['Evening', 0],
      ],
    );
    assert.ok(
      lines.filter((l) => l.CoworkerContractUniqueId).every((l) => l.CreditAmount === 0),
      'contract periods are never paid',
    );
    assert.deepEqual(
      lines.filter((l) => l.CoworkerBookingCreditUniqueId).map((l) => l.Description),
      ['Credit: Locker credit', 'Credit: Charge credit', 'Credit: Pass credit'],
    );
    for (const [id, left] of [
      [forLocker, 90],
      [forCharges, 97],
      [forPasses, 92],
    ])
      assertFields(await assertInvariant(id), { RemainingCredit: left });
  });

  it("rule 1: an unrestricted universal credit pays sales, charges and passes; a recurring sale's occurrences too", async () => {
    const who = await customer('Unrestricted');
    const weekly = await createProduct(t, business, { Name: 'Weekly locker', Price: 5 });
    await sell(who, weekly, '2027-05-03', { RegularCharge: true, RepeatCycle: 3, RepeatUntil: '2027-05-12' });
    await charge(who, 2, '2027-05-04', { TaxRateId: null });
    const all = await credit(who, 11);
    const lines = await linesOf(t, (await billRun(t, [who], '2027-05-31')).body.Value[0].Id);
    assert.deepEqual(
      lines.map((l) => [l.SubTotal, l.CreditAmount]),
      [
        [5, 5],
        [-5, 0],
        [5, 5],
        [-5, 0],
        [2, 1],
        [-1, 0],
      ],
    );
    assertFields(await assertInvariant(all), { RemainingCredit: 0 });
  });

  it("valid on the line's date: ValidFrom before the end of it, ExpireDate after its start; earliest expiry first, no expiry last, then lower Id", async () => {
    const who = await customer('Validity and order');
    const product = await createProduct(t, business, { Name: 'Pack', Price: 10 });
    await sell(who, product, '2027-05-10');
    const notYet = await credit(who, 5, { Description: 'Not yet', ValidFrom: '2027-05-11T00:00:00Z' });
    const expired = await credit(who, 5, { Description: 'Expired', ExpireDate: '2027-05-10T00:00:00Z' });
    const never = await credit(who, 5, { Description: 'Never expires' });
    const late = await credit(who, 3, { Description: 'Late expiry', ExpireDate: '2027-09-01T00:00:00Z' });
    const lateToo = await credit(who, 3, { Description: 'Late expiry, higher Id', ExpireDate: '2027-09-01T00:00:00Z' });
    const today = await credit(who, 2, {
      Description: 'Valid from the evening',
      ValidFrom: '2027-05-10T23:59:00Z',
      ExpireDate: '2027-05-11T00:00:00Z',
    });
    const lines = await linesOf(t, (await billRun(t, [who], '2027-05-31')).body.Value[0].Id);
    assert.deepEqual(
      lines.map((l) => [l.Description, l.SubTotal]),
      [
        ['Pack (2027-05-10)', 10],
        ['Credit: Valid from the evening', -2],
        ['Credit: Late expiry', -3],
        ['Credit: Late expiry, higher Id', -3],
        ['Credit: Never expires', -2],
      ],
    );
    for (const [id, left] of [
      [notYet, 5],
      [expired, 5],
      [never, 3],
      [late, 0],
      [lateToo, 0],
      [today, 0],
    ])
      assertFields(await assertInvariant(id), { RemainingCredit: left });
  });

  it('an invoice paid in full by credits is issued with TotalAmount 0', async () => {
    const who = await customer('Paid in full');
    await charge(who, 12.5);
    await credit(who, 50);
    const made = await billRun(t, [who], '2027-05-31');
    assertFields(await read(INVOICES, made.body.Value[0].Id), { TotalAmount: 0, TaxAmount: 0, DueAmount: 0 });
  });

  it('COWORKER_INVOICE_DELETE gives the credit back (uses Returned, RemainingCredit back) and the next run spends afresh; a credit note or a void gives nothing back', async () => {
    const who = await customer('Given back');
    const welcome = await credit(who, 10);
    await charge(who, 4, '2027-05-04', { TaxRateId: null });
    const first = (await billRun(t, [who], '2027-05-31')).body.Value[0];
    assertFields(await read(CREDITS, welcome), { RemainingCredit: 6 });
    const deleted = await t.post(`${INVOICES}/runcommand`, { Key: 'COWORKER_INVOICE_DELETE', Ids: [first.Id] });
    assert.equal(deleted.body.WasSuccessful, true, JSON.stringify(deleted.body));
    assertFields(await assertInvariant(welcome), { RemainingCredit: 10 });
    assert.deepEqual(
      (await usesOf(welcome)).map((u) => u.Returned),
      [true],
    );
    const second = (await billRun(t, [who], '2027-05-31')).body.Value[0];
    assert.equal(second.TotalAmount, 0);
    assertFields(await assertInvariant(welcome), { RemainingCredit: 6 });
    await charge(who, 5, '2027-05-06', { TaxRateId: null });
    await charge(who, 3, '2027-05-07', { TaxRateId: null });
    // Both invoices below spend the rest; crediting or voiding them gives nothing back.
    const third = (await billRun(t, [who], '2027-05-06')).body.Value[0];
    const fourth = (await billRun(t, [who], '2027-05-31')).body.Value[0];
    assertFields(await read(CREDITS, welcome), { RemainingCredit: 0 });
    assert.equal((await t.post(`${INVOICES}/runcommand`, { Key: 'VOID_INVOICE', Ids: [third.Id] })).body.WasSuccessful, true);
    const credited = await t.post(`${INVOICES}/runcommand`, {
      Key: 'COWORKER_INVOICE_CANCEL',
      Ids: [fourth.Id],
      Parameters: [{ Name: `Amount${fourth.Id}`, Value: fourth.TotalAmount }],
    });
    assert.equal(fourth.TotalAmount, 2);
    assert.equal(credited.body.WasSuccessful, true, JSON.stringify(credited.body));
    assertFields(await assertInvariant(welcome), { RemainingCredit: 0 });
  });

  it('parallel runs spending one credit, and a booking spending it at the same time: never below 0, no line paid twice', async () => {
    const roomType = await create(t, '/api/spaces/resourcetypes', { BusinessId: business, Name: 'Rooms' });
    const room = await create(t, '/api/spaces/resources', {
      BusinessId: business,
      Name: 'Raced room',
      ResourceTypeId: roomType,
      HourlyPrice: 6,
    });
    for (let round = 0; round < 3; round++) {
      const who = await customer(`Raced credit ${round}`);
      const shared = await credit(who, 10, { CaneBeUsedForBookings: true });
      for (let i = 0; i < 3; i++) await charge(who, 2.5, `2027-05-0${i + 2}`, { TaxRateId: null });
      const from = `2027-06-${String(round + 1).padStart(2, '0')}T09:00:00Z`;
      const [booked, ...runs] = await Promise.all([
        t.post('/api/spaces/bookings', { CoworkerId: who, ResourceId: room, FromTime: from, ToTime: from.replace('T09', 'T10') }),
        ...Array.from({ length: 4 }, () => billRun(t, [who], '2027-05-31')),
      ]);
      assert.equal(booked.status, 200, JSON.stringify(booked.body));
      assert.deepEqual(
        runs.map((run) => run.body.WasSuccessful),
        runs.map(() => true),
        JSON.stringify(runs.map((run) => run.body)),
      );
      const invoices = runs.flatMap((run) => run.body.Value);
      assert.equal(invoices.length, 1, 'one invoice, each charge billed once');
      const lines = await linesOf(t, invoices[0].Id);
      assert.equal(lines.filter((l) => l.CoworkerChargeUniqueId).length, 3);
      const stored = await assertInvariant(shared);
      const onInvoice = -lines.filter((l) => l.CoworkerBookingCreditUniqueId).reduce((sum, l) => sum + l.SubTotal, 0);
      const byBooking = (await read('/api/spaces/bookings', booked.body.Value.Id)).CreditUsed;
      assert.equal(
        Math.round((onInvoice + byBooking + stored.RemainingCredit) * 100),
        1000,
        `${onInvoice} + ${byBooking} + ${stored.RemainingCredit}`,
      );
      assert.equal(
        Math.round(lines.filter((l) => l.CoworkerChargeUniqueId).reduce((sum, l) => sum + l.CreditAmount, 0) * 100),
        Math.round(onInvoice * 100),
      );
    }
  });

  it('a credit balance with sub-cent places pays whole cents only: 3.3339 pays 3.33 of a charge, the invoice keeps 2 decimals, the 0.0039 left pays nothing later', async () => {
    const who = await customer('Sub-cent balance');
    const odd = await credit(who, 3.3339);
    await charge(who, 10, '2027-05-04');
    const preview = await billRun(t, [who], '2027-05-31', true);
    const made = await billRun(t, [who], '2027-05-31');
    assert.equal(made.body.WasSuccessful, true, JSON.stringify(made.body));
    const lines = await linesOf(t, made.body.Value[0].Id);
    assert.deepEqual(shape(lines), [
      ['Printing', 1, 10, 10, 20, 2, 12, 3.33],
      ['Credit: Welcome credit', 1, -3.33, -3.33, 20, -0.67, -4, 0],
    ]);
    assertFields(await read(INVOICES, made.body.Value[0].Id), { TotalAmount: 8, TaxAmount: 1.33 });
    assert.deepEqual(lines.map(asPreviewLine), preview.body.Value[0].Lines, 'the preview planned the same whole cents');
    assertFields(await assertInvariant(odd), { RemainingCredit: 0.0039 });
    await charge(who, 5, '2027-06-02');
    const next = await billRun(t, [who], '2027-06-30');
    const later = await linesOf(t, next.body.Value[0].Id);
    assert.deepEqual(shape(later), [['Printing', 1, 5, 5, 20, 1, 6, 0]], 'a balance below one cent makes no credit line');
    assertFields(await assertInvariant(odd), { RemainingCredit: 0.0039 });
  });

  describe('SubscriptionAmount', () => {
    it("a run's invoice: Σ TotalAmount of contract periods, contract products, recurring-sale occurrences and the credit lines paying them; 0 on an invoice made by POST and on a credit note", async () => {
      const who = await customer('Subscriber');
      const desk = await createTariff(t, business, { Price: 100, TaxRateId: vat });
      const contract = await create(t, '/api/billing/coworkercontracts', {
        CoworkerId: who,
        TariffId: desk,
        StartDate: '2027-05-01',
        BillingDay: 1,
      });
      const phone = await createProduct(t, business, { Name: 'Phone line', Price: 3 });
      await create(t, '/api/billing/contractproducts', { CoworkerContractId: contract, ProductId: phone, Quantity: 2 });
      const locker = await createProduct(t, business, { Name: 'Locker', Price: 10 });
      await sell(who, locker, '2027-05-01', { RegularCharge: true, RepeatCycle: 4, RepeatUntil: '2027-05-20' });
      await sell(who, await createProduct(t, business, { Name: 'Coffee', Price: 5 }), '2027-05-02');
      await credit(who, 4, { ElegibleProducts: [locker] });
      const made = await billRun(t, [who], '2027-05-31');
      const invoice = await read(INVOICES, made.body.Value[0].Id);
      // 120 (desk with tax) + 6 (phone line) + 10 (locker) − 4 (its credit); the coffee is not a subscription.
      assertFields(invoice, { SubscriptionAmount: 132, TotalAmount: 137 });
      const note = await t.post(`${INVOICES}/runcommand`, {
        Key: 'COWORKER_INVOICE_CANCEL',
        Ids: [invoice.Id],
        Parameters: [{ Name: `Amount${invoice.Id}`, Value: 10 }],
      });
      assert.equal(note.body.WasSuccessful, true, JSON.stringify(note.body));
      assertFields(await read(INVOICES, note.body.Value[0].Id), { SubscriptionAmount: 0 });
      const posted = await create(t, INVOICES, {
        BusinessId: business,
        CoworkerId: who,
        CurrencyId: await currencyId(t, 'GBP'),
        TotalAmount: 50,
        SubscriptionAmount: 50,
      });
      assertFields(await read(INVOICES, posted), { SubscriptionAmount: 0 });
      assert.equal((await t.put(`${INVOICES}/${posted}`, { SubscriptionAmount: 9 })).status, 200);
      assertFields(await read(INVOICES, posted), { SubscriptionAmount: 0 });
    });
  });
});

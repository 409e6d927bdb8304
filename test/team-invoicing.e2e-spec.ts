import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { BillingRunWorker } from '../src/billing/billing-runs/billing-run.worker.js';
import { BillingRunner } from '../src/billing/billing-runs/billing-runner.js';
import { asPreviewLine, billRun, createProduct, linesOf } from './support/billing-fixtures.js';
import { create, createBusinesses, createCoworker, createTariff, currencyId } from './support/fixtures.js';
import { assertFields, errorNames, refused, tableRows } from './support/record-checks.js';
import { appPerSuite } from './support/test-app.js';

// Team invoices (docs/api.md §13.3, docs/billing.md "Team invoices"): a team's paying member is billed
// for the other members' items, but for products with InvoiceCoworker, each item once whatever runs.

const TEAMS = '/api/spaces/teams';
const COWORKERS = '/api/spaces/coworkers';
const TEAM_TABLES = ['team', 'team_member', 'change_log'];
const BILLING_TABLES = [
  'coworkerinvoice',
  'coworkerinvoiceline',
  'coworkercontract',
  'contractproduct',
  'coworkerproduct',
  'booking',
  'coworkertimepass',
  'invoice_sequence',
  'billingrun',
  'change_log',
];

type Line = Record<string, any>;
/** What a line bills, as the worked example of docs/billing.md shows it. */
const shown = (lines: Line[]) => lines.map((l) => [l.Description, l.Quantity, l.UnitPrice, l.SubTotal, l.TaxAmount, l.TotalAmount]);
/** The item a line bills, and for which period: one key per item and period billed. */
const billedKey = (l: Line) =>
  `${l.CoworkerContractUniqueId ?? l.ContractProductUniqueId ?? l.CoworkerProductUniqueId ?? l.BookingUniqueId ?? l.CoworkerTimePassUniqueId}/${l.PeriodFrom}`;

describe('Team invoices', () => {
  const t = appPerSuite({ BILLING_RUN_INTERVAL_SECONDS: '0' });
  let business: number;
  let vat: number;
  let coffee: number;

  before(async () => {
    [business] = await createBusinesses(t, 'Studio Works');
    vat = await create(t, '/api/sys/taxrates', { BusinessId: business, Name: 'VAT', Rate: 20 });
    coffee = await createProduct(t, business, { Name: 'Coffee', Price: 2.5 });
  });

  const read = async (path: string) => (await t.get(path)).body as Record<string, any>;
  const team = (members: number[], fields: Record<string, unknown> = {}) =>
    create(t, TEAMS, { BusinessId: business, Name: 'Studio Nine', TeamMembers: members, ...fields });
  const sell = (customer: number, product: number, SaleDate: string, Quantity = 1) =>
    create(t, '/api/billing/coworkerproducts', { CoworkerId: customer, ProductId: product, SaleDate, Quantity });
  const invoicesOf = async (customer: number) =>
    (await t.get(`/api/billing/coworkerinvoices?CoworkerInvoice_Coworker=${customer}&orderBy=Id&size=100`)).body.Records as Line[];
  /** Customers made one after the other: their Ids in the order of their names. */
  const customers = async (...names: string[]) => {
    const ids: number[] = [];
    for (const FullName of names) ids.push(await createCoworker(t, business, { FullName }));
    return ids;
  };

  it('Team: PayingMemberId is one of its TeamMembers (else 400 naming it, nothing stored), CreateSingleInvoiceForTeam defaults to false, PayingMemberFullName reads its name', async () => {
    const [ada, bob, olga] = await customers('Ada Lovelace', 'Bob Baker', 'Olga Outsider');
    assertFields(await read(`${TEAMS}/${await team([ada])}`), {
      PayingMemberId: null,
      PayingMemberFullName: null,
      CreateSingleInvoiceForTeam: false,
    });
    for (const fields of [
      { TeamMembers: [ada, bob], PayingMemberId: olga },
      { TeamMembers: [], PayingMemberId: ada },
      { TeamMembers: [ada], PayingMemberId: 987654 },
    ]) {
      const res = await refused(t, TEAM_TABLES, 400, () =>
        t.post(TEAMS, { BusinessId: business, Name: 'Refused', CreateSingleInvoiceForTeam: true, ...fields }),
      );
      assert.deepEqual(errorNames(res.body), ['PayingMemberId'], JSON.stringify(res.body));
    }
    const studio = await team([ada, bob], { PayingMemberId: ada, CreateSingleInvoiceForTeam: true });
    const stored = await read(`${TEAMS}/${studio}`);
    assertFields(stored, { PayingMemberId: ada, PayingMemberFullName: 'Ada Lovelace', CreateSingleInvoiceForTeam: true });

    // Taking the paying member out of the team is refused unless the same update names another one (or null).
    for (const body of [
      { ...stored, TeamMembers: [bob] },
      { Id: studio, TeamMembers: [bob] },
      { ...stored, PayingMemberId: olga },
    ]) {
      const res = await refused(t, TEAM_TABLES, 400, () => t.put(TEAMS, body));
      assert.deepEqual(errorNames(res.body), ['PayingMemberId'], JSON.stringify(body));
    }
    assert.equal((await t.put(TEAMS, { ...stored, TeamMembers: [bob], PayingMemberId: bob })).status, 200);
    assertFields(await read(`${TEAMS}/${studio}`), { TeamMembers: [bob], PayingMemberId: bob, PayingMemberFullName: 'Bob Baker' });
    // A paying member is a member, which cannot be deleted (TeamMembers names it).
    const kept = await refused(t, ['coworker', 'team', 'team_member'], 400, () => t.delete(`${COWORKERS}/${bob}`));
    assert.match(kept.body.Message, /Team/);
    // One that moves to another business leaves the team, which then has no paying member.
    const [elsewhere] = await createBusinesses(t, 'Elsewhere Works');
    assert.equal((await t.put(COWORKERS, { ...(await read(`${COWORKERS}/${bob}`)), BusinessId: elsewhere })).status, 200);
    assertFields(await read(`${TEAMS}/${studio}`), {
      TeamMembers: [],
      PayingMemberId: null,
      PayingMemberFullName: null,
      CreateSingleInvoiceForTeam: true,
    });
  });

  it("the worked example of docs/billing.md: the paying member's invoice takes the members' contract periods, contract products, sales, bookings and passes; InvoiceCoworker products stay with the member", async () => {
    const [ada, bob, cy] = await customers('Ada Lovelace', 'Bob Baker', 'Cy Young');
    await team([ada, bob, cy], { PayingMemberId: ada, CreateSingleInvoiceForTeam: true });
    const teamDesk = await createTariff(t, business, { Name: 'Team desk', Price: 200, TaxRateId: vat });
    const flexDesk = await createTariff(t, business, { Name: 'Flex desk', Price: 150, TaxRateId: vat });
    const phone = await createProduct(t, business, { Name: 'Phone line', Price: 10, TaxRateId: vat });
    const locker = await createProduct(t, business, { Name: 'Personal locker', Price: 15, TaxRateId: vat, InvoiceCoworker: true });
    const printing = await createProduct(t, business, { Name: 'Printing', Price: 0.1, TaxRateId: vat, InvoiceCoworker: true });
    await create(t, '/api/billing/coworkercontracts', { CoworkerId: ada, TariffId: teamDesk, StartDate: '2025-03-01', BillingDay: 1 });
    const bobContract = await create(t, '/api/billing/coworkercontracts', {
      CoworkerId: bob,
      TariffId: flexDesk,
      StartDate: '2025-03-10',
      BillingDay: 1,
    });
    await create(t, '/api/billing/contractproducts', { CoworkerContractId: bobContract, ProductId: phone });
    await create(t, '/api/billing/contractproducts', { CoworkerContractId: bobContract, ProductId: locker });
    const bobCoffee = await sell(bob, coffee, '2025-03-12', 4);
    await sell(bob, printing, '2025-03-18', 50);
    const rooms = await create(t, '/api/spaces/resourcetypes', { BusinessId: business, Name: 'Meeting rooms' });
    const room = await create(t, '/api/spaces/resources', {
      BusinessId: business,
      Name: 'Meeting room',
      ResourceTypeId: rooms,
      HourlyPrice: 12,
      TaxRateId: vat,
    });
    const booking = await create(t, '/api/spaces/bookings', {
      ResourceId: room,
      CoworkerId: cy,
      FromTime: '2025-03-20T10:00:00Z',
      ToTime: '2025-03-20T12:00:00Z',
    });
    const dayPass = await create(t, '/api/billing/timepasses', {
      BusinessId: business,
      Name: 'Day pass',
      Price: 20,
      CurrencyId: await currencyId(t, 'GBP'),
      TaxRateId: vat,
    });
    await create(t, '/api/billing/coworkertimepasses', {
      CoworkerId: cy,
      BusinessId: business,
      TimePassId: dayPass,
      Price: 20,
      SaleDate: '2025-03-21',
    });

    const beforePreview = await Promise.all(BILLING_TABLES.map((table) => tableRows(t, table)));
    const preview = await billRun(t, [ada, bob, cy], '2025-03-31', true);
    assert.equal(preview.body.WasSuccessful, true, JSON.stringify(preview.body));
    assert.deepEqual(await Promise.all(BILLING_TABLES.map((table) => tableRows(t, table))), beforePreview);
    assert.deepEqual(
      preview.body.Value.map((v: any) => v.CoworkerId),
      [ada, bob],
    );

    const made = await billRun(t, [ada], '2025-03-31');
    assert.equal(made.body.WasSuccessful, true, JSON.stringify(made.body));
    assert.equal(made.body.Value.length, 1);
    const invoice = await read(`/api/billing/coworkerinvoices/${made.body.Value[0].Id}`);
    const lines = await linesOf(t, invoice.Id);
    assert.deepEqual(shown(lines), [
      ['Team desk (2025-03-01 – 2025-03-31)', 1, 200, 200, 40, 240],
      // 150 × 22/31 = 106.4516 → 106.45; VAT 21.29
      ['Bob Baker: Flex desk (2025-03-10 – 2025-03-31)', 1, 106.45, 106.45, 21.29, 127.74],
      ['Bob Baker: Phone line (2025-03-10 – 2025-03-31)', 1, 10, 10, 2, 12],
      ['Bob Baker: Coffee (2025-03-12)', 4, 2.5, 10, 0, 10],
      ['Cy Young: Booking of Meeting room (2025-03-20 10:00–12:00)', 1, 24, 24, 4.8, 28.8],
      ['Cy Young: Day pass', 1, 20, 20, 4, 24],
    ]);
    assertFields(invoice, {
      CoworkerId: ada,
      BillToName: 'Ada Lovelace',
      TotalAmount: 442.54,
      TaxAmount: 72.09,
      InvoiceNumber: made.body.Value[0].InvoiceNumber,
    });
    // The preview showed exactly what the run made.
    assert.deepEqual(preview.body.Value[0].Lines, lines.map(asPreviewLine));
    assert.equal(preview.body.Value[0].TotalAmount, 442.54);
    assertFields(await read(`/api/billing/coworkerproducts/${bobCoffee}`), {
      Invoiced: true,
      CoworkerInvoiceId: invoice.Id,
      CoworkerInvoiceNumber: invoice.InvoiceNumber,
    });
    assertFields(await read(`/api/spaces/bookings/${booking}`), { Invoiced: true, CoworkerInvoiceId: invoice.Id });
    assert.equal((await read(`/api/billing/coworkercontracts/${bobContract}`)).InvoicedPeriod, '2025-04-01T00:00:00Z');

    // A run naming the member bills only what stays with it: exactly what the preview showed for it.
    const own = await billRun(t, [bob], '2025-03-31');
    const bobLines = await linesOf(t, own.body.Value[0].Id);
    assert.deepEqual(shown(bobLines), [
      ['Personal locker (2025-03-10 – 2025-03-31)', 1, 15, 15, 3, 18],
      ['Printing (2025-03-18)', 50, 0.1, 5, 1, 6],
    ]);
    assert.deepEqual(preview.body.Value[1].Lines, bobLines.map(asPreviewLine));
    assertFields(await read(`/api/billing/coworkerinvoices/${own.body.Value[0].Id}`), {
      CoworkerId: bob,
      BillToName: 'Bob Baker',
      TotalAmount: 24,
      TaxAmount: 4,
    });
    assert.deepEqual((await billRun(t, [ada, bob, cy], '2025-03-31')).body.Value, []);
    assert.equal((await t.post(`/api/billing/coworkerinvoices/${business}/create/${cy}`, {})).body.Message, 'Nothing to invoice.');

    // Deleting the team invoice gives the members' items back: the next run of the paying member bills them again.
    const deleted = await t.post('/api/billing/coworkerinvoices/runcommand', { Key: 'COWORKER_INVOICE_DELETE', Ids: [invoice.Id] });
    assert.equal(deleted.body.WasSuccessful, true, JSON.stringify(deleted.body));
    assertFields(await read(`/api/billing/coworkerproducts/${bobCoffee}`), { Invoiced: false, CoworkerInvoiceId: null });
    const again = await billRun(t, [ada], '2025-03-31');
    assert.deepEqual(shown(await linesOf(t, again.body.Value[0].Id)), shown(lines));
  });

  it('a customer in several such teams is billed by the lowest-Id one; a team with only one of the two fields moves nothing; team changes act from the next run, what was billed stays', async () => {
    const [dan, eve, fay, gus] = await customers('Dan Dale', 'Eve Eden', 'Fay Field', 'Gus Grey');
    await team([dan, gus], { PayingMemberId: gus });
    await team([dan, gus], { CreateSingleInvoiceForTeam: true });
    const first = await team([dan, eve, fay], { PayingMemberId: eve, CreateSingleInvoiceForTeam: true });
    await team([dan, eve, fay], { PayingMemberId: fay, CreateSingleInvoiceForTeam: true });
    for (const customer of [dan, eve, fay, gus]) await sell(customer, coffee, '2025-04-02');
    const april = await billRun(t, [dan, eve, fay, gus], '2025-04-30');
    assert.deepEqual(
      april.body.Value.map((v: any) => v.CoworkerId),
      [eve, gus],
    );
    const eveLines = await linesOf(t, april.body.Value[0].Id);
    // Fay pays for the second team, but the first, where Eve pays, decides for Fay as for Dan.
    assert.deepEqual(
      eveLines.map((l) => l.Description),
      ['Coffee (2025-04-02)', 'Dan Dale: Coffee (2025-04-02)', 'Fay Field: Coffee (2025-04-02)'],
    );
    assert.deepEqual(
      (await linesOf(t, april.body.Value[1].Id)).map((l) => l.Description),
      ['Coffee (2025-04-02)'],
    );

    // The first team stops merging: from the next run the second decides, and April stays on Eve's invoice.
    const stored = await read(`${TEAMS}/${first}`);
    assert.equal((await t.put(TEAMS, { ...stored, CreateSingleInvoiceForTeam: false })).status, 200);
    for (const customer of [dan, eve]) await sell(customer, coffee, '2025-05-02');
    const may = await billRun(t, [dan, eve, fay], '2025-05-31');
    assert.deepEqual(
      may.body.Value.map((v: any) => v.CoworkerId),
      [fay],
    );
    assert.deepEqual(
      (await linesOf(t, may.body.Value[0].Id)).map((l) => l.Description),
      ['Dan Dale: Coffee (2025-05-02)', 'Eve Eden: Coffee (2025-05-02)'],
    );
    assert.deepEqual(
      (await linesOf(t, april.body.Value[0].Id)).map((l) => l.Description),
      eveLines.map((l) => l.Description),
    );
  });

  it('parallel runs of the paying member and of a member, and the raise route, bill each item once, also while the team changes', async () => {
    const [pia, max, ned] = await customers('Pia Payer', 'Max Member', 'Ned Member');
    const studio = await team([pia, max, ned], { PayingMemberId: pia, CreateSingleInvoiceForTeam: true });
    const desk = await createTariff(t, business, { Name: 'Race desk', Price: 90 });
    const badge = await createProduct(t, business, { Name: 'Badge', Price: 3, InvoiceCoworker: true });
    const start = new Date(Date.now() - 40 * 86_400_000).toISOString().slice(0, 10);
    await create(t, '/api/billing/coworkercontracts', { CoworkerId: max, TariffId: desk, StartDate: start });
    for (const customer of [pia, max, max, ned]) await sell(customer, coffee, start);
    await sell(max, badge, start);
    const raise = (customer: number) => t.post(`/api/billing/coworkerinvoices/${business}/create/${customer}`, {});
    const race = async (extra: Array<Promise<unknown>> = []) => {
      const answers = (await Promise.all([
        ...Array.from({ length: 4 }, () => billRun(t, [pia])),
        ...Array.from({ length: 4 }, () => billRun(t, [max])),
        billRun(t, [max, ned, pia]),
        billRun(t, [ned, pia, max]),
        raise(pia),
        raise(max),
        billRun(t, [pia], undefined, true),
        ...extra,
      ])) as Array<{ status: number; body: any }>;
      for (const answer of answers.slice(0, 13))
        assert.equal(answer.status === 200 || answer.body.Message === 'Nothing to invoice.', true, JSON.stringify(answer.body));
      for (const answer of answers.slice(0, 10)) assert.equal(answer.body.WasSuccessful, true, JSON.stringify(answer.body));
      for (const answer of answers.slice(13)) assert.equal(answer.status, 200, JSON.stringify(answer.body));
    };
    await race();
    assert.equal((await invoicesOf(pia)).length, 1);
    assert.deepEqual(
      (await linesOf(t, (await invoicesOf(max))[0].Id)).map((l) => l.Description),
      [`Badge (${start})`],
    );
    assert.equal((await invoicesOf(ned)).length, 0);
    const piaLines = await linesOf(t, (await invoicesOf(pia))[0].Id);
    assert.equal(piaLines.filter((l) => l.Description.startsWith('Max Member: ')).length, piaLines.length - 2);
    assert.deepEqual(piaLines.filter((l) => l.CoworkerProductUniqueId).length, 4);

    // New items, billed while the team stops and starts merging: each still goes on one invoice only.
    for (const customer of [max, max, ned]) await sell(customer, coffee, start);
    const stored = await read(`${TEAMS}/${studio}`);
    const toggles = [false, true, false].map((merged) => t.put(TEAMS, { ...stored, CreateSingleInvoiceForTeam: merged }));
    await race(toggles);
    await billRun(t, [pia, max, ned]);
    const all = (await Promise.all([pia, max, ned].map(invoicesOf))).flat();
    const lines = (await Promise.all(all.map((invoice) => linesOf(t, invoice.Id)))).flat();
    const keys = lines.map(billedKey);
    assert.equal(new Set(keys).size, keys.length, JSON.stringify(keys));
    const sales = lines.filter((l) => l.CoworkerProductUniqueId);
    assert.equal(sales.length, 8);
    assert.deepEqual((await billRun(t, [pia, max, ned])).body.Value, []);
  });

  // Last: the automatic run bills every business with a contract period due, those of the tests above included.
  it("the automatic run counts a member's due contract period as due to the paying member, billed once, and bills the member too for its InvoiceCoworker contract products; a customer with no contract period due waits", async () => {
    const [shop] = await createBusinesses(t, 'Auto Team Works');
    const ids: number[] = [];
    for (const FullName of ['Pam Payer', 'Moe Member', 'Mia Member', 'Sol Single']) ids.push(await createCoworker(t, shop, { FullName }));
    const [payer, member, other, single] = ids;
    await create(t, TEAMS, {
      BusinessId: shop,
      Name: 'Auto team',
      TeamMembers: [payer, member, other],
      PayingMemberId: payer,
      CreateSingleInvoiceForTeam: true,
    });
    const tariff = await createTariff(t, shop, { Name: 'Auto desk', Price: 30 });
    const locker = await createProduct(t, shop, { Name: 'Auto locker', Price: 5, InvoiceCoworker: true });
    const start = new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10);
    const contracts: number[] = [];
    for (const customer of [payer, member, other])
      contracts.push(await create(t, '/api/billing/coworkercontracts', { CoworkerId: customer, TariffId: tariff, StartDate: start }));
    await create(t, '/api/billing/contractproducts', { CoworkerContractId: contracts[1], ProductId: locker });
    await sell(member, await createProduct(t, shop, { Name: 'Snack', Price: 2 }), start);
    await sell(single, await createProduct(t, shop, { Name: 'Tea', Price: 1 }), start);
    const runner = t.app.get(BillingRunner);
    const bill = runner.bill.bind(runner);
    const billed: number[] = [];
    runner.bill = (customer, ...rest) => {
      if (customer.businessId === shop) billed.push(customer.id);
      return bill(customer, ...rest);
    };
    try {
      await t.app.get(BillingRunWorker).runOnce();
    } finally {
      runner.bill = bill;
    }
    // The paying member once, though three due contracts are due to it; the member for its locker.
    assert.deepEqual(billed, [payer, member]);
    const invoices = (await t.get(`/api/billing/coworkerinvoices?CoworkerInvoice_Business=${shop}&orderBy=CoworkerId&size=100`)).body
      .Records as Line[];
    assert.deepEqual(
      invoices.map((i) => i.CoworkerId),
      [payer, member],
    );
    const periodless = (lines: Line[]) => lines.map((l) => l.Description.replace(/\(.*\)/, '(…)'));
    assert.deepEqual(periodless(await linesOf(t, invoices[0].Id)), [
      'Auto desk (…)',
      'Moe Member: Auto desk (…)',
      'Moe Member: Snack (…)',
      'Mia Member: Auto desk (…)',
    ]);
    assert.deepEqual(periodless(await linesOf(t, invoices[1].Id)), ['Auto locker (…)']);
    const runs = (await t.get(`/api/billing/billingruns?BillingRun_Business=${shop}`)).body.Records;
    assertFields(runs[0], { Trigger: 'Automatic', CustomersBilled: 2, Errors: [] });
  });
});

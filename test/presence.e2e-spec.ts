import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { createProduct } from './support/billing-fixtures.js';
import { create, createBusinesses, createCoworker, createTariff, currencyId } from './support/fixtures.js';
import { assertFields, createAndReadBack, errorNames, putBackChangesNothing, refused, tableRows } from './support/record-checks.js';
import type { HttpResponse } from './support/test-app.js';
import { appPerSuite } from './support/test-app.js';
import { statementsSent } from './support/statements.js';

const TIME_PASSES = '/api/billing/timepasses';
const PASSES = '/api/billing/coworkertimepasses';
const CHECKINS = '/api/spaces/checkins';
const SALES = '/api/billing/coworkerproducts';
const HOOKS = '/api/sys/webhooks';
/** Every table a presence write may change: a refused one leaves each as it was. */
const TABLES = ['checkin', 'coworkertimepass', 'timepass', 'coworkerproduct', 'product', 'change_log'];

const noServerErrors = (answers: HttpResponse[]) =>
  assert.deepEqual(
    answers.filter((a) => a.status >= 500).map((a) => `${a.status} ${a.text}`),
    [],
  );

describe('presence: passes, day passes and check-ins', () => {
  const t = appPerSuite();
  let business: number;
  let otherBusiness: number;
  let paygBusiness: number;
  let dayPassKind: number;
  /** A UTC day of its own per test, so the tests' check-ins never meet. */
  let day = 0;
  const nextDay = () => {
    day++;
    const date = new Date(Date.UTC(2027, 2, 1 + day));
    return (hour: number, minute = 0) => new Date(date.getTime() + hour * 3_600_000 + minute * 60_000).toISOString().slice(0, 19) + 'Z';
  };

  before(async () => {
    [business, otherBusiness, paygBusiness] = await createBusinesses(t, 'Canal Works', 'Harbour Hub', 'Door Sales');
    dayPassKind = await kind({ Name: 'Day pass', Price: 20 });
  });

  const kind = async (overrides: Record<string, unknown> = {}) =>
    create(t, TIME_PASSES, { BusinessId: business, Name: 'Pass', Price: 15, CurrencyId: await currencyId(t, 'GBP'), ...overrides });
  const customer = (name: string, at = business) => createCoworker(t, at, { FullName: name });
  const givePass = (coworkerId: number, overrides: Record<string, unknown> = {}) =>
    create(t, PASSES, { CoworkerId: coworkerId, BusinessId: business, TimePassId: dayPassKind, ...overrides });
  const checkIn = (coworkerId: number, fromTime: string, overrides: Record<string, unknown> = {}) =>
    t.post(CHECKINS, { BusinessId: business, CoworkerId: coworkerId, FromTime: fromTime, Source: 'Manual', ...overrides });
  const read = async (path: string, id: number) => (await t.get(`${path}/${id}`)).body;
  const passesOf = async (coworkerId: number) =>
    (await t.get(`${PASSES}?CoworkerTimePass_Coworker=${coworkerId}&size=1000`)).body.Records as any[];
  const usedPasses = async (coworkerId: number) => (await passesOf(coworkerId)).filter((pass) => pass.Used);

  describe('TimePass', () => {
    it('reads back with every field, BusinessName and CurrencyCode; defaults false and null', async () => {
      // In a business of its own: a pay-as-you-go TimePass changes how its customers check in (rule 4).
      const rate = await create(t, '/api/sys/taxrates', { BusinessId: otherBusiness, Name: 'VAT', Rate: 20 });
      const full = {
        BusinessId: otherBusiness,
        Name: 'Ten-day pass',
        Price: 150.5,
        CurrencyId: await currencyId(t, 'EUR'),
        InvoiceDisplay: 'Pass (10 days)',
        TaxRateId: rate,
        PaygContacts: true,
        PaygMembers: true,
        UsePriority: 3,
        ValidityDays: 10,
        MinutesIncluded: 480,
        Archived: false,
        SystemId: 'tp-1',
      };
      const read = await createAndReadBack(t, TIME_PASSES, 'TimePass', full);
      assertFields(read, { BusinessName: 'Harbour Hub', CurrencyCode: 'EUR', ToStringText: 'Ten-day pass' });
      const bare = await createAndReadBack(t, TIME_PASSES, 'TimePass', {
        BusinessId: business,
        Name: 'Bare',
        Price: 0,
        CurrencyId: await currencyId(t, 'GBP'),
      });
      assertFields(bare, {
        InvoiceDisplay: null,
        TaxRateId: null,
        PaygContacts: false,
        PaygMembers: false,
        UsePriority: null,
        ValidityDays: null,
        MinutesIncluded: null,
        Archived: false,
      });
      await putBackChangesNothing(t, TIME_PASSES, read.Id);
    });

    it('400s naming the field: ValidityDays outside 1..3650, a tax rate of another business, a negative price, required fields; nothing written', async () => {
      const gbp = await currencyId(t, 'GBP');
      const foreignRate = await create(t, '/api/sys/taxrates', { BusinessId: otherBusiness, Name: 'Harbour VAT', Rate: 10 });
      const body = { BusinessId: business, Name: 'X', Price: 1, CurrencyId: gbp };
      for (const [change, field] of [
        [{ ValidityDays: 0 }, 'ValidityDays'],
        [{ ValidityDays: 3651 }, 'ValidityDays'],
        [{ TaxRateId: foreignRate }, 'TaxRateId'],
        [{ Price: -1 }, 'Price'],
      ] as const) {
        assert.deepEqual(
          errorNames((await refused(t, TABLES, 400, () => t.post(TIME_PASSES, { ...body, ...change }))).body),
          [field],
          JSON.stringify(change),
        );
      }
      assert.deepEqual(errorNames((await refused(t, TABLES, 400, () => t.post(TIME_PASSES, {}))).body), [
        'BusinessId',
        'CurrencyId',
        'Name',
        'Price',
      ]);
    });

    it('a TimePass named by a pass or by a product cannot be deleted (400, nothing removed); unnamed, it can', async () => {
      const byPass = await kind({ Name: 'Named by a pass' });
      await givePass(await customer('Pass holder'), { TimePassId: byPass });
      await refused(t, TABLES, 400, () => t.delete(`${TIME_PASSES}/${byPass}`));
      const byProduct = await kind({ Name: 'Named by a product' });
      await createProduct(t, business, { TimePassId: byProduct });
      const answer = await refused(t, TABLES, 400, () => t.delete(`${TIME_PASSES}/${byProduct}`));
      assert.match(answer.body.Message, /Product/);
      assert.equal((await t.delete(`${TIME_PASSES}/${await kind({ Name: 'Unnamed' })}`)).status, 200);
    });
  });

  describe('CoworkerTimePass', () => {
    it('a pass: Price from its TimePass, SaleDate now, ExpireDate SaleDate + ValidityDays, CancelDate null, CreateMultiple 1; Used, UsedDate and IsPayAsYouGo in a body are ignored', async () => {
      const tenDays = await kind({ Name: 'Ten days', Price: 12, ValidityDays: 10 });
      const who = await customer('Grace Hopper');
      const before = Date.now() - 1000;
      const id = await givePass(who, {
        TimePassId: tenDays,
        Used: true,
        UsedDate: '2027-01-01T00:00:00Z',
        IsPayAsYouGo: true,
        Invoiced: true,
      });
      const pass = await read(PASSES, id);
      assertFields(pass, {
        CoworkerId: who,
        BusinessId: business,
        TimePassId: tenDays,
        Price: 12,
        Free: false,
        Used: false,
        UsedDate: null,
        IsPayAsYouGo: false,
        Invoiced: false,
        InvoicedOn: null,
        CoworkerInvoiceId: null,
        CancelDate: null,
        CreateMultiple: 1,
        CoworkerProductUniqueId: null,
        TimePassName: 'Ten days',
        CoworkerFullName: 'Grace Hopper',
      });
      const sold = Date.parse(pass.SaleDate);
      assert.ok(sold >= before && sold <= Date.now(), pass.SaleDate);
      assert.equal(Date.parse(pass.ExpireDate) - sold, 10 * 86_400_000);
      const given = await read(
        PASSES,
        await givePass(who, {
          TimePassId: tenDays,
          SaleDate: '2027-05-01T09:30:00Z',
          Price: 0,
          Free: true,
          Notes: 'Gift',
          PurchaseOrder: 'PO-7',
        }),
      );
      assertFields(given, {
        SaleDate: '2027-05-01T09:30:00Z',
        ExpireDate: '2027-05-11T09:30:00Z',
        Price: 0,
        Free: true,
        Notes: 'Gift',
        PurchaseOrder: 'PO-7',
      });
      const forever = await read(PASSES, await givePass(who));
      assert.equal(forever.ExpireDate, null, 'no ValidityDays: never expires');
      await putBackChangesNothing(t, PASSES, given.Id);
    });

    it('CreateMultiple N makes N passes, one record each: Value {Id, Ids}; 0 or 101 is a 400 naming it', async () => {
      const who = await customer('Many passes');
      const answer = await t.post(PASSES, { CoworkerId: who, BusinessId: business, TimePassId: dayPassKind, CreateMultiple: 4 });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assertFields(answer.body, { Message: 'CoworkerTimePass was successfully created.', WasSuccessful: true });
      const { Id, Ids } = answer.body.Value;
      assert.equal(Ids.length, 4);
      assert.equal(Ids[0], Id);
      const records = await passesOf(who);
      assert.deepEqual(
        records.map((pass) => pass.Id),
        Ids,
      );
      assert.equal(new Set(records.map((pass) => pass.UniqueId)).size, 4);
      for (const pass of records) assertFields(pass, { CreateMultiple: 1, Price: 20, Used: false });
      for (const bad of [0, 101, 2.5])
        assert.deepEqual(
          errorNames(
            (
              await refused(t, TABLES, 400, () =>
                t.post(PASSES, { CoworkerId: who, BusinessId: business, TimePassId: dayPassKind, CreateMultiple: bad }),
              )
            ).body,
          ),
          ['CreateMultiple'],
        );
      // SaleDate is a billing date (docs/api.md §9.1): 2000 to 2099.
      for (const bad of ['1999-12-31', '2100-01-01', '1000-01-01'])
        assert.deepEqual(
          errorNames(
            (
              await refused(t, TABLES, 400, () =>
                t.post(PASSES, { CoworkerId: who, BusinessId: business, TimePassId: dayPassKind, SaleDate: bad }),
              )
            ).body,
          ),
          ['SaleDate'],
        );
      assert.deepEqual((await t.post(PASSES, { CoworkerId: who, BusinessId: business, TimePassId: dayPassKind })).body.Value.Ids.length, 1);
    });

    it('parallel creates make exactly the sum of what they asked for', async () => {
      const who = await customer('Parallel buyer');
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          t.post(PASSES, { CoworkerId: who, BusinessId: business, TimePassId: dayPassKind, CreateMultiple: i + 1 }),
        ),
      );
      noServerErrors(answers);
      assert.deepEqual(
        answers.map((a) => a.status),
        Array(10).fill(200),
      );
      assert.equal((await passesOf(who)).length, 55);
      assert.equal(new Set(answers.flatMap((a) => a.body.Value.Ids)).size, 55);
    });

    it('400s: an archived TimePass, one or a customer of another business, a missing field; nothing written', async () => {
      const who = await customer('Refused buyer');
      const archived = await kind({ Name: 'Old pass', Archived: true });
      const foreignKind = await kind({ Name: 'Harbour pass', BusinessId: otherBusiness });
      const stranger = await customer('Stranger', otherBusiness);
      const body = { CoworkerId: who, BusinessId: business, TimePassId: dayPassKind };
      const archivedAnswer = await refused(t, TABLES, 400, () => t.post(PASSES, { ...body, TimePassId: archived }));
      assert.deepEqual(errorNames(archivedAnswer.body), ['TimePassId']);
      assert.match(archivedAnswer.body.Message, /archived/);
      assert.deepEqual(errorNames((await refused(t, TABLES, 400, () => t.post(PASSES, { ...body, TimePassId: foreignKind }))).body), [
        'TimePassId',
      ]);
      assert.deepEqual(errorNames((await refused(t, TABLES, 400, () => t.post(PASSES, { ...body, CoworkerId: stranger }))).body), [
        'CoworkerId',
      ]);
      assert.deepEqual(errorNames((await refused(t, TABLES, 400, () => t.post(PASSES, { CoworkerId: who }))).body), [
        'BusinessId',
        'TimePassId',
      ]);
      const id = await givePass(who);
      assert.deepEqual(errorNames((await refused(t, TABLES, 400, () => t.put(`${PASSES}/${id}`, { CoworkerId: stranger }))).body), [
        'CoworkerId',
      ]);
    });

    it('the filters clients send: CoworkerTimePass_Coworker, CoworkerTimePass_IsUsed=false (alias of _Used), CoworkerTimePass_CancelDate=null', async () => {
      const who = await customer('Filtered');
      const [unused, used] = [await givePass(who), await givePass(who)];
      await t.post(`${PASSES}/runcommand`, { Key: 'USE_TIME_PASS', Ids: [used] });
      const list = async (query: string) => ((await t.get(`${PASSES}?${query}`)).body.Records as any[]).map((pass) => pass.Id);
      assert.deepEqual(await list(`CoworkerTimePass_Coworker=${who}&CoworkerTimePass_IsUsed=false&CoworkerTimePass_CancelDate=null`), [
        unused,
      ]);
      assert.deepEqual(await list(`coworkertimepass_coworker=${who}&coworkertimepass_isused=true`), [used]);
      assert.deepEqual(await list(`CoworkerTimePass_Coworker=${who}&CoworkerTimePass_Used=false`), [unused]);
      assert.deepEqual(await list(`CoworkerTimePass_Coworker=${who}&CoworkerTimePass_UsedDate=null`), [unused]);
      assert.deepEqual(await list(`CoworkerTimePass_Coworker=${who}&CoworkerTimePass_TimePass=${dayPassKind}`), [unused, used]);
      assert.equal((await t.get(`${PASSES}?CoworkerTimePass_IsUsed=maybe`)).status, 400);
    });

    it('USE_TIME_PASS: each pass reads Used and UsedDate now; listed only for an unused pass; refused for all ids when one is used, nothing done', async () => {
      const who = await customer('Command user');
      const [first, second, third] = [await givePass(who), await givePass(who), await givePass(who)];
      assert.deepEqual(
        ((await t.get(`${PASSES}/commands?id=${first}`)).body as any[]).map((c) => c.Key),
        ['USE_TIME_PASS'],
      );
      const start = Date.now() - 1000;
      const done = await t.post(`${PASSES}/runcommand`, { Key: 'USE_TIME_PASS', Ids: [first] });
      assertFields(done.body, { WasSuccessful: true, Message: 'The command was run correctly.' });
      const used = await read(PASSES, first);
      assert.equal(used.Used, true);
      assert.ok(Date.parse(used.UsedDate) >= start && Date.parse(used.UsedDate) <= Date.now(), used.UsedDate);
      assert.deepEqual((await t.get(`${PASSES}/commands?id=${first}`)).body, []);
      const again = await refused(t, TABLES, 200, () =>
        t.post(`${PASSES}/runcommand`, { Key: 'USE_TIME_PASS', Ids: [second, first, third] }),
      );
      assertFields(again.body, { WasSuccessful: false });
      assert.match(again.body.Message, new RegExp(`CoworkerTimePass ${first} has been used already`));
    });

    it('parallel USE_TIME_PASS on one pass: exactly one succeeds', async () => {
      const pass = await givePass(await customer('Contested pass'));
      const answers = await Promise.all(
        Array.from({ length: 12 }, () => t.post(`${PASSES}/runcommand`, { Key: 'USE_TIME_PASS', Ids: [pass] })),
      );
      noServerErrors(answers);
      assert.equal(answers.filter((a) => a.body.WasSuccessful === true).length, 1, JSON.stringify(answers.map((a) => a.body.Message)));
    });
  });

  describe('DayPass products', () => {
    it("a DayPass sale releases Quantity × TimePassQuantity passes: Free, Price 0, the sale's date and UniqueId; deleting the sale leaves them", async () => {
      const weekly = await kind({ Name: 'Week pass', Price: 30, ValidityDays: 7 });
      const product = await createProduct(t, business, { Name: 'Day pass bundle', TimePassId: weekly, TimePassQuantity: 2 });
      assertFields(await read('/api/billing/products', product), { TimePassId: weekly, TimePassQuantity: 2 });
      const who = await customer('Bundle buyer');
      const sale = await create(t, SALES, { CoworkerId: who, ProductId: product, Quantity: 3, SaleDate: '2027-02-01T10:00:00Z' });
      const saleRecord = await read(SALES, sale);
      const passes = await passesOf(who);
      assert.equal(passes.length, 6);
      for (const pass of passes) {
        assertFields(pass, {
          TimePassId: weekly,
          BusinessId: business,
          Free: true,
          Price: 0,
          SaleDate: '2027-02-01T10:00:00Z',
          ExpireDate: '2027-02-08T10:00:00Z',
          CoworkerProductUniqueId: saleRecord.UniqueId,
          Used: false,
          IsPayAsYouGo: false,
        });
      }
      assert.equal((await t.delete(`${SALES}/${sale}`)).status, 200);
      assert.equal((await passesOf(who)).length, 6);
    });

    it('other products release none; a product without TimePassQuantity releases one per unit', async () => {
      const who = await customer('Plain buyer');
      const stationery = await createProduct(t, business, { Name: 'Notebook', SystemProductType: 3, TimePassId: dayPassKind });
      await create(t, SALES, { CoworkerId: who, ProductId: stationery, Quantity: 2 });
      assert.equal((await passesOf(who)).length, 0);
      const single = await createProduct(t, business, { Name: 'Single day', TimePassId: dayPassKind });
      assert.equal((await read('/api/billing/products', single)).TimePassQuantity, 1);
      await create(t, SALES, { CoworkerId: who, ProductId: single, Quantity: 2 });
      assert.equal((await passesOf(who)).length, 2);
    });

    it("a product's TimePassId must be a TimePass of its business; TimePassQuantity 1 to 100 (400 naming each, nothing written)", async () => {
      const foreignKind = await kind({ Name: 'Harbour day', BusinessId: otherBusiness });
      const product = {
        BusinessId: business,
        Name: 'X',
        SystemProductType: 1,
        Description: 'x',
        DisplayOrder: 0,
        Price: 1,
        CurrencyId: await currencyId(t, 'GBP'),
        AvailableAs: 3,
      };
      for (const [change, field] of [
        [{ TimePassId: foreignKind }, 'TimePassId'],
        [{ TimePassId: 987654 }, 'TimePassId'],
        [{ TimePassQuantity: 0 }, 'TimePassQuantity'],
        [{ TimePassQuantity: 101 }, 'TimePassQuantity'],
      ] as const) {
        assert.deepEqual(
          errorNames((await refused(t, TABLES, 400, () => t.post('/api/billing/products', { ...product, ...change }))).body),
          [field],
          JSON.stringify(change),
        );
      }
    });

    it('a sale of a DayPass product whose TimePass is archived is a 400 naming ProductId: no pass of it is made, nothing written', async () => {
      const retired = await kind({ Name: 'Retired day' });
      const product = await createProduct(t, business, {
        Name: 'Retired day pass',
        TimePassId: retired,
        TrackStock: true,
        CurrentStock: 5,
      });
      const stored = await read(TIME_PASSES, retired);
      assert.equal((await t.put(`${TIME_PASSES}/${retired}`, { ...stored, Archived: true })).status, 200);
      const who = await customer('Late buyer');
      const answer = await refused(t, TABLES, 400, () => t.post(SALES, { CoworkerId: who, ProductId: product, Quantity: 2 }));
      assert.deepEqual(errorNames(answer.body), ['ProductId']);
      assert.match(answer.body.Message, /archived/);
      assert.deepEqual(await passesOf(who), []);
      assertFields(await read('/api/billing/products', product), { CurrentStock: 5 });
    });

    it('a sale that would release more than 1000 passes is a 400 naming Quantity; nothing written', async () => {
      const who = await customer('Bulk buyer');
      const product = await createProduct(t, business, { Name: 'Bulk day pass', TimePassId: dayPassKind, TimePassQuantity: 100 });
      assert.deepEqual(
        errorNames((await refused(t, TABLES, 400, () => t.post(SALES, { CoworkerId: who, ProductId: product, Quantity: 11 }))).body),
        ['Quantity'],
      );
    });
  });

  describe('check-ins (rules 1–5)', () => {
    it('rule 1: a customer with a contract active at FromTime is in without a pass', async () => {
      const at = nextDay();
      const member = await customer('Member');
      await create(t, '/api/billing/coworkercontracts', {
        CoworkerId: member,
        TariffId: await createTariff(t, business),
        StartDate: '2027-01-01',
      });
      const pass = await givePass(member);
      const answer = await checkIn(member, at(9));
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assertFields(await read(CHECKINS, answer.body.Value.Id), {
        CoworkerTimePassGuid: null,
        CoworkerId: member,
        BusinessId: business,
        ToTime: null,
        Source: 'Manual',
        CoworkerFullName: 'Member',
        BusinessName: 'Canal Works',
      });
      assert.equal((await read(PASSES, pass)).Used, false);
    });

    it('rule 3: the valid pass that expires first is used (none last, then the lowest Id): Used, UsedDate = FromTime; an expired pass never', async () => {
      const at = nextDay();
      const who = await customer('Pass user');
      const never = await givePass(who);
      const expired = await givePass(who, { ExpireDate: at(8) });
      // Each check-in on a day of its own, after the expired pass's last day.
      const later = await givePass(who, { ExpireDate: '2027-12-31T00:00:00Z' });
      const sooner = await givePass(who, { ExpireDate: '2027-06-30T00:00:00Z' });
      const soonerToo = await givePass(who, { ExpireDate: '2027-06-30T00:00:00Z' });
      const order: number[] = [];
      for (const [i, nth] of [sooner, soonerToo, later, never].entries()) {
        const when = nextDay()(9);
        const answer = await checkIn(who, when);
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
        const checkin = await read(CHECKINS, answer.body.Value.Id);
        const pass = await read(PASSES, nth);
        assert.equal(checkin.CoworkerTimePassGuid, pass.UniqueId, `check-in ${i}`);
        assertFields(pass, { Used: true, UsedDate: when });
        order.push(nth);
        assert.equal((await t.put(`${CHECKINS}/${checkin.Id}`, { ...checkin, ToTime: when.replace('T09', 'T17') })).status, 200);
      }
      assert.equal((await read(PASSES, expired)).Used, false);
      assert.deepEqual(order, [sooner, soonerToo, later, never]);
    });

    it('rule 2: a second check-in of the same UTC day uses the pass of the first again; the next day another', async () => {
      const at = nextDay();
      const who = await customer('Back after lunch');
      const [first, second] = [await givePass(who), await givePass(who)];
      const morning = await read(
        CHECKINS,
        await create(t, CHECKINS, { BusinessId: business, CoworkerId: who, FromTime: at(9), ToTime: at(12) }),
      );
      const afternoon = await read(CHECKINS, await create(t, CHECKINS, { BusinessId: business, CoworkerId: who, FromTime: at(13) }));
      const firstPass = await read(PASSES, first);
      assert.equal(morning.CoworkerTimePassGuid, firstPass.UniqueId);
      assert.equal(afternoon.CoworkerTimePassGuid, firstPass.UniqueId);
      assert.equal((await read(PASSES, second)).Used, false);
      assert.equal((await t.put(`${CHECKINS}/${afternoon.Id}`, { ...afternoon, ToTime: at(18) })).status, 200);
      const tomorrow = await read(CHECKINS, await create(t, CHECKINS, { BusinessId: business, CoworkerId: who, FromTime: at(24 + 9) }));
      assert.equal(tomorrow.CoworkerTimePassGuid, (await read(PASSES, second)).UniqueId);
    });

    it('rule 4: without a valid pass, a new pass of the pay-as-you-go TimePass (lowest UsePriority, not archived) is made, used and priced', async () => {
      const at = nextDay();
      const gbp = await currencyId(t, 'GBP');
      const payg = (overrides: Record<string, unknown>) =>
        create(t, TIME_PASSES, { BusinessId: paygBusiness, Name: 'Door', Price: 9, CurrencyId: gbp, PaygContacts: true, ...overrides });
      await payg({ Name: 'Archived door', UsePriority: 0, Archived: true });
      await payg({ Name: 'No priority', UsePriority: null });
      await payg({ Name: 'Second', UsePriority: 2 });
      const chosen = await payg({ Name: 'First', UsePriority: 1, Price: 12.5, ValidityDays: 1 });
      await payg({ Name: 'Not for contacts', UsePriority: -5, PaygContacts: false });
      const who = await customer('Walk-in', paygBusiness);
      const answer = await checkIn(who, at(9), { BusinessId: paygBusiness });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      const [pass] = await passesOf(who);
      assertFields(pass, {
        TimePassId: chosen,
        IsPayAsYouGo: true,
        Used: true,
        UsedDate: at(9),
        SaleDate: at(9),
        Price: 12.5,
        Free: false,
        ExpireDate: at(24 + 9),
        BusinessId: paygBusiness,
      });
      assert.equal((await read(CHECKINS, answer.body.Value.Id)).CoworkerTimePassGuid, pass.UniqueId);
    });

    it('rule 4 outside the billing dates: a pay-as-you-go pass is sold at FromTime, so a FromTime before 2000 or after 2099 is a 400 naming FromTime, nothing stored', async () => {
      const [oldDoor] = await createBusinesses(t, 'Old Door');
      await create(t, TIME_PASSES, {
        BusinessId: oldDoor,
        Name: 'Door',
        Price: 9,
        CurrencyId: await currencyId(t, 'GBP'),
        PaygContacts: true,
      });
      const who = await customer('Time traveller', oldDoor);
      for (const fromTime of ['1999-12-31T23:59:59Z', '2100-01-01T00:00:00Z', '1500-06-01T09:00:00+02:00']) {
        const answer = await refused(t, TABLES, 400, () => checkIn(who, fromTime, { BusinessId: oldDoor, ToTime: null }));
        assert.deepEqual(errorNames(answer.body), ['FromTime'], fromTime);
      }
      assert.deepEqual(await passesOf(who), []);
      const first = await checkIn(who, '2000-01-01T00:00:00Z', { BusinessId: oldDoor, ToTime: '2000-01-01T01:00:00Z' });
      assert.equal(first.status, 200, JSON.stringify(first.body));
      assertFields((await passesOf(who))[0], { SaleDate: '2000-01-01T00:00:00Z', IsPayAsYouGo: true });
    });

    it('rule 5: no contract, no pass, no pay-as-you-go: 400 naming CoworkerId, nothing stored or used, and event 37 fires with the customer', async () => {
      const at = nextDay();
      const who = await customer('No pass');
      const hooks: Record<number, number> = {};
      for (const action of [37, 63, 47])
        hooks[action] = await create(t, HOOKS, {
          BusinessId: business,
          Name: `Presence ${action}`,
          Action: action,
          URL: 'https://192.0.2.1/hook',
          Active: true,
        });
      const usedElsewhere = await givePass(who, { ExpireDate: at(8) });
      const answer = await refused(t, TABLES, 400, () => checkIn(who, at(9)));
      assertFields(answer.body, { Message: 'CoworkerId: The customer has no valid pass for this business.', WasSuccessful: false });
      assert.deepEqual(errorNames(answer.body), ['CoworkerId']);
      assert.equal((await read(PASSES, usedElsewhere)).Used, false);
      const deliveries = async (action: number) => (await t.get(`${HOOKS}/${hooks[action]}/deliveries`)).body.Records as any[];
      const failed = await deliveries(37);
      assert.deepEqual(
        failed.map((d) => [d.Action, d.RecordId]),
        [[37, who]],
      );
      assert.deepEqual(await deliveries(63), []);
      assert.deepEqual(await deliveries(47), []);
      // Another refusal (a second open check-in) fires nothing.
      await givePass(who);
      await create(t, CHECKINS, { BusinessId: business, CoworkerId: who, FromTime: at(10) });
      await refused(t, TABLES, 400, () => checkIn(who, at(11)));
      assert.equal((await deliveries(37)).length, 1);
      for (const id of Object.values(hooks)) assert.equal((await t.delete(`${HOOKS}/${id}`)).status, 200);
    });

    it('a customer of another business, a missing FromTime, ToTime before FromTime: 400 naming each, nothing stored or used', async () => {
      const at = nextDay();
      const who = await customer('Careless door');
      await givePass(who);
      const stranger = await customer('Foreigner', otherBusiness);
      assert.deepEqual(errorNames((await refused(t, TABLES, 400, () => checkIn(stranger, at(9)))).body), ['CoworkerId']);
      assert.deepEqual(
        errorNames((await refused(t, TABLES, 400, () => t.post(CHECKINS, { BusinessId: business, CoworkerId: who }))).body),
        ['FromTime'],
      );
      assert.deepEqual(errorNames((await refused(t, TABLES, 400, () => checkIn(who, at(9), { ToTime: at(8) }))).body), ['ToTime']);
      const nobody = await refused(t, TABLES, 400, () => checkIn(999_999, at(9)));
      assert.deepEqual(errorNames(nobody.body), ['CoworkerId']);
      assert.match(nobody.text, /Coworker 999999 does not exist/);
    });

    it('the customer is read once: its existence and its business in one statement', async () => {
      const who = await customer('Counted');
      await givePass(who);
      const { db } = t;
      const customerReads = await statementsSent(
        db,
        (sql) => sql.includes(`FROM ${db.id('coworker')}`),
        async () => {
          const answer = await checkIn(who, nextDay()(9));
          assert.equal(answer.status, 200, answer.text);
        },
      );
      assert.equal(customerReads.length, 1, customerReads.map((statement) => statement.sql).join('\n'));
    });
  });

  describe('one open check-in, check-out, delete', () => {
    it('a second open check-in of the customer at the business is a 400 naming FromTime, nothing stored or used; after the check-out it is allowed', async () => {
      const at = nextDay();
      const who = await customer('Double door');
      await givePass(who);
      await givePass(who);
      const first = await read(CHECKINS, await create(t, CHECKINS, { BusinessId: business, CoworkerId: who, FromTime: at(9) }));
      const again = await refused(t, TABLES, 400, () => checkIn(who, at(10)));
      assert.deepEqual(errorNames(again.body), ['FromTime']);
      assert.match(again.body.Message, /checked in/);
      assert.equal((await usedPasses(who)).length, 1);
      assert.equal((await t.put(`${CHECKINS}/${first.Id}`, { ...first, ToTime: at(11) })).status, 200);
      assert.equal((await checkIn(who, at(12))).status, 200);
      // Re-opening the first one (ToTime null) would make two open ones.
      assert.deepEqual(errorNames((await refused(t, TABLES, 400, () => t.put(`${CHECKINS}/${first.Id}`, { ToTime: null }))).body), [
        'FromTime',
      ]);
    });

    it('20 parallel check-ins of one customer: one 200, one pass used; the others 400 naming FromTime', async () => {
      const at = nextDay();
      const who = await customer('Crowded door');
      for (let i = 0; i < 5; i++) await givePass(who);
      const answers = await Promise.all(Array.from({ length: 20 }, () => checkIn(who, at(9))));
      noServerErrors(answers);
      assert.equal(answers.filter((a) => a.status === 200).length, 1);
      for (const answer of answers.filter((a) => a.status !== 200))
        assert.deepEqual(errorNames(answer.body), ['FromTime'], JSON.stringify(answer.body));
      assert.equal((await usedPasses(who)).length, 1);
      assert.equal((await tableRows(t, 'checkin')).filter((row) => Number(row.CoworkerId) === who).length, 1);
    });

    it('20 parallel pay-as-you-go check-ins: one 200, one pass made', async () => {
      const at = nextDay();
      await create(t, TIME_PASSES, {
        BusinessId: paygBusiness,
        Name: 'Door again',
        Price: 5,
        CurrencyId: await currencyId(t, 'GBP'),
        PaygContacts: true,
        UsePriority: -1,
      });
      const who = await customer('Crowded walk-in', paygBusiness);
      const answers = await Promise.all(Array.from({ length: 20 }, () => checkIn(who, at(9), { BusinessId: paygBusiness })));
      noServerErrors(answers);
      assert.equal(answers.filter((a) => a.status === 200).length, 1);
      assert.equal((await passesOf(who)).length, 1);
    });

    it('check-out is a PUT of the whole record with ToTime: the pass stays; ToTime before FromTime, another customer or business: 400 naming it', async () => {
      const at = nextDay();
      const who = await customer('Leaver');
      await givePass(who);
      const checkin = await read(
        CHECKINS,
        await create(t, CHECKINS, { BusinessId: business, CoworkerId: who, FromTime: at(9), CoworkerTimePassGuid: 'not-mine' }),
      );
      assert.notEqual(checkin.CoworkerTimePassGuid, 'not-mine');
      const other = await customer('Other');
      assert.deepEqual(
        errorNames((await refused(t, TABLES, 400, () => t.put(`${CHECKINS}/${checkin.Id}`, { ...checkin, ToTime: at(8) }))).body),
        ['ToTime'],
      );
      assert.deepEqual(
        errorNames((await refused(t, TABLES, 400, () => t.put(`${CHECKINS}/${checkin.Id}`, { ...checkin, CoworkerId: other }))).body),
        ['CoworkerId'],
      );
      assert.deepEqual(
        errorNames((await refused(t, TABLES, 400, () => t.put(CHECKINS, { Id: checkin.Id, BusinessId: paygBusiness }))).body),
        ['BusinessId'],
      );
      const out = await t.put(CHECKINS, { ...checkin, ToTime: at(17, 30), CoworkerTimePassGuid: null });
      assertFields(out.body, { Message: 'Checkin was successfully updated.', WasSuccessful: true });
      assertFields(await read(CHECKINS, checkin.Id), {
        ToTime: at(17, 30),
        CoworkerTimePassGuid: checkin.CoworkerTimePassGuid,
        FromTime: at(9),
      });
    });

    it('who is in now: Checkin_ToTime=null; orderBy=ToTime&dir=Descending lists the latest check-out first and open ones last', async () => {
      const at = nextDay();
      const visitors = [await customer('In 1'), await customer('In 2'), await customer('Out early'), await customer('Out late')];
      for (const who of visitors) await givePass(who);
      const [in1, in2] = [
        await create(t, CHECKINS, { BusinessId: business, CoworkerId: visitors[0], FromTime: at(9) }),
        await create(t, CHECKINS, { BusinessId: business, CoworkerId: visitors[1], FromTime: at(9) }),
      ];
      const early = await create(t, CHECKINS, { BusinessId: business, CoworkerId: visitors[2], FromTime: at(9), ToTime: at(10) });
      const late = await create(t, CHECKINS, { BusinessId: business, CoworkerId: visitors[3], FromTime: at(9), ToTime: at(16) });
      const ids = async (query: string) => ((await t.get(`${CHECKINS}?${query}`)).body.Records as any[]).map((c) => c.Id);
      const today = `from_Checkin_FromTime=${at(0)}&to_Checkin_FromTime=${at(23)}`;
      assert.deepEqual(await ids(`Checkin_ToTime=null&${today}`), [in1, in2]);
      assert.deepEqual(await ids(`${today}&orderBy=ToTime&dir=Descending`), [late, early, in2, in1]);
      assert.deepEqual(await ids(`${today}&orderBy=ToTime&dir=Ascending`), [in1, in2, early, late]);
      assert.deepEqual(await ids(`Checkin_Coworker=${visitors[2]}&${today}`), [early]);
      assert.deepEqual(await ids(`Checkin_Business=${business}&from_Checkin_ToTime=${at(12)}&${today}`), [late]);
    });

    it('deleting a check-in gives its pass back, unless another check-in of its day records it; a pay-as-you-go pass goes with it', async () => {
      const at = nextDay();
      const who = await customer('Mistaken door');
      const pass = await givePass(who);
      const morning = await create(t, CHECKINS, { BusinessId: business, CoworkerId: who, FromTime: at(9), ToTime: at(12) });
      const afternoon = await create(t, CHECKINS, { BusinessId: business, CoworkerId: who, FromTime: at(13) });
      const deletePass = await refused(t, TABLES, 400, () => t.delete(`${PASSES}/${pass}`));
      assert.match(deletePass.body.Message, /Checkin/);
      assert.equal((await t.delete(`${CHECKINS}/${afternoon}`)).status, 200);
      assertFields(await read(PASSES, pass), { Used: true });
      assert.equal((await t.delete(`${CHECKINS}/${morning}`)).status, 200);
      assertFields(await read(PASSES, pass), { Used: false, UsedDate: null });

      const walkIn = await customer('Mistaken walk-in', paygBusiness);
      const made = await create(t, CHECKINS, { BusinessId: paygBusiness, CoworkerId: walkIn, FromTime: at(9) });
      assert.equal((await passesOf(walkIn)).length, 1);
      assert.equal((await t.delete(`${CHECKINS}/${made}`)).status, 200);
      assert.deepEqual(await passesOf(walkIn), []);
    });

    it('events: 47 and 36 on a create, 48 on an update, 35 when ToTime is set, 49 on a delete', async () => {
      const at = nextDay();
      const who = await customer('Observed');
      await givePass(who);
      const hooks: Record<number, number> = {};
      for (const action of [47, 36, 48, 35, 49])
        hooks[action] = await create(t, HOOKS, {
          BusinessId: business,
          Name: `Checkin ${action}`,
          Action: action,
          URL: 'https://192.0.2.1/hook',
          Active: true,
        });
      const id = await create(t, CHECKINS, { BusinessId: business, CoworkerId: who, FromTime: at(9) });
      assert.equal((await t.put(`${CHECKINS}/${id}`, { Source: 'Kiosk' })).status, 200);
      assert.equal((await t.put(`${CHECKINS}/${id}`, { ToTime: at(17) })).status, 200);
      assert.equal((await t.put(`${CHECKINS}/${id}`, { ToTime: at(18) })).status, 200);
      assert.equal((await t.delete(`${CHECKINS}/${id}`)).status, 200);
      const closed = await create(t, CHECKINS, { BusinessId: business, CoworkerId: who, FromTime: at(19), ToTime: at(20) });
      const seen = async (action: number) =>
        ((await t.get(`${HOOKS}/${hooks[action]}/deliveries`)).body.Records as any[]).map((d) => d.RecordId).sort((a, b) => a - b);
      assert.deepEqual(await seen(47), [id, closed]);
      assert.deepEqual(await seen(36), [id, closed]);
      assert.deepEqual(await seen(48), [id, id, id]);
      assert.deepEqual(await seen(35), [id, closed], 'ToTime from null to a value: the first check-out and a create carrying it');
      assert.deepEqual(await seen(49), [id]);
      for (const hook of Object.values(hooks)) assert.equal((await t.delete(`${HOOKS}/${hook}`)).status, 200);
    });
  });

  describe('billing passes', () => {
    const bill = (who: number, until: string) =>
      t.post('/api/spaces/coworkers/runcommand', { Key: 'COWORKER_BILL_RUN', Ids: [who], Parameters: [{ Name: 'Until', Value: until }] });
    const linesOf = async (invoice: number) =>
      (await t.get(`/api/billing/coworkerinvoicelines?CoworkerInvoiceLine_CoworkerInvoice=${invoice}`)).body.Records as any[];

    it("a sold pass (not Free, Price > 0) is billed once, used or not: one line with the TimePass's tax rate and InvoiceDisplay; free, zero-priced and later ones are not", async () => {
      const who = await customer('Billed visitor');
      const rate = await create(t, '/api/sys/taxrates', { BusinessId: business, Name: 'VAT 20', Rate: 20 });
      const taxed = await kind({ Name: 'Taxed day', Price: 10, TaxRateId: rate, InvoiceDisplay: 'Day pass (Canal Works)' });
      const sold = await givePass(who, { TimePassId: taxed, SaleDate: '2027-04-02T10:00:00Z' });
      const usedToo = await givePass(who, { TimePassId: taxed, SaleDate: '2027-04-03T10:00:00Z', Price: 8 });
      await t.post(`${PASSES}/runcommand`, { Key: 'USE_TIME_PASS', Ids: [usedToo] });
      const free = await givePass(who, { TimePassId: taxed, SaleDate: '2027-04-02T10:00:00Z', Free: true });
      const zero = await givePass(who, { TimePassId: taxed, SaleDate: '2027-04-02T10:00:00Z', Price: 0 });
      const later = await givePass(who, { TimePassId: taxed, SaleDate: '2027-04-06T10:00:00Z' });
      const made = await bill(who, '2027-04-05');
      assert.equal(made.body.WasSuccessful, true, JSON.stringify(made.body));
      assert.equal(made.body.Value.length, 1);
      const invoice = made.body.Value[0].Id;
      const lines = (await linesOf(invoice)).filter((line) => line.CoworkerTimePassUniqueId !== null);
      assert.deepEqual(
        lines.map((line) => [
          line.CoworkerTimePassUniqueId,
          line.Description,
          line.Quantity,
          line.UnitPrice,
          line.TaxRateId,
          line.TaxRate,
          line.TaxAmount,
          line.TotalAmount,
          line.PeriodFrom,
          line.PeriodTo,
        ]),
        [
          [
            (await read(PASSES, sold)).UniqueId,
            'Day pass (Canal Works)',
            1,
            10,
            rate,
            20,
            2,
            12,
            '2027-04-02T00:00:00Z',
            '2027-04-02T00:00:00Z',
          ],
          [
            (await read(PASSES, usedToo)).UniqueId,
            'Day pass (Canal Works)',
            1,
            8,
            rate,
            20,
            1.6,
            9.6,
            '2027-04-03T00:00:00Z',
            '2027-04-03T00:00:00Z',
          ],
        ],
      );
      for (const id of [sold, usedToo]) {
        const pass = await read(PASSES, id);
        assertFields(pass, { Invoiced: true, CoworkerInvoiceId: invoice });
        assert.ok(pass.InvoicedOn, 'InvoicedOn');
      }
      for (const id of [free, zero, later]) assertFields(await read(PASSES, id), { Invoiced: false, CoworkerInvoiceId: null });
      assert.deepEqual((await bill(who, '2027-04-05')).body.Value, [], 'nothing left to bill');
      for (const change of [{ Price: 11 }, { Free: true }, { SaleDate: '2027-04-01T00:00:00Z' }, { TimePassId: dayPassKind }]) {
        assert.deepEqual(errorNames((await refused(t, TABLES, 400, () => t.put(`${PASSES}/${sold}`, change))).body), Object.keys(change));
      }
      assertFields(await read(PASSES, sold), { TimePassId: taxed });
      assert.equal((await t.put(`${PASSES}/${sold}`, { Notes: 'Billed' })).status, 200, 'other fields still change');
      const whole = await t.put(`${PASSES}/${sold}`, { ...(await read(PASSES, sold)), PurchaseOrder: 'PO-7' });
      assert.equal(whole.status, 200, `the whole record PUT back: ${JSON.stringify(whole.body)}`);
      assert.match((await refused(t, TABLES, 400, () => t.delete(`${PASSES}/${sold}`))).body.Message, /billed/);
    });

    it('a day pass sale is billed as a sale; the passes it released are not', async () => {
      const who = await customer('Day pass buyer');
      const product = await createProduct(t, business, { Name: 'Billed day pass', TimePassId: dayPassKind, Price: 25 });
      await create(t, SALES, { CoworkerId: who, ProductId: product, SaleDate: '2027-04-02T10:00:00Z' });
      const invoice = (await bill(who, '2027-04-05')).body.Value[0].Id;
      const lines = await linesOf(invoice);
      assert.deepEqual(
        lines.map((line) => [line.UnitPrice, line.CoworkerProductUniqueId !== null, line.CoworkerTimePassUniqueId]),
        [[25, true, null]],
      );
    });

    it('COWORKER_INVOICE_DELETE makes a billed pass due again: the next run bills it on a new invoice', async () => {
      const who = await customer('Re-billed visitor');
      const pass = await givePass(who, { SaleDate: '2027-04-02T10:00:00Z' });
      const first = (await bill(who, '2027-04-05')).body.Value[0];
      assertFields(await read(PASSES, pass), { Invoiced: true, CoworkerInvoiceId: first.Id });
      const deleted = await t.post('/api/billing/coworkerinvoices/runcommand', { Key: 'COWORKER_INVOICE_DELETE', Ids: [first.Id] });
      assert.equal(deleted.body.WasSuccessful, true, JSON.stringify(deleted.body));
      assertFields(await read(PASSES, pass), { Invoiced: false, InvoicedOn: null, CoworkerInvoiceId: null });
      const second = (await bill(who, '2027-04-05')).body.Value[0];
      assert.ok(second && second.Id !== first.Id, JSON.stringify(second));
      assert.equal(second.TotalAmount, 20);
      assertFields(await read(PASSES, pass), { Invoiced: true, CoworkerInvoiceId: second.Id });
    });

    it('a billed pay-as-you-go pass stays when its check-in is deleted', async () => {
      const at = nextDay();
      const walkIn = await customer('Billed walk-in', paygBusiness);
      const checkin = await create(t, CHECKINS, { BusinessId: paygBusiness, CoworkerId: walkIn, FromTime: at(9) });
      const [pass] = await passesOf(walkIn);
      const made = await bill(walkIn, at(12).slice(0, 10));
      assert.equal(made.body.Value.length, 1, JSON.stringify(made.body));
      assert.equal((await t.delete(`${CHECKINS}/${checkin}`)).status, 200);
      assertFields(await read(PASSES, pass.Id), { Invoiced: true, Used: true, IsPayAsYouGo: true });
    });
  });
});

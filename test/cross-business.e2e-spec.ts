import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { createProduct } from './support/billing-fixtures.js';
import { createEvent, createSurvey } from './support/content-fixtures.js';
import { create, createBusinesses, createCoworker, createTariff, currencyId } from './support/fixtures.js';
import { tableRows } from './support/record-checks.js';
import { appPerSuite } from './support/test-app.js';

// Records link only records of their own business (docs/architecture.md §8: `sameBusiness`), and a
// create racing the delete of a record it names is a 400, never a 500.

describe('links across businesses', () => {
  const t = appPerSuite();
  let mine: number;
  let theirs: number;
  let myCustomer: number;
  let theirCustomer: number;
  let gbp: number;

  before(async () => {
    [mine, theirs] = await createBusinesses(t, 'Mine', 'Theirs');
    myCustomer = await createCoworker(t, mine);
    theirCustomer = await createCoworker(t, theirs);
    gbp = await currencyId(t, 'GBP');
  });

  /** 400 naming `field`, nothing written to `table`; then the same body with `fix` applied is taken. */
  async function refusedThenTaken(path: string, table: string, body: Record<string, unknown>, field: string, fix: Record<string, unknown>) {
    const before = await tableRows(t, table);
    const res = await t.post(path, body);
    assert.equal(res.status, 400, `${path}: ${JSON.stringify(res.body)}`);
    assert.deepEqual(
      res.body.Errors.map((e: { PropertyName: string }) => e.PropertyName),
      [field],
    );
    assert.deepEqual(await tableRows(t, table), before);
    const id = await create(t, path, { ...body, ...fix });
    // Moving it to a foreign record by update is refused the same way.
    const stored = (await t.get(`${path}/${id}`)).body;
    const moved = await t.put(path, { ...stored, ...body });
    assert.equal(moved.status, 400, JSON.stringify(moved.body));
    assert.equal(moved.body.Errors[0].PropertyName, field);
    return id;
  }

  it('a customer of another business is refused wherever a record names a customer', async () => {
    const survey = await createSurvey(t, mine);
    await refusedThenTaken('/api/content/surveyruns', 'surveyrun', { SurveyId: survey, CoworkerId: theirCustomer }, 'CoworkerId', {
      CoworkerId: myCustomer,
    });
    const event = await createEvent(t, mine);
    await refusedThenTaken(
      '/api/content/eventattendees',
      'eventattendee',
      { CalendarEventId: event, FullName: 'A', Email: 'a@example.com', CoworkerId: theirCustomer },
      'CoworkerId',
      { CoworkerId: myCustomer },
    );
    await refusedThenTaken(
      '/api/content/eventwaitingattendees',
      'eventwaitingattendee',
      { BusinessId: mine, CalendarEventId: event, FullName: 'W', Email: 'w@example.com', CoworkerId: theirCustomer },
      'CoworkerId',
      { CoworkerId: myCustomer },
    );
    await refusedThenTaken(
      '/api/billing/coworkerinvoices',
      'coworkerinvoice',
      { BusinessId: mine, CurrencyId: gbp, CoworkerId: theirCustomer },
      'CoworkerId',
      { CoworkerId: myCustomer },
    );
  });

  it('a survey run moved to another business keeps no foreign customer', async () => {
    const survey = await createSurvey(t, mine);
    const foreignSurvey = await createSurvey(t, theirs);
    const run = await create(t, '/api/content/surveyruns', { SurveyId: survey, CoworkerId: myCustomer });
    const stored = (await t.get(`/api/content/surveyruns/${run}`)).body;
    const res = await t.put('/api/content/surveyruns', { ...stored, SurveyId: foreignSurvey });
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.equal(res.body.Errors[0].PropertyName, 'CoworkerId');
    assert.match(res.body.Errors[0].Message, /does not belong to Business/);
  });

  it('a record that records of its business name does not move to another business (400 naming BusinessId, nothing changed); unnamed, it moves', async () => {
    const kind = await create(t, '/api/billing/timepasses', { BusinessId: mine, Name: 'Named pass', Price: 10, CurrencyId: gbp });
    await create(t, '/api/billing/coworkertimepasses', { CoworkerId: myCustomer, BusinessId: mine, TimePassId: kind });
    const tariff = await createTariff(t, mine);
    await createProduct(t, mine, { Name: 'Tariffed', Tariffs: [tariff] });
    const customer = await createCoworker(t, mine);
    await create(t, '/api/billing/coworkerinvoices', { CoworkerId: customer, BusinessId: mine, CurrencyId: gbp });
    for (const [path, id, table, names] of [
      ['/api/billing/timepasses', kind, 'timepass', /CoworkerTimePass\.TimePassId/],
      ['/api/billing/tariffs', tariff, 'tariff', /Product\.Tariffs/],
      ['/api/spaces/coworkers', customer, 'coworker', /CoworkerInvoice\.CoworkerId/],
    ] as const) {
      const before = await tableRows(t, table);
      const res = await t.put(path, { Id: id, BusinessId: theirs });
      assert.equal(res.status, 400, `${path}: ${res.text}`);
      assert.deepEqual(
        res.body.Errors.map((e: { PropertyName: string }) => e.PropertyName),
        ['BusinessId'],
      );
      assert.match(res.body.Errors[0].Message, names);
      assert.deepEqual(await tableRows(t, table), before, path);
      // Staying in its business is no move.
      assert.equal((await t.put(path, { Id: id, BusinessId: mine })).status, 200, path);
    }
    const unnamed = await create(t, '/api/billing/timepasses', { BusinessId: mine, Name: 'Unnamed pass', Price: 10, CurrencyId: gbp });
    const moved = await t.put('/api/billing/timepasses', { Id: unnamed, BusinessId: theirs });
    assert.equal(moved.status, 200, moved.text);
    assert.equal((await t.get(`/api/billing/timepasses/${unnamed}`)).body.BusinessId, theirs);
  });

  it('tariffs and products of another business are refused in id lists', async () => {
    const myTariff = await createTariff(t, mine);
    const theirTariff = await createTariff(t, theirs);
    const myProduct = await createProduct(t, mine);
    const theirProduct = await createProduct(t, theirs);
    const product = {
      BusinessId: mine,
      Name: 'Pass',
      SystemProductType: 1,
      Description: 'x',
      DisplayOrder: 0,
      Price: 5,
      CurrencyId: gbp,
      AvailableAs: 3,
    };
    await refusedThenTaken('/api/billing/products', 'product_tariff', { ...product, Tariffs: [myTariff, theirTariff] }, 'Tariffs', {
      Tariffs: [myTariff],
    });
    const credit = { Name: 'Hours', ProductId: myProduct, Credit: 5 };
    await refusedThenTaken(
      '/api/billing/productbookingcredits',
      'productbookingcredit',
      { ...credit, ElegibleProducts: [theirProduct] },
      'ElegibleProducts',
      { ElegibleProducts: [myProduct] },
    );
    await refusedThenTaken(
      '/api/billing/productbookingcredits',
      'productbookingcredit',
      { ...credit, ElegibleTariffs: [theirTariff] },
      'ElegibleTariffs',
      { ElegibleTariffs: [myTariff] },
    );
    const customerCredit = { CoworkerId: myCustomer, BusinessId: mine, Description: 'Hours', TotalCredit: 5 };
    await refusedThenTaken(
      '/api/billing/coworkerbookingcredits',
      'coworkerbookingcredit',
      { ...customerCredit, ElegibleProducts: [theirProduct] },
      'ElegibleProducts',
      { ElegibleProducts: [myProduct] },
    );
    await refusedThenTaken(
      '/api/billing/coworkerbookingcredits',
      'coworkerbookingcredit',
      { ...customerCredit, ElegibleTariffs: [myTariff, theirTariff] },
      'ElegibleTariffs',
      { ElegibleTariffs: [myTariff] },
    );
  });

  it('records that name a customer racing its delete are answered 200 or 400, never 500', async () => {
    const survey = await createSurvey(t, mine);
    const event = await createEvent(t, mine);
    for (let round = 0; round < 6; round++) {
      const customer = await createCoworker(t, mine);
      const writes = [
        () => t.post('/api/billing/coworkerinvoices', { BusinessId: mine, CurrencyId: gbp, CoworkerId: customer }),
        () => t.post('/api/content/surveyruns', { SurveyId: survey, CoworkerId: customer }),
        () =>
          t.post('/api/content/eventwaitingattendees', {
            BusinessId: mine,
            CalendarEventId: event,
            FullName: 'W',
            Email: 'w@example.com',
            CoworkerId: customer,
          }),
        () => t.post('/api/billing/coworkerbookingcredits', { CoworkerId: customer, Description: 'Hours', TotalCredit: 5 }),
        () => t.post('/api/billing/coworkerproducts', { CoworkerId: customer, ProductId: 1 }),
      ];
      // The delete goes first; the writes check the customer while it is being deleted.
      const answers = await Promise.all([
        t.delete(`/api/spaces/coworkers/${customer}`),
        ...Array.from({ length: 3 }, () => writes[round % writes.length]()),
        ...writes.map((write) => write()),
      ]);
      for (const answer of answers) assert.ok([200, 400].includes(answer.status), `${answer.status}: ${answer.text}`);
      for (const answer of answers.filter((a) => a.status === 400)) assert.ok(answer.body.Message, answer.text);
    }
  });
});

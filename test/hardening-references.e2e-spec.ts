import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AnyClass } from '../src/records/columns.js';
import type { RecordDefinition } from '../src/records/record-definition.js';
import { referencesOf } from '../src/records/validation/fields.js';
import { createProduct } from './support/billing-fixtures.js';
import { createBusiness, createCoworker, createTariff } from './support/fixtures.js';
import { operationsOf, pathOf, RecordWalker } from './support/record-walker.js';
import { appPerSuite, type TestApp } from './support/test-app.js';
import { RecordTypes } from '../src/records/record-types.js';

// docs/api.md §1.2: nothing points at what is gone. Every id and id list that names another record
// (declared with `@Reference` / `@IdList({ references })`, those added later included) blocks the delete
// of the named record with a 400 and a Message, nothing removed; and a delete racing a write that adds
// such a reference never leaves one dangling (run in parallel, repeatedly, on SQLite and MariaDB).

/** Whether deleting the named record is meant to take the referring one along or clear it (a declared foreign-key action). */
function cascades(t: TestApp, definition: RecordDefinition<any>, property: string): boolean {
  const metadata = t.db.dataSource.getMetadata(definition.entity);
  return metadata.foreignKeys.some(
    (key) => key.columns.some((c) => c.propertyName === property) && key.onDelete !== 'RESTRICT' && key.onDelete !== 'NO ACTION',
  );
}

/** Records a domain rule deletes with the record they belong to (docs/bookings.md: a booking's products). */
const OWNED: ReadonlyArray<[owner: string, owned: string]> = [['Booking', 'BookingProduct']];
const ownedBy = (owner: RecordDefinition<any>, owned: RecordDefinition<any>) =>
  OWNED.some(([a, b]) => a === owner.name && b === owned.name);

describe('a record named by another cannot be deleted', () => {
  const t = appPerSuite();
  const definitionOf = (entity: AnyClass) => t.app.get(RecordTypes).ofEntity(entity)?.definition;

  it('refuses the delete of a record named by each referencing field of each record type, nothing removed', async () => {
    const walker = new RecordWalker(t);
    const checked: string[] = [];
    for (const definition of t.app.get(RecordTypes).definitions()) {
      if (!definition.dto || !operationsOf(definition).includes('create')) continue;
      const metadata = t.db.dataSource.getMetadata(definition.entity);
      for (const reference of referencesOf(definition.dto)) {
        const target = definitionOf(reference.target());
        const stored = definition.lists?.[reference.property] || metadata.findColumnWithPropertyName(reference.property);
        if (!target || !stored || !operationsOf(target).includes('delete') || !target.dto || !operationsOf(target).includes('create'))
          continue;
        if (cascades(t, definition, reference.property)) continue;
        await walker.recordOf(reference.target());
        const named = (await walker.create(target)).id;
        const value = reference.list ? [named] : named;
        let referring: number;
        try {
          referring = (await walker.create(definition, new Set(), { [reference.property]: value })).id;
        } catch {
          continue; // a domain rule refuses a fresh record there (a waiting attendee's business is its event's)
        }
        const read = (await t.get(`${pathOf(definition)}/${referring}`)).body;
        assert.deepEqual(read[reference.property], value, `${definition.name}.${reference.property} stored`);
        const res = await t.delete(`${pathOf(target)}/${named}`);
        if (res.status === 200 && ownedBy(target, definition)) {
          // A domain rule deletes what the record owns along with it (a booking's booking products):
          // nothing is left pointing at what is gone.
          assert.equal(
            (await t.get(`${pathOf(definition)}/${referring}`)).status,
            404,
            `${definition.name} ${referring} still names ${target.name} ${named}`,
          );
          checked.push(`${definition.name}.${reference.property} (deleted with it)`);
          continue;
        }
        assert.equal(res.status, 400, `${target.name} named by ${definition.name}.${reference.property}: ${res.text.slice(0, 300)}`);
        assert.equal(res.body.WasSuccessful, false);
        assert.match(res.body.Message, /cannot be deleted/);
        assert.equal((await t.get(`${pathOf(target)}/${named}`)).status, 200, `${target.name} ${named} was removed`);
        assert.deepEqual((await t.get(`${pathOf(definition)}/${referring}`)).body[reference.property], value);
        checked.push(`${definition.name}.${reference.property}`);
      }
    }
    for (const field of [
      'Product.Tariffs',
      'ProductBookingCredit.ElegibleProducts',
      'ProductBookingCredit.ElegibleTariffs',
      'CoworkerBookingCredit.ElegibleProducts',
      'CoworkerBookingCredit.ElegibleTariffs',
      'Team.TeamMembers',
      'CoworkerContract.TariffId',
    ]) {
      assert.ok(checked.includes(field), `${field} not checked: ${checked.join(', ')}`);
    }
  });

  it('never leaves a reference dangling when a delete races a write that adds it (parallel, repeated)', async () => {
    const business = await createBusiness(t, { Name: 'Race Works' });
    const product = await createProduct(t, business);
    const team = (await t.post('/api/spaces/teams', { BusinessId: business, Name: 'Racers' })).body.Value.Id;
    const credit = (await t.post('/api/billing/productbookingcredits', { Name: 'Race hours', ProductId: product, Credit: 1 })).body.Value
      .Id;
    const outcomes = new Map<string, number>();
    const races: Array<{
      name: string;
      make: () => Promise<number>;
      path: string;
      write: (id: number) => Promise<() => Promise<{ status: number }>>;
      read: () => Promise<number[]>;
    }> = [
      {
        name: 'Product.Tariffs',
        make: () => createTariff(t, business),
        path: '/api/billing/tariffs',
        write: async (id) => {
          const body = { ...(await t.get(`/api/billing/products/${product}`)).body, Tariffs: [id] };
          return () => t.put('/api/billing/products', body);
        },
        read: async () => (await t.get(`/api/billing/products/${product}`)).body.Tariffs,
      },
      {
        name: 'new Product.Tariffs',
        make: () => createTariff(t, business),
        path: '/api/billing/tariffs',
        write: async (id) => {
          const body = {
            BusinessId: business,
            Name: 'Raced',
            SystemProductType: 1,
            Description: 'x',
            Price: 1,
            CurrencyId: (await t.get(`/api/sys/businesses/${business}`)).body.CurrencyId,
            AvailableAs: 3,
            Tariffs: [id],
          };
          return () => t.post('/api/billing/products', body);
        },
        read: async () =>
          ((await t.get(`/api/billing/products?Product_Name=Raced&size=1000`)).body.Records as any[]).flatMap((p) => p.Tariffs),
      },
      {
        name: 'ProductBookingCredit.ElegibleTariffs',
        make: () => createTariff(t, business),
        path: '/api/billing/tariffs',
        write: async (id) => {
          const body = { ...(await t.get(`/api/billing/productbookingcredits/${credit}`)).body, ElegibleTariffs: [id] };
          return () => t.put('/api/billing/productbookingcredits', body);
        },
        read: async () => (await t.get(`/api/billing/productbookingcredits/${credit}`)).body.ElegibleTariffs ?? [],
      },
      {
        name: 'Team.TeamMembers',
        make: () => createCoworker(t, business),
        path: '/api/spaces/coworkers',
        write: async (id) => () => t.put(`/api/spaces/teams/${team}`, { TeamMembers: [id] }),
        read: async () => (await t.get(`/api/spaces/teams/${team}`)).body.TeamMembers ?? [],
      },
      {
        name: 'Coworker.TariffId',
        make: () => createTariff(t, business),
        path: '/api/billing/tariffs',
        write: async (id) => () =>
          t.post('/api/spaces/coworkers', { BusinessId: business, FullName: 'Racer', Email: `racer.${id}@example.com`, TariffId: id }),
        read: async () =>
          ((await t.get(`/api/spaces/coworkers?Coworker_FullName=Racer&size=1000`)).body.Records as any[]).map((c) => c.TariffId),
      },
    ];
    for (const race of races) {
      for (let round = 0; round < 12; round++) {
        const id = await race.make();
        const write = await race.write(id);
        // Both requests are sent at once, in either order, ready to go (no read in front of the write).
        // The delete starts with the write or a few milliseconds after it, so both orders occur (no timing is asserted).
        const later = async () => {
          await new Promise((resolve) => setTimeout(resolve, round % 4));
          return t.delete(`${race.path}/${id}`);
        };
        const [written, deleted] =
          round % 2
            ? await Promise.all([write(), later()])
            : ((await Promise.all([t.delete(`${race.path}/${id}`), write()])).reverse() as [{ status: number }, { status: number }]);
        assert.ok(
          [200, 400].includes(written.status) && [200, 400].includes(deleted.status),
          `${race.name}: ${written.status} ${deleted.status}`,
        );
        const exists = (await t.get(`${race.path}/${id}`)).status === 200;
        const named = (await race.read()).includes(id);
        assert.ok(
          !(named && !exists),
          `${race.name} round ${round}: ${id} is named but gone (write ${written.status}, delete ${deleted.status})`,
        );
        assert.ok(
          !(written.status === 200 && deleted.status === 200),
          `${race.name} round ${round}: both the write and the delete succeeded`,
        );
        const key = `${race.name} write ${written.status} delete ${deleted.status}`;
        outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
        // Clear the reference for the next round.
        if (named && race.name !== 'new Product.Tariffs' && race.name !== 'Coworker.TariffId')
          await (await race.write(0))().catch(() => undefined);
      }
    }
    if (process.env.RACE_OUTCOMES) console.log(Object.fromEntries(outcomes));
  });
});

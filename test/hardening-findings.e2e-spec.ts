import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { createProduct } from './support/billing-fixtures.js';
import { create, createBusinesses, createCoworker } from './support/fixtures.js';
import { errorNames, refused } from './support/record-checks.js';
import { appPerSuite } from './support/test-app.js';

// Findings of issue #45 (docs/api.md §1, docs/bookings.md), each over HTTP.

const TYPES = '/api/spaces/resourcetypes';
const RESOURCES = '/api/spaces/resources';
const BOOKINGS = '/api/spaces/bookings';
const PRODUCT_CREDITS = '/api/billing/productbookingcredits';
const CUSTOMER_CREDITS = '/api/billing/coworkerbookingcredits';

describe('hardening findings', () => {
  const t = appPerSuite();
  let business: number;
  let otherBusiness: number;
  let ownType: number;
  let foreignType: number;
  let customer: number;
  let product: number;

  before(async () => {
    [business, otherBusiness] = await createBusinesses(t, 'Canal Works', 'Harbour Hub');
    ownType = await create(t, TYPES, { BusinessId: business, Name: 'Meeting room' });
    foreignType = await create(t, TYPES, { BusinessId: otherBusiness, Name: 'Harbour room' });
    customer = await createCoworker(t, business, { FullName: 'Ada Lovelace' });
    product = await createProduct(t, business);
  });

  describe('ElegibleResourceTypes (docs/api.md §1)', () => {
    const tables = ['productbookingcredit', 'coworkerbookingcredit', 'change_log'];
    const bodies = {
      [PRODUCT_CREDITS]: () => ({ Name: 'Ten hours', ProductId: product, Credit: 10 }),
      [CUSTOMER_CREDITS]: () => ({ CoworkerId: customer, CaneBeUsedForBookings: true, TotalCredit: 10 }),
    };
    for (const [path, body] of Object.entries(bodies)) {
      it(`${path}: a resource type of another business is a 400 naming the field, on create and update; nothing changes`, async () => {
        const res = await refused(t, tables, 400, () => t.post(path, { ...body(), ElegibleResourceTypes: [ownType, foreignType] }));
        assert.deepEqual(errorNames(res.body), ['ElegibleResourceTypes']);
        assert.match(JSON.stringify(res.body), new RegExp(`ResourceType ${foreignType} does not belong to Business ${business}`));
        const id = await create(t, path, { ...body(), ElegibleResourceTypes: [ownType] });
        const update = await refused(t, tables, 400, () => t.put(`${path}/${id}`, { ...body(), ElegibleResourceTypes: [foreignType] }));
        assert.deepEqual(errorNames(update.body), ['ElegibleResourceTypes']);
        assert.deepEqual((await t.get(`${path}/${id}`)).body.ElegibleResourceTypes, [ownType]);
      });

      it(`${path}: an id naming no resource type at all is accepted (it matches none)`, async () => {
        const nothing = 987_654;
        const id = await create(t, path, { ...body(), ElegibleResourceTypes: [ownType, nothing] });
        assert.deepEqual((await t.get(`${path}/${id}`)).body.ElegibleResourceTypes, [ownType, nothing]);
      });
    }

    it('a resource type named by a credit is kept from deletion like any record named by another', async () => {
      const named = await create(t, TYPES, { BusinessId: business, Name: 'Named' });
      await create(t, PRODUCT_CREDITS, { ...bodies[PRODUCT_CREDITS](), ElegibleResourceTypes: [named] });
      await refused(t, ['resourcetype'], 400, () => t.delete(`${TYPES}/${named}`));
    });
  });

  describe('bookings', () => {
    let room: number;
    let day = 0;
    const nextDay = () => {
      day++;
      const date = new Date(Date.UTC(2031, 2, 2 + day));
      return (hour: number, minute = 0) => new Date(date.getTime() + hour * 3_600_000 + minute * 60_000).toISOString().slice(0, 19) + 'Z';
    };
    before(async () => {
      room = await create(t, RESOURCES, { BusinessId: business, Name: 'Room 1', ResourceTypeId: ownType });
    });

    it('a double booking names the booking in the way by its times and Id, not its customer (400 naming FromTime)', async () => {
      const at = nextDay();
      const first = await create(t, BOOKINGS, { CoworkerId: customer, ResourceId: room, FromTime: at(9), ToTime: at(10) });
      const other = await createCoworker(t, business, { FullName: 'Grace Hopper' });
      const res = await refused(t, ['booking', 'change_log'], 400, () =>
        t.post(BOOKINGS, { CoworkerId: other, ResourceId: room, FromTime: at(9, 30), ToTime: at(11) }),
      );
      assert.deepEqual(errorNames(res.body), ['FromTime']);
      const date = at(0).slice(0, 10);
      assert.equal(
        res.body.Message,
        `FromTime: Resource "Room 1" is already booked from 09:00 to 10:00 on ${date} UTC (booking ${first}).`,
      );
      assert.doesNotMatch(JSON.stringify(res.body), /Ada Lovelace/);
    });

    it('losers of a race to cancel, delete or move a booking are told it no longer exists, never "invoiced"', async () => {
      const cancel = (id: number) => t.post(`${BOOKINGS}/runcommand`, { Key: 'CANCEL_BOOKING', Ids: [id], Parameters: [] });
      for (let round = 0; round < 8; round++) {
        const at = nextDay();
        const id = await create(t, BOOKINGS, { CoworkerId: customer, ResourceId: room, FromTime: at(9), ToTime: at(10) });
        const [deleteA, deleteB, cancelled, moved] = await Promise.all([
          t.delete(`${BOOKINGS}/${id}`),
          t.delete(`${BOOKINGS}/${id}`),
          cancel(id),
          t.put(`${BOOKINGS}/${id}`, { FromTime: at(11), ToTime: at(12) }),
        ]);
        const answers = [deleteA, deleteB, cancelled, moved];
        for (const answer of answers) assert.doesNotMatch(answer.text, /invoiced/, `round ${round}: ${answer.status} ${answer.text}`);
        const removals = [deleteA.status === 200, deleteB.status === 200, cancelled.body.WasSuccessful === true].filter(Boolean).length;
        assert.equal(removals, 1, `round ${round}: one removal wins (${answers.map((a) => `${a.status} ${a.text}`).join(' | ')})`);
        for (const lost of [deleteA, deleteB].filter((answer) => answer.status !== 200)) assert.equal(lost.status, 404, lost.text);
        if (cancelled.body.WasSuccessful !== true) {
          assert.equal(cancelled.status, 200, cancelled.text);
          assert.match(cancelled.body.Message, new RegExp(`Booking ${id} does not exist`));
        }
        assert.ok(moved.status === 200 || moved.status === 404, `the move: ${moved.status} ${moved.text}`);
        assert.equal((await t.get(`${BOOKINGS}/${id}`)).status, 404);
      }
    });
  });
});

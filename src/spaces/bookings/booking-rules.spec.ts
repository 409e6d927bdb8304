import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toUnits, unitsText } from '../../kernel/money.js';
import { bookingPrice, bookingRefusal, lengthBoundRefusal, peakOverlap, type BookingFacts } from './booking-rules.js';

const at = (text: string) => new Date(text);
const ms = (text: string) => Date.parse(text);

describe('booking price: HourlyPrice × minutes ÷ 60, to the cent, halves away from zero', () => {
  it('an hour at 10 is 10; ninety minutes is 15', () => {
    assert.equal(unitsText(bookingPrice(toUnits(10), 60)), '10.0000');
    assert.equal(unitsText(bookingPrice(toUnits('10.0000'), 90)), '15.0000');
  });
  it('one minute at 0.30 an hour is half a cent: rounded up to 0.01', () => {
    assert.equal(unitsText(bookingPrice(toUnits(0.3), 1)), '0.0100');
    assert.equal(unitsText(bookingPrice(toUnits(0.29), 1)), '0.0000');
  });
  it('seven minutes at 12.3456 an hour is 1.440320: 1.44', () => {
    assert.equal(unitsText(bookingPrice(toUnits(12.3456), 7)), '1.4400');
  });
  it('exact for large prices: 9999999999999.9999 an hour for 59 minutes', () => {
    assert.equal(unitsText(bookingPrice(toUnits('9999999999999.9999'), 59)), '9833333333333.3300');
  });
  it('free resources cost nothing', () => {
    assert.equal(bookingPrice(0n, 600), 0n);
  });
});

describe('peak overlap', () => {
  const nine = ms('2026-01-05T09:00:00Z');
  const ten = ms('2026-01-05T10:00:00Z');
  const eleven = ms('2026-01-05T11:00:00Z');
  const noon = ms('2026-01-05T12:00:00Z');
  it('touching intervals do not overlap', () => {
    assert.equal(
      peakOverlap(
        [
          [nine, ten],
          [eleven, noon],
        ],
        ten,
        eleven,
      ),
      0,
    );
    assert.equal(
      peakOverlap(
        [
          [nine, ten],
          [ten, eleven],
        ],
        nine,
        eleven,
      ),
      1,
    );
  });
  it('counts the bookings covering one instant, not all that overlap the interval', () => {
    assert.equal(
      peakOverlap(
        [
          [nine, ten],
          [ten, eleven],
          [eleven, noon],
        ],
        nine,
        noon,
      ),
      1,
    );
    assert.equal(
      peakOverlap(
        [
          [nine, eleven],
          [ten, noon],
          [ten, eleven],
        ],
        nine,
        noon,
      ),
      3,
    );
  });
});

describe('booking refusals, in order', () => {
  const facts = (overrides: Partial<BookingFacts> = {}, resource: Partial<BookingFacts['resource']> = {}): BookingFacts => ({
    resource: {
      Id: 1,
      Name: 'Room',
      BusinessId: 7,
      ResourceTypeId: 2,
      Archived: false,
      OnlyForMembers: false,
      Allocation: 1,
      HourlyPrice: 0n,
      MinBookingMinutes: null,
      MaxBookingMinutes: null,
      ...resource,
    },
    customer: { Id: 3, BusinessId: 7, FullName: 'Ada' },
    member: false,
    from: at('2026-01-05T10:00:00Z'),
    to: at('2026-01-05T11:00:00Z'),
    overlapping: [],
    ...overrides,
  });
  const field = (f: BookingFacts) => bookingRefusal(f)?.field ?? null;
  it('a free resource and a customer of its business: none', () => assert.equal(field(facts()), null));
  it('seconds in a time: that time', () => {
    assert.equal(field(facts({ from: at('2026-01-05T10:00:30Z') })), 'FromTime');
    assert.equal(field(facts({ to: at('2026-01-05T11:00:00.500Z') })), 'ToTime');
  });
  it('an end at or before the start: ToTime', () => assert.equal(field(facts({ to: at('2026-01-05T10:00:00Z') })), 'ToTime'));
  it('archived: ResourceId', () => assert.equal(field(facts({}, { Archived: true })), 'ResourceId'));
  it('a customer of another business: CoworkerId', () =>
    assert.equal(field(facts({ customer: { Id: 3, BusinessId: 8, FullName: 'Ada' } })), 'CoworkerId'));
  it('too short or too long: ToTime', () => {
    assert.equal(field(facts({}, { MinBookingMinutes: 61 })), 'ToTime');
    assert.equal(field(facts({}, { MaxBookingMinutes: 59 })), 'ToTime');
    assert.equal(field(facts({}, { MinBookingMinutes: 60, MaxBookingMinutes: 60 })), null);
  });
  it('members only: CoworkerId unless a member', () => {
    assert.equal(field(facts({}, { OnlyForMembers: true })), 'CoworkerId');
    assert.equal(field(facts({ member: true }, { OnlyForMembers: true })), null);
  });
  it('booked up to its allocation: FromTime, saying it is booked', () => {
    const taken = [
      [ms('2026-01-05T11:00:00Z'), ms('2026-01-05T12:00:00Z'), 43],
      [ms('2026-01-05T10:30:00Z'), ms('2026-01-05T12:00:00Z'), 42],
    ] as const;
    const refusal = bookingRefusal(facts({ overlapping: taken }, { Allocation: 1 }));
    assert.equal(refusal?.field, 'FromTime');
    // The earliest booking in the way, by its times and Id.
    assert.match(refusal?.message ?? '', /is already booked from 10:30 to 12:00 on 2026-01-05 UTC \(booking 42\)\./);
    assert.equal(field(facts({ overlapping: taken }, { Allocation: 3 })), null);
  });
});

describe('booking length bound (docs/api.md §9.1 "Bounds")', () => {
  it('31 days exactly is fine; a minute more names ToTime', () => {
    assert.equal(lengthBoundRefusal(at('2030-01-01T09:00:00Z'), at('2030-02-01T09:00:00Z')), null);
    assert.deepEqual(lengthBoundRefusal(at('2030-01-01T09:00:00Z'), at('2030-02-01T09:01:00Z'))?.field, 'ToTime');
  });
  it('times that are wrong in themselves are left to the times rule (whole minutes, end after start)', () => {
    assert.equal(lengthBoundRefusal(at('2030-01-01T09:00:30Z'), at('2030-06-01T09:00:00Z')), null);
    assert.equal(lengthBoundRefusal(at('2030-06-01T09:00:00Z'), at('2030-01-01T09:00:00Z')), null);
  });
});

// The pure rules of a booking (docs/bookings.md): what refuses it, its price, and how many other
// bookings cover the resource at once. Create, move and `available` all decide with these.

import { divideRounded, type Units } from '../../kernel/money.js';

const MINUTE_MS = 60_000;

/** The resource as a booking needs it. */
export interface BookedResource {
  Id: number;
  Name: string;
  BusinessId: number;
  ResourceTypeId: number;
  Archived: boolean;
  OnlyForMembers: boolean;
  Allocation: number;
  /** Units of 1/10,000. */
  HourlyPrice: bigint;
  MinBookingMinutes: number | null;
  MaxBookingMinutes: number | null;
}

/** What a booking is decided on, read in its transaction (after the resource's lock, for a write). */
export interface BookingFacts {
  resource: BookedResource;
  customer: { Id: number; BusinessId: number; FullName: string };
  /** Whether the customer has a contract active at FromTime. */
  member: boolean;
  from: Date;
  to: Date;
  /** The other bookings of the resource that overlap [from, to), as [start, end) in milliseconds and their Id. */
  overlapping: ReadonlyArray<readonly [number, number, number]>;
}

/** Why a booking is refused: the field named and the Message. */
export interface BookingRefusal {
  field: string;
  message: string;
  value: unknown;
}

const wire = (date: Date) => date.toISOString().slice(0, 19) + 'Z';
const wholeMinute = (date: Date) => date.getTime() % MINUTE_MS === 0;

/** Whole minutes between two instants. */
export const minutesBetween = (from: Date, to: Date): number => Math.round((to.getTime() - from.getTime()) / MINUTE_MS);

/**
 * The times alone: whole minutes, ToTime after FromTime. Checked first, since the rest (length,
 * overlaps, price) only mean something for a proper interval.
 */
export function timesRefusal(from: Date, to: Date): BookingRefusal | null {
  if (!wholeMinute(from)) return { field: 'FromTime', message: 'FromTime must be a whole minute (no seconds).', value: wire(from) };
  if (!wholeMinute(to)) return { field: 'ToTime', message: 'ToTime must be a whole minute (no seconds).', value: wire(to) };
  if (to.getTime() <= from.getTime()) return { field: 'ToTime', message: 'ToTime must be after FromTime.', value: wire(to) };
  return null;
}

/** Most days between a booking's FromTime and ToTime (docs/api.md §9.1 "Bounds"). */
export const MAX_BOOKING_DAYS = 31;

/**
 * A booking longer than MAX_BOOKING_DAYS: a 400 naming ToTime, on a write and on `available` alike
 * (docs/api.md §9.1 "Bounds"), so what a booking prices and bills stays bounded. Null when it is not,
 * or when the times themselves are wrong (timesRefusal says so first).
 */
export function lengthBoundRefusal(from: Date, to: Date): BookingRefusal | null {
  if (timesRefusal(from, to) || to.getTime() - from.getTime() <= MAX_BOOKING_DAYS * 24 * 60 * MINUTE_MS) return null;
  return { field: 'ToTime', message: `ToTime must be at most ${MAX_BOOKING_DAYS} days after FromTime.`, value: wire(to) };
}

/** The first rule the booking breaks, in the order a client fixes them; null when it may be made. */
export function bookingRefusal(facts: BookingFacts): BookingRefusal | null {
  const { resource, customer, from, to } = facts;
  const times = timesRefusal(from, to);
  if (times) return times;
  if (resource.Archived)
    return { field: 'ResourceId', message: `Resource "${resource.Name}" is archived and cannot be booked.`, value: resource.Id };
  if (customer.BusinessId !== resource.BusinessId) {
    return {
      field: 'CoworkerId',
      message: `Coworker ${customer.Id} is not a customer of Business ${resource.BusinessId}, the business of Resource ${resource.Id}.`,
      value: customer.Id,
    };
  }
  const minutes = minutesBetween(from, to);
  if (resource.MinBookingMinutes !== null && minutes < resource.MinBookingMinutes) {
    return {
      field: 'ToTime',
      message: `Resource "${resource.Name}" is booked for at least ${resource.MinBookingMinutes} minutes; this booking lasts ${minutes}.`,
      value: wire(to),
    };
  }
  if (resource.MaxBookingMinutes !== null && minutes > resource.MaxBookingMinutes) {
    return {
      field: 'ToTime',
      message: `Resource "${resource.Name}" is booked for at most ${resource.MaxBookingMinutes} minutes; this booking lasts ${minutes}.`,
      value: wire(to),
    };
  }
  if (resource.OnlyForMembers && !facts.member) {
    return {
      field: 'CoworkerId',
      message: `Resource "${resource.Name}" is only for members: ${customer.FullName} has no contract active at ${wire(from)}.`,
      value: customer.Id,
    };
  }
  if (peakOverlap(facts.overlapping, from.getTime(), to.getTime()) >= resource.Allocation) {
    return { field: 'FromTime', message: alreadyBooked(resource.Name, facts.overlapping), value: wire(from) };
  }
  return null;
}

/**
 * Names the booking in the way (the earliest of those overlapping), by its times (UTC) and Id, never
 * by its customer (docs/bookings.md): "Resource "Room 1" is already booked from 09:00 to 10:00 on
 * 2031-03-03 UTC (booking 42)."
 */
function alreadyBooked(resourceName: string, overlapping: BookingFacts['overlapping']): string {
  const [start, end, id] = overlapping.reduce((first, booking) => (booking[0] < first[0] ? booking : first));
  const [startDay, startTime] = new Date(start).toISOString().slice(0, 16).split('T');
  const [endDay, endTime] = new Date(end).toISOString().slice(0, 16).split('T');
  const when =
    startDay === endDay ? `from ${startTime} to ${endTime} on ${startDay}` : `from ${startDay} ${startTime} to ${endDay} ${endTime}`;
  return `Resource "${resourceName}" is already booked ${when} UTC (booking ${id}).`;
}

/**
 * The most of `intervals` ([start, end) in milliseconds) that cover one instant of [from, to): a new
 * booking fits when this is below the resource's Allocation. Intervals that only touch do not overlap.
 */
export function peakOverlap(intervals: ReadonlyArray<readonly [number, number, ...number[]]>, from: number, to: number): number {
  const events: Array<[number, number]> = [];
  for (const [start, end] of intervals) {
    const a = Math.max(start, from);
    const b = Math.min(end, to);
    if (a < b) events.push([a, 1], [b, -1]);
  }
  // Ends before starts at the same instant: [9, 10) and [10, 11) never cover one instant together.
  events.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  let covering = 0;
  let peak = 0;
  for (const [, change] of events) {
    covering += change;
    if (covering > peak) peak = covering;
  }
  return peak;
}

/**
 * A booking's price in units of 1/10,000 (`kernel/money.ts`): HourlyPrice × minutes ÷ 60,
 * rounded to cents, halves away from zero (docs/api.md §9.1), computed exactly.
 */
export function bookingPrice(hourlyPrice: Units, minutes: number): Units {
  // units × minutes ÷ 60 gives units; rounding to cents divides by 100 more.
  return divideRounded(hourlyPrice * BigInt(minutes), 60n * 100n) * 100n;
}

import { create } from './fixtures.js';
import type { TestApp } from './test-app.js';

// Content records most content suites need, created through the API as a client would.

const HOUR = 3_600_000;

/** A wire date-time (whole seconds, Z) this many hours from now; negative for the past. */
export function hoursFromNow(hours: number): string {
  const date = new Date(Date.now() + hours * HOUR);
  date.setUTCMilliseconds(0);
  return date.toISOString().slice(0, 19) + 'Z';
}

export async function createSurvey(t: TestApp, businessId: number, overrides: Record<string, unknown> = {}): Promise<number> {
  return create(t, '/api/content/surveys', { BusinessId: businessId, Name: 'Member satisfaction', ...overrides });
}

/** An event a week from now, lasting two hours, published at once, unlimited unless told. */
export async function createEvent(t: TestApp, businessId: number, overrides: Record<string, unknown> = {}): Promise<number> {
  return create(t, '/api/content/calendarevents', {
    BusinessId: businessId,
    Name: 'Open studio',
    StartDate: hoursFromNow(168),
    EndDate: hoursFromNow(170),
    ...overrides,
  });
}

export async function createAttendee(t: TestApp, eventId: number, overrides: Record<string, unknown> = {}): Promise<number> {
  return create(t, '/api/content/eventattendees', {
    CalendarEventId: eventId,
    FullName: 'Grace Hopper',
    Email: 'grace@example.com',
    ...overrides,
  });
}

import assert from 'node:assert/strict';
import { passwordHashing } from '../../src/auth/passwords.js';
import type { HttpResponse, TestApp } from './test-app.js';

/** POST /api/token with a form, as OAuth clients send it. */
export function requestToken(t: TestApp, form: Record<string, string>, headers: Record<string, string> = {}): Promise<HttpResponse> {
  return t.request('POST', '/api/token', { form, headers, auth: null });
}

export async function passwordToken(
  t: TestApp,
  username: string,
  password: string,
  extra: Record<string, string> = {},
): Promise<{ access_token: string; refresh_token: string; expires_in: number }> {
  const res = await requestToken(t, { grant_type: 'password', username, password, ...extra });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

export const bearer = (token: string) => `Bearer ${token}`;

/** Creates a user through the API and returns its id. */
export async function createUser(t: TestApp, fields: Record<string, unknown>): Promise<number> {
  const res = await t.post('/api/sys/users', { FullName: 'Test User', Password: 'correct horse battery', ...fields });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.Value.Id;
}

/** The decoded payload of a JWT (no verification: tests look at what was issued). */
export function claims(token: string): Record<string, any> {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString());
}

/** Polls until the check passes or the time is up (revocation is allowed up to five seconds). */
export async function eventually(check: () => Promise<boolean>, withinMs = 5000): Promise<number> {
  const start = Date.now();
  for (;;) {
    if (await check()) return Date.now() - start;
    if (Date.now() - start > withinMs) assert.fail(`not within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Takes every password hashing slot (passwords.ts) until `release` is called: checks and hashes made
 * meanwhile wait in its queue as they would behind a burst of logins.
 */
export function holdHashing(): { release: () => void; held: Promise<unknown> } {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const slot = { lane: 'holder', client: 'holder', wanted: () => true };
  const held = Promise.all(Array.from({ length: passwordHashing.limits.concurrency }, () => passwordHashing.run(slot, () => gate)));
  return { release, held };
}

import type { Strategy } from 'passport';
import { Strategy as LocalStrategy } from 'passport-local';

/**
 * Runs a passport strategy against a request and resolves with what it decided: the user, or false
 * when the credentials were missing or refused. Strategies are passport's own (passport-local for the
 * password grant, passport-http for Basic); Nest's guard decides what a refusal means.
 */
export function runStrategy<U>(strategy: Strategy, request: object): Promise<U | false> {
  return new Promise((resolve, reject) => {
    const attempt = Object.create(strategy) as Strategy & {
      success(user: U): void;
      fail(): void;
      error(error: unknown): void;
      pass(): void;
      redirect(): void;
    };
    attempt.success = (user) => resolve(user);
    attempt.fail = () => resolve(false);
    attempt.pass = () => resolve(false);
    attempt.redirect = () => resolve(false);
    attempt.error = (error) => reject(error instanceof Error ? error : new Error(String(error)));
    (attempt.authenticate as (this: unknown, request: never, options: object) => void).call(attempt, request as never, {});
  });
}

type Verify<U> = (username: string, password: string, request: { body?: Record<string, unknown> }) => Promise<U | false>;

/** The password grant's credentials, read from the form fields `username` and `password`. */
export function passwordGrantStrategy<U>(verify: Verify<U>): Strategy {
  return new LocalStrategy({ usernameField: 'username', passwordField: 'password', passReqToCallback: true, session: false }, (request, username, password, done) => {
    verify(username, password, request).then((user) => done(null, user as never), (error) => done(error));
  });
}

/**
 * The credentials of an `Authorization: Basic …` value (RFC 7617): base64 of `user-id:password`, where
 * the user id ends at the first colon and the password may contain more. Null when malformed.
 */
export function parseBasicCredentials(encoded: string): { email: string; password: string } | null {
  const value = encoded.trim();
  if (!value || !/^[A-Za-z0-9+/]+={0,2}$/.test(value)) return null;
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return null;
  return { email: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

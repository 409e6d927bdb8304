import { BasicStrategy } from 'passport-http';

/**
 * The credentials of an `Authorization: Basic …` value (RFC 7617): base64 of `user-id:password`, where
 * the user id ends at the first colon and the password may contain more. Null when malformed.
 */
export function parseBasicCredentials(encoded: string): { userId: string; password: string } | null {
  const value = encoded.trim();
  if (!value || !/^[A-Za-z0-9+/]+={0,2}$/.test(value)) return null;
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return null;
  return { userId: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** The parts of passport-http's strategy (and passport's per-request actions) the override uses. */
interface BasicStrategyInternals {
  _verify: (...args: unknown[]) => void;
  _passReqToCallback?: boolean;
  _challenge(): string;
  success(user: unknown): void;
  fail(challenge: string): void;
  error(error: unknown): void;
}

/**
 * passport-http's Basic strategy with the header parsed as RFC 7617 says. passport-http splits the
 * decoded value at every colon, so a password `pass:x` reached verify as `pass`; this is its
 * `authenticate` with only the parsing replaced. Anything malformed is a failure with the challenge
 * (the guard answers every failure with the same 401).
 */
export class Rfc7617BasicStrategy extends BasicStrategy {
  override authenticate(request: { headers: Record<string, unknown> }): void {
    const self = this as unknown as BasicStrategyInternals;
    const header = request.headers.authorization;
    const space = typeof header === 'string' ? header.indexOf(' ') : -1;
    const scheme = space > 0 ? (header as string).slice(0, space) : '';
    const credentials = scheme.toLowerCase() === 'basic' ? parseBasicCredentials((header as string).slice(space + 1)) : null;
    if (!credentials) return self.fail(self._challenge());
    const verified = (error: unknown, user: unknown) => {
      if (error) return self.error(error);
      if (!user) return self.fail(self._challenge());
      self.success(user);
    };
    if (self._passReqToCallback) self._verify(request, credentials.userId, credentials.password, verified);
    else self._verify(credentials.userId, credentials.password, verified);
  }
}

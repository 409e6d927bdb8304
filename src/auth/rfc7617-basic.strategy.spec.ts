import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import passport from 'passport';
import { BasicStrategy } from 'passport-http';
import { parseBasicCredentials, Rfc7617BasicStrategy } from './rfc7617-basic.strategy.js';

const base64 = (text: string | Buffer) => Buffer.from(text).toString('base64');

describe('Basic credentials (RFC 7617)', () => {
  it('end the user id at the first colon: the password keeps the colons it has', () => {
    assert.deepEqual(parseBasicCredentials(base64('ann@example.com:pass:word:')), { userId: 'ann@example.com', password: 'pass:word:' });
  });

  it('allow an empty password (refused later by the password check, as any wrong password)', () => {
    assert.deepEqual(parseBasicCredentials(base64('ann@example.com:')), { userId: 'ann@example.com', password: '' });
  });

  it('are malformed without a colon, with an empty user id, empty, or not base64', () => {
    for (const encoded of [base64('no-colon-at-all'), base64(':password'), '', '   ', 'not*base64!', '=abc', 'YW5uOnB3=x']) {
      assert.equal(parseBasicCredentials(encoded), null, encoded);
    }
  });

  it('ignore the blanks around the base64 value', () => {
    assert.deepEqual(parseBasicCredentials(`  ${base64('ann:secret')} `), { userId: 'ann', password: 'secret' });
  });

  it('read bytes that are not UTF-8 as U+FFFD, so they match no stored password', () => {
    const parsed = parseBasicCredentials(base64(Buffer.concat([Buffer.from('ann:pa'), Buffer.from([0xff, 0xfe]), Buffer.from('ss')])));
    assert.deepEqual(parsed, { userId: 'ann', password: 'pa\uFFFD\uFFFDss' });
  });
});

type Outcome = { error: unknown; user: unknown; challenge: unknown };

/** Runs a strategy through passport's own authenticate, as @nestjs/passport's AuthGuard does. */
function authenticate(strategy: passport.Strategy, authorization?: string): Promise<Outcome> {
  const request = { headers: authorization === undefined ? {} : { authorization } };
  return new Promise((resolve, reject) => {
    passport.authenticate(strategy, { session: false }, (error: unknown, user: unknown, challenge: unknown) =>
      resolve({ error, user, challenge }),
    )(request, {}, reject);
  });
}

function recordingVerify(answer: (userId: string, password: string) => unknown) {
  const calls: Array<[string, string]> = [];
  const verify = (userId: string, password: string, done: (error: unknown, user?: unknown) => void) => {
    calls.push([userId, password]);
    try {
      done(null, answer(userId, password));
    } catch (error) {
      done(error);
    }
  };
  return { calls, verify };
}

describe('Rfc7617BasicStrategy (passport-http with RFC 7617 parsing)', () => {
  it('hands verify the whole password, colons included, and succeeds with its user', async () => {
    const { calls, verify } = recordingVerify((userId, password) => (password === 'pass:x' ? { userId } : false));
    const outcome = await authenticate(new Rfc7617BasicStrategy(verify), `Basic ${base64('ann:pass:x')}`);
    assert.deepEqual(calls, [['ann', 'pass:x']]);
    assert.deepEqual(outcome.user, { userId: 'ann' });
  });

  it('corrects passport-http, whose own parsing reads `pass:x` as `pass`', async () => {
    const { calls, verify } = recordingVerify(() => false);
    await authenticate(new BasicStrategy(verify), `Basic ${base64('ann:pass:x')}`);
    assert.deepEqual(calls, [['ann', 'pass']]);
  });

  it('accepts the scheme in any case', async () => {
    const { calls, verify } = recordingVerify(() => ({ ok: true }));
    assert.deepEqual((await authenticate(new Rfc7617BasicStrategy(verify), `basic ${base64('ann:pw')}`)).user, { ok: true });
    assert.equal(calls.length, 1);
  });

  it('fails with the challenge, without calling verify, when the header is missing, another scheme or malformed', async () => {
    const { calls, verify } = recordingVerify(() => ({ ok: true }));
    for (const header of [undefined, 'Bearer abc', 'Basic', `Basic ${base64('no-colon')}`, 'Basic not*base64!']) {
      const outcome = await authenticate(new Rfc7617BasicStrategy(verify), header);
      assert.equal(outcome.user, false, String(header));
      assert.equal(outcome.challenge, 'Basic realm="Users"');
    }
    assert.equal(calls.length, 0);
  });

  it('fails when verify refuses, and hands on what verify throws', async () => {
    const refused = await authenticate(new Rfc7617BasicStrategy(recordingVerify(() => false).verify), `Basic ${base64('ann:pw')}`);
    assert.equal(refused.user, false);
    const failure = new Error('database down');
    const errored = await authenticate(
      new Rfc7617BasicStrategy(
        recordingVerify(() => {
          throw failure;
        }).verify,
      ),
      `Basic ${base64('ann:pw')}`,
    );
    assert.equal(errored.error, failure);
  });
});

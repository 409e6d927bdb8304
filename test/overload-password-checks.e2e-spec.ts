import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { passwordHashing } from '../src/auth/passwords.js';
import { bearer, createUser, holdHashing, passwordToken, requestToken } from './support/auth.js';
import { appPerSuite, basicAuth } from './support/test-app.js';

// docs/api.md §2.2: Basic credentials that fail count against the /api/token limit of their address;
// password checks never queue without bound and a check whose request was abandoned is not run; a
// flood of wrong credentials leaves everyone else's requests answered as usual.

const FLOOD = '198.51.100.66';
const from = (address: string) => ({ 'x-forwarded-for': address });
const TOKEN_LIMIT = 30;

const idle = async () => {
  while (passwordHashing.activeCount + passwordHashing.pendingCount > 0) await sleep(10);
};

describe('a flood of wrong Basic credentials', () => {
  const t = appPerSuite({ TRUST_PROXY: '127.0.0.1', RATE_LIMIT_TOKEN_PER_MINUTE: String(TOKEN_LIMIT) });
  let reader: { email: string; password: string; token: string };
  before(async () => {
    const email = 'reader@example.com';
    await createUser(t, { Email: email, Password: 'reader password 1', IsAdmin: true });
    const { access_token } = await passwordToken(t, email, 'reader password 1', { client_id: 'reader' });
    reader = { email, password: 'reader password 1', token: access_token };
    await createUser(t, { Email: 'guessed@example.com', Password: 'guessed password 1' });
  });

  it('is refused with 429 once it passes the token limit of its address, and others are answered as usual', async () => {
    const timed = async (send: () => Promise<{ status: number }>) => {
      const start = performance.now();
      const res = await send();
      return { status: res.status, ms: performance.now() - start };
    };
    const readAsReader = () => timed(() => t.get('/api/sys/businesses', { auth: bearer(reader.token), headers: from('203.0.113.10') }));
    const baseline: number[] = [];
    for (let i = 0; i < 5; i++) baseline.push((await readAsReader()).ms);

    // 150 different wrong guesses, 60 a second, from one address (each needs a password check).
    const sent: Array<Promise<{ status: number }>> = [];
    const flooding = (async () => {
      for (let i = 0; i < 150; i++) {
        sent.push(t.get('/api/sys/countries?size=1', { auth: basicAuth('guessed@example.com', `guess ${i}`), headers: from(FLOOD) }));
        await sleep(1000 / 60);
      }
    })();
    await sleep(500);
    const during = [];
    for (let i = 0; i < 5; i++) during.push(await readAsReader());
    const login = await timed(() =>
      requestToken(
        t,
        { grant_type: 'password', username: reader.email, password: reader.password, client_id: 'during' },
        from('203.0.113.11'),
      ),
    );
    await flooding;
    const statuses = (await Promise.all(sent)).map((res) => res.status);

    assert.deepEqual(
      [...new Set(statuses)].filter((s) => ![401, 429, 503].includes(s)),
      [],
      'only 401, 429 or 503',
    );
    assert.ok(
      statuses.filter((s) => s === 429).length >=
        150 - TOKEN_LIMIT - passwordHashing.limits.perClientWaiting - passwordHashing.limits.concurrency,
      `429s: ${statuses.filter((s) => s === 429).length}`,
    );
    assert.ok(statuses.filter((s) => s === 401).length <= TOKEN_LIMIT);
    // The failures counted against the address's /api/token limit: its logins are refused too.
    assert.equal(
      (await requestToken(t, { grant_type: 'password', username: reader.email, password: reader.password }, from(FLOOD))).status,
      429,
    );
    // Everyone else: bearer reads and a login answered, in about the time they take without the flood.
    assert.deepEqual(
      during.map((r) => r.status),
      [200, 200, 200, 200, 200],
    );
    assert.equal(login.status, 200);
    const normal = Math.max(...baseline);
    for (const { ms } of during)
      assert.ok(ms < normal + 1000, `a bearer read took ${Math.round(ms)} ms during the flood (normal ${Math.round(normal)} ms)`);
    // No backlog of checks is left behind the flood.
    assert.equal(passwordHashing.pendingCount, 0);
  });

  /** Waits until `count` password checks wait in the queue; fails after 10 s (some were refused instead). */
  const checksWaiting = async (count: number) => {
    const until = Date.now() + 10_000;
    while (passwordHashing.pendingCount < count) {
      assert.ok(Date.now() < until, `${passwordHashing.pendingCount} checks waiting, not ${count}`);
      await sleep(5);
    }
  };

  for (const people of [5, 16]) {
    it(`${people} people logging in at once from one address all get their answer (200 or 400), never 503`, async () => {
      const office = `198.51.100.${people}`;
      const email = `office.${people}@example.com`;
      await createUser(t, { Email: email, Password: 'office password 1' });
      // Half of them mistype (under the lockout's ten), all from one address behind a NAT.
      const right = (i: number) => i % 2 === 0;
      const hashing = holdHashing();
      let answers: Array<{ status: number }>;
      try {
        const logins = Array.from({ length: people }, (_, i) =>
          requestToken(
            t,
            { grant_type: 'password', username: email, password: right(i) ? 'office password 1' : `typo ${i}`, client_id: `office ${i}` },
            from(office),
          ),
        );
        await checksWaiting(people).finally(() => hashing.release());
        answers = await Promise.all(logins);
      } finally {
        hashing.release();
      }
      await hashing.held;
      assert.deepEqual(
        answers.map((res) => res.status),
        Array.from({ length: people }, (_, i) => (right(i) ? 200 : 400)),
      );
    });
  }

  it('beyond its share of the queue an address is refused at once with 429 and Retry-After; others still queue', async () => {
    const email = 'share@example.com';
    await createUser(t, { Email: email, Password: 'share password 1' });
    const share = passwordHashing.limits.perClientWaiting;
    const address = '198.51.100.77';
    const hashing = holdHashing();
    let beyond: { status: number; headers: Headers } | undefined;
    let waiting: Array<Promise<{ status: number }>> = [];
    let another: Promise<{ status: number }> | undefined;
    try {
      // Basic credentials, each different (equal ones would share one check).
      waiting = Array.from({ length: share }, (_, i) =>
        t.get('/api/sys/countries?size=1', { auth: basicAuth(email, `guess ${i}`), headers: from(address) }),
      );
      await checksWaiting(share);
      beyond = await t.get('/api/sys/countries?size=1', { auth: basicAuth(email, 'one guess too many'), headers: from(address) });
      another = t.get('/api/sys/countries?size=1', { auth: basicAuth(email, 'from elsewhere'), headers: from('198.51.100.78') });
      await checksWaiting(share + 1);
    } finally {
      hashing.release();
    }
    await hashing.held;
    assert.equal(beyond?.status, 429);
    assert.equal(beyond?.headers.get('retry-after'), '1');
    assert.deepEqual([...new Set((await Promise.all([...waiting, another])).map((res) => res.status))], [401]);
  });

  it('an address that logged in lately is served in turn beside a queue full of others', async () => {
    const known = '203.0.113.50';
    assert.equal(
      (
        await requestToken(
          t,
          { grant_type: 'password', username: reader.email, password: reader.password, client_id: 'known' },
          from(known),
        )
      ).status,
      200,
    );
    await createUser(t, { Email: 'flooded@example.com', Password: 'flooded password 1' });
    const hashing = holdHashing();
    const finished: string[] = [];
    let flood: Array<Promise<unknown>> = [];
    let login: Promise<{ status: number }> | undefined;
    try {
      // The other lane full, one check per random address.
      flood = Array.from({ length: passwordHashing.limits.laneWaiting }, (_, i) =>
        t
          .get('/api/sys/countries?size=1', {
            auth: basicAuth('flooded@example.com', `f ${i}`),
            headers: from(`10.9.${i >> 8}.${i & 255}`),
          })
          .then(() => finished.push('flood')),
      );
      await checksWaiting(passwordHashing.limits.laneWaiting);
      login = requestToken(
        t,
        { grant_type: 'password', username: reader.email, password: reader.password, client_id: 'known' },
        from(known),
      );
      login.then(
        () => finished.push('login'),
        () => undefined,
      );
      await checksWaiting(passwordHashing.limits.laneWaiting + 1);
    } finally {
      hashing.release();
    }
    await hashing.held;
    assert.equal((await login).status, 200);
    await Promise.all(flood);
    // Served within the first few turns, not behind the checks that waited before it.
    assert.ok(finished.indexOf('login') <= 4, `answered after ${finished.indexOf('login')} of the flood`);
  });

  it('a check whose client went away is not run', async () => {
    const victim = 'victim@example.com';
    await createUser(t, { Email: victim, Password: 'victim password 1' });
    const hashing = holdHashing();
    const aborts: AbortController[] = [];
    const sent: Array<Promise<unknown>> = [];
    try {
      for (let i = 0; i < 4; i++) {
        const abort = new AbortController();
        aborts.push(abort);
        sent.push(
          fetch(`${t.url}/api/sys/countries?size=1`, {
            headers: { authorization: basicAuth(victim, `wrong ${i}`), ...from(`192.0.2.${i + 1}`) },
            signal: abort.signal,
          }).catch(() => 'aborted'),
        );
      }
      while (passwordHashing.pendingCount < 4) await sleep(5);
      for (const abort of aborts) abort.abort();
      await Promise.all(sent);
      await sleep(200); // the server sees the connections close
    } finally {
      hashing.release();
    }
    await hashing.held;
    await idle();
    const [row] = (await t.rows('user')).filter((u) => u.Email === victim);
    assert.equal(Number(row.FailedLoginCount ?? 0), 0, 'abandoned checks were run (each counted a failed login)');
  });

  it('checks beyond the capacity are refused at once with 503 and Retry-After, not queued', async () => {
    await createUser(t, { Email: 'target@example.com', Password: 'target password 1' });
    const hashing = holdHashing();
    let answers: Array<{ status: number; headers: Headers }> = [];
    try {
      const queued = passwordHashing.limits.laneWaiting;
      // One check per address (the per-address share is not what is tested here).
      const waiting = Array.from({ length: queued }, (_, i) =>
        t.get('/api/sys/countries?size=1', { auth: basicAuth('target@example.com', `w ${i}`), headers: from(`192.0.2.${100 + i}`) }),
      );
      while (passwordHashing.pendingCount < queued) await sleep(5);
      const more = Promise.all(
        Array.from({ length: 5 }, (_, i) =>
          t.get('/api/sys/countries?size=1', { auth: basicAuth('target@example.com', `x ${i}`), headers: from(`192.0.2.${200 + i}`) }),
        ),
      );
      // Answered while the capacity is still held (or, queued behind it, not at all: then the test fails).
      const answered = await Promise.race([more, sleep(15_000, null, { ref: false })]);
      assert.ok(answered, 'checks beyond the capacity waited in a queue');
      answers = answered;
      hashing.release();
      assert.deepEqual([...new Set((await Promise.all(waiting)).map((r) => r.status))], [401]);
    } finally {
      hashing.release();
    }
    await hashing.held;
    assert.deepEqual(
      answers.map((r) => r.status),
      [503, 503, 503, 503, 503],
    );
    assert.equal(answers[0].headers.get('retry-after'), '1');
  });
});

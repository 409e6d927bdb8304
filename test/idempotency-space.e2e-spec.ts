import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { bearer, createUser, passwordToken } from './support/auth.js';
import { createBusiness, currencyId } from './support/fixtures.js';
import { appPerSuite } from './support/test-app.js';

// docs/api.md §5.2: the stored answers of a user's Idempotency-Keys count against a bounded space (at most
// 1 MiB per user is kept), while a key's replay still never writes twice.

const PRODUCTS = '/api/billing/products';
const MIB = 1024 * 1024;
const PASSWORD = 'correct horse battery';

describe("the stored answers of one user's Idempotency-Keys are bounded", () => {
  const t = appPerSuite();
  let business: number;
  let gbp: number;
  let flooder: string;
  let other: string;
  before(async () => {
    business = await createBusiness(t);
    gbp = await currencyId(t, 'GBP');
    for (const email of ['flooder@example.com', 'other@example.com'])
      await createUser(t, { Email: email, IsAdmin: true, Password: PASSWORD });
    flooder = bearer((await passwordToken(t, 'flooder@example.com', PASSWORD)).access_token);
    other = bearer((await passwordToken(t, 'other@example.com', PASSWORD)).access_token);
  });

  const product = (overrides: Record<string, unknown> = {}) => ({
    BusinessId: business,
    Name: 'Coffee',
    SystemProductType: 3,
    Description: 'A cup',
    Price: 2.5,
    CurrencyId: gbp,
    AvailableAs: 3,
    DisplayOrder: 0,
    ...overrides,
  });
  /** A refusal that echoes a 7,000-character value: an answer of some 7 KB, under the 8 KiB kept in full. */
  const invalid = (i: number) => product({ Name: `${i}`.padEnd(7000, 'n') });
  const post = (auth: string, key: string, body: unknown) =>
    t.request('POST', PRODUCTS, { body, headers: { 'Idempotency-Key': key }, auth });
  const storedBytes = async () =>
    (await t.rows('idempotency_key')).reduce((sum, row) => sum + Buffer.byteLength(String(row.Body ?? '')), 0);
  const products = async () => (await t.rows('product')).length;

  /** `count` keyed refusals from one user, ten at a time. */
  async function flood(auth: string, prefix: string, count: number): Promise<string[]> {
    const texts: string[] = [];
    for (let i = 0; i < count; i += 10) {
      const answers = await Promise.all(
        Array.from({ length: Math.min(10, count - i) }, (_, j) => post(auth, `${prefix}-${i + j}`, invalid(i + j))),
      );
      for (const answer of answers) {
        assert.equal(answer.status, 400, answer.text.slice(0, 200));
        texts.push(answer.text);
      }
    }
    return texts;
  }

  it('two hundred keyed ~7 KB refusals keep at most 1 MiB; the latest replay as sent, the earliest are refused again; successes stay', async () => {
    const before = await products();
    // A keyed success first: it must outlive any flood (its replay is what keeps a retry from writing twice).
    const created = await post(flooder, 'the-write', product({ Name: 'Kept write' }));
    assert.equal(created.status, 200, created.text);

    const texts = await flood(flooder, 'refusal', 200);
    assert.ok(Buffer.byteLength(texts[0]) > 7000, `a refusal of ${Buffer.byteLength(texts[0])} bytes`);
    const stored = await storedBytes();
    assert.ok(stored <= MIB, `${stored} bytes stored for one user's keys`);

    // The latest refusal is kept and replayed byte for byte.
    const latest = await post(flooder, 'refusal-199', invalid(199));
    assert.equal(latest.status, 400);
    assert.equal(latest.headers.get('idempotent-replayed'), 'true');
    assert.equal(latest.text, texts[199]);
    // The earliest one gave its room up: a retry is processed afresh, refused again, and writes nothing.
    const earliest = await post(flooder, 'refusal-0', invalid(0));
    assert.equal(earliest.status, 400);
    assert.equal(earliest.headers.get('idempotent-replayed'), null);
    // The success is still replayed, byte for byte, and wrote once.
    const replayed = await post(flooder, 'the-write', product({ Name: 'Kept write' }));
    assert.equal(replayed.status, 200);
    assert.equal(replayed.headers.get('idempotent-replayed'), 'true');
    assert.equal(replayed.text, created.text);
    assert.equal(await products(), before + 1);
  });

  it("another user's space is its own: its refusal is kept in full and replayed byte for byte", async () => {
    const first = await post(other, 'mine', invalid(1));
    assert.equal(first.status, 400);
    const again = await post(other, 'mine', invalid(1));
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.equal(again.text, first.text);
  });
});

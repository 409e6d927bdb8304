import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ROOT, startService, type Service } from './support/service.js';
import { basicAuth, freshMySqlDatabase, onMySql } from './support/test-app.js';

// The README's five-minute tour, pasted as it is: its shell blocks run one after another in one bash
// (as a reader pastes them into one terminal) against `node dist/src/main.js` started as the README's
// first command starts it, with the bootstrap administrator. Each block must succeed (curl fails on any
// error status), print what the README says it does, and leave the records it says.

const ADMIN = { email: 'admin@example.com', password: 'a long secret' };

/** The shell blocks of the README's tour section, in order. */
function tourBlocks(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.split(/^## /m).find((part) => part.startsWith('A five-minute tour'));
  assert.ok(section, 'the README has a "A five-minute tour" section');
  return [...section.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((match) => match[1]);
}

/** Runs a bash script; resolves with its exit code and output. */
function bash(script: string, env: Record<string, string>, cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', script], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe("the README's five-minute tour", () => {
  let service: Service;
  let folder: string;
  let dropDatabase = async () => {};

  before(async () => {
    folder = mkdtempSync(join(tmpdir(), 'readme-tour-'));
    let databaseUrl = `sqlite:${join(folder, 'coworking.sqlite')}`;
    if (onMySql) {
      const database = await freshMySqlDatabase();
      databaseUrl = database.url;
      dropDatabase = database.drop;
    }
    service = await startService('readme', {
      NODE_ENV: 'development',
      DATABASE_URL: databaseUrl,
      BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
      BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
    });
  });
  after(async () => {
    await service?.stop();
    await dropDatabase();
    rmSync(folder, { recursive: true, force: true });
  });

  it('works pasted block by block, and does what it says', async () => {
    const blocks = tourBlocks();
    assert.equal(
      blocks.length,
      11,
      'sign-in, business, products, list, ETag and PUT, delete, customer, waiting list, billing run, settlement, presence',
    );
    // After each block, a marker and the checks of what it set; `set -e` stops at the first failure.
    const checks = [
      '[ ${#ACCESS_TOKEN} -gt 20 ]',
      '[[ "$GBP" =~ ^[0-9]+$ && "$GB" =~ ^[0-9]+$ && "$BUSINESS" =~ ^[0-9]+$ ]]',
      '[[ "$PRODUCT" =~ ^[0-9]+$ ]]',
      '',
      '[ -n "$ETAG" ]',
      '',
      '[ ${#CUSTOMER_TOKEN} -gt 20 ]',
      '[[ "$EVENT" =~ ^[0-9]+$ ]]',
      '[[ "$ADA" =~ ^[0-9]+$ && "$TARIFF" =~ ^[0-9]+$ && "$INVOICE" =~ ^[0-9]+$ ]]',
      '[[ "$NOTE" =~ ^[0-9]+$ && -s invoice.pdf ]]',
      '[[ "$PASS_KIND" =~ ^[0-9]+$ && "$DAY_PASS" =~ ^[0-9]+$ && "$CHECKIN" =~ ^[0-9]+$ && "$GRACE_INVOICE" =~ ^[0-9]+$ ]]',
    ];
    const script = [
      'set -euo pipefail',
      ...blocks.flatMap((block, i) => [
        block,
        checks[i],
        `echo "@@ block ${i + 1} done"`,
        'echo "@@ PRODUCT=${PRODUCT:-} EVENT=${EVENT:-}"',
      ]),
    ].join('\n');
    const run = await bash(script, { BASE: service.url }, folder);
    assert.equal(
      run.code,
      0,
      `the tour stopped after: ${run.stdout.match(/@@ block \d+ done/g)?.pop() ?? 'nothing'}\n${run.stdout}\n${run.stderr}`,
    );
    const steps = run.stdout.split(/^@@ block \d+ done$/m);
    assert.match(steps[2], /"Product was successfully created."/);
    const listed = JSON.parse(steps[3].replace(/^@@.*$/m, ''));
    assert.deepEqual(listed, { TotalItems: 2, TotalPages: 2, HasNextPage: true, Names: ['Week pass'] });
    assert.match(steps[4], /"Product was successfully updated."\n412\n/);
    assert.match(steps[5], /"Product was successfully deleted."/);
    assert.match(steps[6], /"Coworker was successfully created."/);
    assert.match(steps[7], /"EventAttendee was successfully created."/);
    assert.match(steps[7], /"SoldOut": true/);
    assert.match(steps[7], /^200$/m);
    assert.match(steps[7], /"FullName": "Ada Lovelace"/);
    assert.match(steps[8], /"CoworkerContract was successfully created."/);
    const [lines, invoice] = [...steps[8].matchAll(/^[[{][\s\S]*?^[\]}]$/gm)].map((m) => JSON.parse(m[0]));
    assert.deepEqual(
      lines.map((line: { TotalAmount: number }) => line.TotalAmount),
      [154.84, 300],
      'a pro-rated January (300 × 16 ÷ 31) and a whole February',
    );
    assert.match(lines[0].Description, /Resident desk/);
    assert.deepEqual([invoice.TotalAmount, invoice.DueAmount], [454.84, 454.84]);
    assert.ok(invoice.InvoiceNumber, 'the invoice has its number');
    // Settled in part: 200 paid, 54.84 credited, 200 due; the PDF downloaded.
    assert.match(steps[9], /"CoworkerLedgerEntry was successfully created."/);
    const settled = JSON.parse(steps[9].match(/^\{[\s\S]*?^\}$/m)![0]);
    assert.deepEqual(settled, { PaidAmount: 200, DueAmount: 200, Paid: false });
    assert.match(steps[9], /^%PDF-1\.\d$/m);
    // Presence: the day pass sold, Grace in on it, checked out, the sale on her invoice.
    assert.match(steps[10], /"CoworkerProduct was successfully created."/);
    assert.match(steps[10], /"CoworkerFullName": "Grace Hopper",\s*"UsedPass": true/);
    assert.match(steps[10], /"Checkin was successfully updated."/);
    const [graceLines] = [...steps[10].matchAll(/^\[[\s\S]*?^\]$/gm)].map((m) => JSON.parse(m[0])).slice(-1);
    assert.deepEqual(graceLines, [{ Description: 'Day pass (2030-03-02)', TotalAmount: 25 }]);

    // What the tour left, as the API reads it.
    const [, product, event] = /@@ PRODUCT=(\d+) EVENT=(\d+)\s*$/.exec(run.stdout)!;
    const read = async (path: string) => {
      const res = await fetch(service.url + path, { headers: { authorization: basicAuth(ADMIN.email, ADMIN.password) } });
      return { status: res.status, body: (await res.json()) as any };
    };
    assert.equal((await read(`/api/billing/products/${product}`)).status, 404);
    const products = (await read('/api/billing/products')).body;
    assert.deepEqual(
      products.Records.map((p: { Name: string; Price: number }) => [p.Name, p.Price]),
      [
        ['Week pass', 100],
        ['Day pass', 25],
      ],
    );
    const checkins = (await read('/api/spaces/checkins')).body;
    assert.deepEqual(
      checkins.Records.map((c: { ToTime: string }) => c.ToTime),
      ['2030-03-02T17:30:00Z'],
    );
    const waiting = (await read(`/api/content/eventwaitingattendees?EventWaitingAttendee_CalendarEventId=${event}`)).body;
    assert.deepEqual(
      waiting.Records.map((w: { Email: string }) => w.Email),
      ['ada@example.com'],
    );
    const pdf = readFileSync(join(folder, 'invoice.pdf'));
    assert.ok(pdf.length > 1000 && pdf.subarray(0, 5).toString() === '%PDF-', 'invoice.pdf is a PDF');
    const history = (await read(`/api/billing/products/${product}/history`)).body;
    assert.deepEqual(
      history.Records.map((h: { Action: string }) => h.Action),
      ['Delete', 'Update', 'Create'],
    );
    const priceChange = history.Records[1].Changes.find((c: { Field: string }) => c.Field === 'Price');
    assert.deepEqual(priceChange, { Field: 'Price', From: 25, To: 27.5 });
  });
});

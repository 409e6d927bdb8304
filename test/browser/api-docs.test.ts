// npm run test:browser: the browsable API documentation in a real browser (Debian's Chromium, driven
// headless by playwright-core): authorise with a token from /api/token and "Try it out".
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { passwordToken } from '../support/auth.js';
import { createProduct } from '../support/billing-fixtures.js';
import { createBusiness } from '../support/fixtures.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startApp, type TestApp } from '../support/test-app.js';

/** The operation tried out. */
const ENDPOINT = '/api/billing/products';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

describe(
  'API documentation at /api/docs in Chromium',
  { skip: !existsSync(CHROMIUM) && !process.env.CI && `no Chromium at ${CHROMIUM}` },
  () => {
    let t: TestApp;
    let browser: BrowserContext;
    let profile: string;
    let page: Page;
    let product: number;
    const blocked: string[] = [];

    before(async () => {
      t = await startApp();
      product = await createProduct(t, await createBusiness(t), { Name: 'Shown in the browser' });
      profile = mkdtempSync(join(tmpdir(), 'cw-chromium-'));
      // A fresh profile (user data directory) each run.
      browser = await chromium.launchPersistentContext(profile, {
        executablePath: CHROMIUM,
        headless: true,
        args: [
          '--no-sandbox',
          '--disable-gpu',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
        ],
      });
      page = browser.pages()[0] ?? (await browser.newPage());
      // What the page's Content-Security-Policy blocks is reported on the console.
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) blocked.push(message.text());
      });
    });
    after(async () => {
      await browser?.close();
      await t?.close();
      if (profile) rmSync(profile, { recursive: true, force: true });
    });

    const operation = () =>
      page
        .locator('.opblock.opblock-get')
        .filter({ has: page.locator(`.opblock-summary-path[data-path="${ENDPOINT}"]`) })
        .first();
    const liveStatus = () => operation().locator('.live-responses-table tbody tr.response .response-col_status').first();
    /**
     * Swagger UI renders a long list of operations virtually (only those near the viewport are in the
     * page): scroll from the top until the operation is rendered, then bring it into view.
     */
    const reveal = async () => {
      // Each step waits for two frames, so the rows that came into view are rendered before the next
      // step scrolls on (a busy browser rendered them late and the loop scrolled past); should one pass
      // still miss the operation, the next goes slower.
      for (let pass = 1; pass <= 3 && (await operation().count()) === 0; pass++) {
        await page.evaluate('window.scrollTo(0, 0)');
        const bottom = () => page.evaluate<boolean>('window.scrollY + window.innerHeight >= document.body.scrollHeight');
        while ((await operation().count()) === 0 && !(await bottom())) {
          await page.evaluate(`window.scrollBy(0, ${400 / pass})`);
          await page.evaluate('new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))');
          await page.waitForTimeout(20 * pass);
        }
      }
      await operation().scrollIntoViewIfNeeded();
    };

    it('shows the documented operations', async () => {
      const response = await page.goto(`${t.url}/api/docs`, { waitUntil: 'domcontentloaded' });
      assert.equal(response?.status(), 200);
      await page.locator('.swagger-ui .info .title').waitFor({ timeout: 20_000 });
      assert.match(await page.locator('.swagger-ui .info .title').innerText(), /Coworking API/);
      await reveal();
      await operation().waitFor();
    });

    it(`"Try it out" on GET ${ENDPOINT} without authorising: 401`, async () => {
      await reveal();
      await operation().locator('.opblock-summary').first().click();
      await operation().locator('button.try-out__btn').click();
      await operation().locator('button.execute').click();
      await assert.doesNotReject(liveStatus().filter({ hasText: '401' }).waitFor({ timeout: 10_000 }));
    });

    it('authorises with a bearer token from /api/token; "Try it out" then answers 200 with the list envelope', async () => {
      const { access_token } = await passwordToken(t, ADMIN_EMAIL, ADMIN_PASSWORD);
      await page.locator('.scheme-container button.authorize').click();
      const dialog = page.locator('.dialog-ux .modal-ux');
      await dialog.locator('input[aria-label="auth-bearer-value"]').fill(access_token);
      await dialog
        .locator('.auth-container')
        .filter({ has: page.locator('input[aria-label="auth-bearer-value"]') })
        .locator('button[aria-label="Apply credentials"]')
        .click();
      await dialog.locator('button.btn-done').first().click();

      await reveal();
      await operation().locator('button.execute').click();
      await liveStatus().filter({ hasText: '200' }).waitFor({ timeout: 10_000 });
      const curl = await operation().locator('.curl-command').innerText();
      assert.match(curl, new RegExp(`Authorization: Bearer ${access_token.slice(0, 20)}`));
      const shown = await operation()
        .locator('.live-responses-table tbody tr.response .response-col_description .highlight-code code')
        .first()
        .innerText();
      const envelope = JSON.parse(shown);
      for (const key of ['Records', 'CurrentPageSize', 'CurrentPage', 'TotalItems', 'TotalPages', 'HasNextPage', 'PageSize'])
        assert.ok(key in envelope, `${key} in ${shown}`);
      assert.ok(Array.isArray(envelope.Records));
      assert.equal(envelope.Records[0].Id, product);
      assert.equal(envelope.Records[0].Name, 'Shown in the browser');
      if (process.env.SCREENSHOT) await page.screenshot({ path: process.env.SCREENSHOT, fullPage: false });
    });

    it('keeps the token in the page only: nothing in localStorage or sessionStorage (persistAuthorization: false)', async () => {
      const stored = await page.evaluate<string>('JSON.stringify([Object.entries(localStorage), Object.entries(sessionStorage)])');
      assert.doesNotMatch(stored, /eyJ/, 'no JWT stored');
      assert.doesNotMatch(stored, /authorized/i);
    });

    it("the page's Content-Security-Policy blocked nothing it needs", () => {
      assert.deepEqual(blocked, []);
    });
  },
);

// The pages' rough edges at a phone's width (390 px) and a
// laptop's (1280 px) in Chromium: a form's error summary that quotes a long URL wraps; state
// badges stay beside their label and keep their size; the Activity table's Details can be
// read in full; the metadata-document host input looks like every other input; a reviewer's
// note that ends in "." gets no second one; the 404 page of a signed-in user offers their
// account, not "Log in"; a redirect URI with a query string is warned about; and the API
// reference lets a visitor paste an access token and try an operation, with no dead-end
// OAuth button and no one-entry definition menu. Each step keeps a screenshot first, so
// that a run on older code still shows what it looked like.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromiumAvailable, fitsWidth, keepScreenshot, launchChromium, screenshotDir } from '../helpers/chromium.ts';
import { startTestServer, type TestClient, type TestServer, type TestUser } from '../helpers/server.ts';
import { reviewClient } from '../../src/services/clients/review.ts';

const DEV = '/settings/developer/oauth-clients';
const ADMIN = '/admin/oauth-clients';
const widths = [390, 1280] as const;
const longUri = 'http://planner.example.com/oauth/callback/for-the-calendar-integration-of-acme-industries-international';
const heldUri = 'https://planner.example.com/oauth/callback/calendarintegrationforacmeindustriesinternationalintheeuwestregion?tenant=acmeindustriesinternational';

describe.skipIf(!chromiumAvailable)('the pages’ rough edges at 390 and 1280 px', { timeout: 240_000 }, () => {
  let server: TestServer;
  let chromium: Browser;
  let person: TestUser;
  const contexts: BrowserContext[] = [];
  const approved = new Map<number, TestClient>();
  const rejected = new Map<number, TestClient>();
  let token: string;

  beforeAll(async () => {
    server = await startTestServer('sqlite');
    chromium = await launchChromium();
    person = await server.user({ admin: true, name: 'Dana Developer' });
    for (const width of widths) {
      approved.set(width, await server.client(person, { name: `Planner ${width}`, redirectUris: ['https://planner.example.com/callback'] }));
      const r = await server.client(person, { name: `Rejected Planner ${width}`, state: 'pending' });
      await reviewClient(server.services, r.clientId, 'reject', null, 'Uses a redirect URI on another domain.');
      rejected.set(width, r);
    }
    await server.client(person, { name: 'Old Integration', scopes: null });
    const app = approved.get(1280)!;
    token = String((await server.exchange(app, await server.code(app, person))).body.access_token);
  });
  afterAll(async () => {
    for (const c of contexts) await c.close();
    await chromium?.close();
    await server?.close();
  });

  async function signedIn(width: number): Promise<Page> {
    const context = await chromium.newContext({ viewport: { width, height: width === 390 ? 844 : 900 }, ...(width === 390 ? { isMobile: true, hasTouch: true } : {}) });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(`${server.url}/login`);
    await page.getByLabel('Email').fill(person.email);
    await page.getByLabel('Password').fill(person.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`${server.url}/`);
    return page;
  }

  for (const width of widths) {
    it(`${width} px: forms, badges, Activity, the host input, notes, the 404 page`, async () => {
      const page = await signedIn(width);
      const shot = (name: string) => keepScreenshot(page, `issue24-${width}-${name}`);

      // The error summary quotes a long URL: it wraps instead of scrolling sideways.
      await page.goto(`${server.url}${DEV}/new`);
      await page.getByLabel('Application name').fill('Planner');
      await page.getByLabel('Redirect URIs', { exact: true }).fill(longUri);
      await page.getByRole('button', { name: 'Register client' }).click();
      await page.locator('.error-summary').waitFor();
      await shot('01-register-error-summary');
      expect.soft(await page.locator('.error-summary').textContent()).toContain(longUri);
      expect.soft(await fitsWidth(page), 'the form scrolls sideways').toBe(true);

      // The registration form says what a query string does; one given is warned about.
      expect.soft(await page.locator('#redirect_uris-hint').textContent()).toMatch(/query string .*openid-client/);
      const withQuery = 'https://planner.example.com/callback?tenant=acme';
      await page.getByLabel('Redirect URIs', { exact: true }).fill(withQuery);
      await page.getByRole('checkbox', { name: 'PROFILE_READ Read the authorized user\'s profile.', exact: true }).check();
      await page.getByRole('button', { name: 'Register client' }).click();
      await page.locator('#client-title').waitFor();
      await shot('02-client-with-query-redirect');
      expect.soft(await page.locator('#redirect-query-warning').textContent().catch(() => null)).toContain(withQuery);
      await page.goto(`${server.url}${DEV}/${await page.locator('#client-id').textContent()}/edit`);
      await page.locator('#redirect_uris').waitFor();
      await shot('03-edit-form-query-warning');
      expect.soft(await page.locator('#redirect_uris-query').textContent().catch(() => null)).toContain(withQuery);

      // Badges stay beside the label of their row, at their own size.
      await page.goto(`${server.url}${DEV}`);
      await page.locator('table.clients').waitFor();
      await shot('04-developer-clients');
      const legacyRow = page.locator('tr', { hasText: 'Old Integration' });
      const nameCell = (await legacyRow.locator('td').first().boundingBox())!;
      const legacyBadge = (await legacyRow.locator('.badge.legacy').boundingBox())!;
      const stateBadge = (await legacyRow.locator('td[data-label=State] .badge').boundingBox())!;
      const label = width === 390 ? 7.5 * 16 : 0;
      expect.soft(legacyBadge.x, 'the Legacy badge falls into the label column').toBeGreaterThanOrEqual(nameCell.x + label);
      expect.soft(stateBadge.width, 'the state pill stretches').toBeLessThan(120);

      // The Activity table shows Details in full, without a scrollbar of its own.
      await page.goto(`${server.url}${DEV}/${approved.get(width)!.clientId}/edit`);
      await page.getByLabel('Redirect URIs', { exact: true }).fill(`https://planner.example.com/callback\n${heldUri}`);
      await page.getByRole('button', { name: 'Save' }).click();
      await page.locator('#events-title').waitFor();
      await page.locator('#events-title').scrollIntoViewIfNeeded();
      await shot('05-client-activity');
      const details = page.locator('table.events tr[data-event="client.updated"] td[data-label=Details]').first();
      expect.soft(await details.textContent()).toContain(heldUri);
      const clipped = await page.locator('#events-title ~ .table-wrap, #events-title + * .table-wrap, .table-wrap:has(table.events)').first().evaluate((wrap) => wrap.scrollWidth > wrap.clientWidth + 1);
      expect.soft(clipped, 'the Activity table scrolls sideways inside its card').toBe(false);
      expect.soft(await fitsWidth(page)).toBe(true);

      // A reviewer's note that ends in "." gets no second one.
      await page.goto(`${server.url}${DEV}/${rejected.get(width)!.clientId}`);
      await page.locator('#state-note').waitFor();
      await shot('06-rejected-note');
      expect.soft(await page.locator('#state-note').textContent()).toMatch(/another domain\. Fix what/);

      // The metadata-document host input looks like the other inputs.
      await page.goto(`${server.url}${ADMIN}#hosts`);
      await page.locator('#host').scrollIntoViewIfNeeded();
      await shot('07-admin-hosts');
      const style = (selector: string) => page.locator(selector).evaluate((el) => {
        const s = getComputedStyle(el);
        return { borderRadius: s.borderRadius, padding: s.padding, fullWidth: Math.abs(el.getBoundingClientRect().width - el.parentElement!.getBoundingClientRect().width + parseFloat(getComputedStyle(el.parentElement!).paddingLeft) + parseFloat(getComputedStyle(el.parentElement!).paddingRight)) < 2 };
      });
      expect.soft(await style('#host')).toEqual({ borderRadius: '6px', padding: '8.8px 9.6px', fullWidth: true });

      // The 404 page of a signed-in user offers their account, not "Log in".
      await page.goto(`${server.url}/no-such-page`);
      await page.locator('h1').waitFor();
      await shot('08-not-found-signed-in');
      expect.soft(await page.locator('header.top').getByRole('link', { name: 'Log in' }).count()).toBe(0);
      expect.soft(await page.locator('header.top a[href="/logout"]').count()).toBe(1);
      expect.soft(await page.locator('header.top .who').textContent().catch(() => null)).toBe('Dana Developer');
    });

    it(`${width} px: the API reference takes a pasted access token and tries an operation`, async () => {
      const context = await chromium.newContext({ viewport: { width, height: width === 390 ? 844 : 900 } });
      contexts.push(context);
      const page = await context.newPage();
      // The reference is long: what the screen shows is what these steps are about.
      const shot = async (name: string) => {
        mkdirSync(screenshotDir, { recursive: true });
        await page.screenshot({ path: join(screenshotDir, `issue24-${width}-${name}.png`) });
      };
      await page.goto(`${server.url}/v2/docs`);
      await page.locator('.information-container').waitFor();
      await page.locator('.opblock-tag').first().waitFor();
      await shot('10-api-reference');
      // No one-entry "Select a definition" menu.
      expect.soft(await page.locator('.topbar select, .topbar .download-url-wrapper').filter({ visible: true }).count()).toBe(0);
      await page.getByRole('button', { name: /Authorize/ }).first().click();
      await page.locator('.dialog-ux .modal-ux').waitFor();
      await shot('11-api-reference-authorize');
      // A field for a bearer token, and no OAuth flow that no client can finish.
      expect.soft(await page.locator('.modal-ux').textContent()).not.toContain('client_id');
      const field = page.locator('.modal-ux input[type=text], .modal-ux input[type=password]').first();
      await field.fill(token);
      await page.locator('.modal-ux button.authorize').click();
      expect(await page.locator('.modal-ux').textContent()).toContain('Authorized');
      await page.locator('.modal-ux button.btn-done').click();
      // Try GET /v2/me with it, under its tag, which starts collapsed (src/platform/openapi.ts).
      await page.locator('.opblock-tag[data-tag="Profile"]').click();
      const me = page.locator('.opblock-get:has([data-path="/v2/me"])').first();
      await me.locator('.opblock-summary').first().click();
      await me.getByRole('button', { name: 'Try it out' }).click();
      await me.getByRole('button', { name: 'Execute' }).click();
      const status = me.locator('.live-responses-table tbody .response-col_status').first();
      await status.waitFor();
      await status.scrollIntoViewIfNeeded();
      await shot('12-api-reference-tried');
      expect((await status.textContent())!.trim()).toBe('200');
      expect(await me.locator('.live-responses-table tbody .response-col_description').first().textContent()).toContain('"name": "Dana Developer"');
    });
  }
});

// The Content-Security-Policy as Chromium enforces it (docs/rules.md#security-headers): the consent form's POST and
// its 303 to the application's redirect URI are allowed by form-action (Chromium checks
// form-action on the redirects after a form POST), and so is the login form whose redirects
// end at the application; no page reports a violation; styles and the copy button still
// work from this origin's files; the API reference still renders under its own policy.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { chromiumAvailable, keepScreenshot, launchChromium, screenshotDir, startCallbackApp } from '../helpers/chromium.ts';
import { startTestServer, type TestClient, type TestServer, type TestUser } from '../helpers/server.ts';
import { generateToken, hashToken, randomId } from '../../src/oauth/token-format.ts';

describe.skipIf(!chromiumAvailable)('Content-Security-Policy in Chromium', { timeout: 60_000 }, () => {
  let server: TestServer;
  let chromium: Browser;
  let callback: Awaited<ReturnType<typeof startCallbackApp>>;
  let client: TestClient;
  let endUser: TestUser;
  const contexts: BrowserContext[] = [];
  /** Every CSP violation any page reported, as "page url: what". */
  const violations: string[] = [];

  /** A fresh browser profile whose pages report each CSP violation they see. */
  async function newPage(options: { clipboard?: boolean } = {}): Promise<Page> {
    const context = await chromium.newContext({ viewport: { width: 1280, height: 900 } });
    if (options.clipboard) await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    // Runs before any page script, outside the page's CSP: the event is how a page learns of a violation.
    await context.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI}`));
    });
    context.on('console', (message) => {
      if (/Content Security Policy|CSP violation/i.test(message.text())) violations.push(`${message.page()?.url()}: ${message.text()}`);
    });
    contexts.push(context);
    return context.newPage();
  }

  async function logIn(page: Page, person: TestUser) {
    await page.getByRole('heading', { name: 'Log in' }).waitFor();
    await page.getByLabel('Email').fill(person.email);
    await page.getByLabel('Password').fill(person.password);
    await page.getByRole('button', { name: 'Log in' }).click();
  }

  /** Waits until the page is at the application or a violation is reported; a blocked redirect is the latter. */
  async function arrivesAtApplication(page: Page) {
    await expect.poll(() => violations.length > 0 || page.url().startsWith(`${callback.url}?`), { timeout: 15_000 }).toBe(true);
    expect(violations).toEqual([]);
    await page.getByRole('heading', { name: 'Application callback' }).waitFor();
  }

  /** An access token of the user for the client, stored as the token endpoint stores one. */
  async function accessTokenOf(person: TestUser, clientId: string, scopes: string[]): Promise<string> {
    const now = server.clock();
    const grantId = randomId();
    const token = generateToken('accessToken');
    await server.oauth.createGrant({ id: grantId, userId: person.id, clientId, scopes, createdAt: now, revokedAt: null });
    await server.oauth.createAccessToken({ hash: hashToken(token), grantId, codeHash: null, clientId, userId: person.id, scopes, resources: null, createdAt: now, expiresAt: now + 3600_000, revokedAt: null });
    return token;
  }

  const authorizeUrl = (state: string) =>
    `${server.url}/auth/oauth2/authorize?${new URLSearchParams({ client_id: client.clientId, redirect_uri: callback.url, response_type: 'code', scope: 'PROFILE_READ', state })}`;

  beforeAll(async () => {
    server = await startTestServer('sqlite');
    chromium = await launchChromium();
    // The application: a real HTTP server on loopback, registered with its http://127.0.0.1:PORT/callback.
    callback = await startCallbackApp();
    const dev = await server.user({ name: 'Dana Developer' });
    client = await server.client(dev, { name: 'Loopback App', redirectUris: [callback.url], scopes: ['PROFILE_READ'] });
    endUser = await server.user({ name: 'Uma User' });
  });
  beforeEach(() => {
    violations.length = 0;
  });
  afterAll(async () => {
    for (const c of contexts) await c.close();
    await chromium?.close();
    await callback?.close();
    await server?.close();
  });

  it("consent: log in, Allow, and the browser arrives at the application's redirect URI; no violation (docs/rules.md#security-headers)", async () => {
    const page = await newPage();
    await page.goto(authorizeUrl('first-visit'));
    await logIn(page, endUser);
    await page.locator('#client-name').filter({ hasText: 'Loopback App' }).waitFor();
    // The stylesheet from /assets is applied: the card is white on the grey page.
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(246, 248, 250)');
    expect(await page.evaluate(() => getComputedStyle(document.querySelector('.card')!).backgroundColor)).toBe('rgb(255, 255, 255)');
    expect(await page.evaluate(() => getComputedStyle(document.querySelector('button[value=allow]')!).backgroundColor)).toBe('rgb(11, 92, 173)');
    await keepScreenshot(page, 'csp-01-consent');
    await page.getByRole('button', { name: 'Allow' }).click();
    await arrivesAtApplication(page);
    expect(await page.locator('#state').textContent()).toBe('first-visit');
    expect(await page.locator('#code').textContent()).toMatch(/^gac_/);
    expect(violations).toEqual([]);
  });

  it('login straight back to the application (consent already given): the login form may redirect there too (docs/rules.md#security-headers)', async () => {
    const page = await newPage();
    await page.goto(authorizeUrl('second-visit'));
    await logIn(page, endUser);
    await arrivesAtApplication(page);
    expect(await page.locator('#state').textContent()).toBe('second-visit');
    expect(await page.locator('#code').textContent()).toMatch(/^gac_/);
    expect(violations).toEqual([]);
  });

  it('Deny also reaches the application, with error=access_denied (docs/rules.md#security-headers)', async () => {
    const other = await server.user();
    const page = await newPage();
    await page.goto(authorizeUrl('denied'));
    await logIn(page, other);
    await page.getByRole('button', { name: 'Deny' }).click();
    await arrivesAtApplication(page);
    expect(await page.locator('#error').textContent()).toBe('access_denied');
    expect(violations).toEqual([]);
  });

  it("connect page (docs/rules.md#connect-pages): Connect and Cancel reach the application's return addresses, which form-action allows; no violation", async () => {
    const dev = await server.user({ name: 'Cal Developer' });
    const app = await server.client(dev, { name: 'Loopback Calendar', redirectUris: [callback.url], scopes: ['APPS_READ', 'APPS_WRITE'] });
    const person = await server.user({ name: 'Connie Connector' });
    const token = await accessTokenOf(person, app.clientId, ['APPS_READ', 'APPS_WRITE']);
    const address = async (path: string) => {
      const res = await server.api('GET', path, token);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return (res.body.data.url ?? res.body.data.authUrl) as string;
    };
    const returns = (state: string) => new URLSearchParams({ returnTo: `${callback.url}?state=${state}`, onErrorReturnTo: `${callback.url}?state=${state}-failed` });

    const page = await newPage();
    await page.goto(await address(`/v2/conferencing/zoom/oauth/auth-url?${returns('zoom')}`));
    await logIn(page, person);
    await page.getByRole('heading', { name: 'Connect Zoom?' }).waitFor();
    await keepScreenshot(page, 'csp-04-connect-zoom');
    await page.getByRole('button', { name: 'Connect' }).click();
    await arrivesAtApplication(page);
    expect(await page.locator('#state').textContent()).toBe('zoom');

    await page.goto(await address(`/v2/calendars/google/connect?${new URLSearchParams({ isDryRun: 'false', redir: `${callback.url}?state=calendar` })}`));
    await page.getByLabel('The e-mail address of your Google Calendar account').fill('connie@example.com');
    await keepScreenshot(page, 'csp-05-connect-calendar');
    await page.getByRole('button', { name: 'Connect' }).click();
    await arrivesAtApplication(page);
    expect(await page.locator('#state').textContent()).toBe('calendar');

    await page.goto(await address(`/v2/conferencing/msteams/oauth/auth-url?${returns('teams')}`));
    await page.getByRole('button', { name: 'Cancel' }).click();
    await arrivesAtApplication(page);
    expect(await page.locator('#state').textContent()).toBe('teams-failed');
    expect(await page.locator('#error').textContent()).toBe('access_denied');

    const connected = await server.api('GET', '/v2/conferencing', token);
    expect(connected.body.data.map((a: { appSlug: string }) => a.appSlug)).toEqual(['zoom']);
    expect((await server.api('GET', '/v2/calendars/google/check', token)).body.data.accounts).toEqual(['connie@example.com']);
    expect(violations).toEqual([]);
  });

  it('the developer pages look right and the Copy button works from /assets, with no violation (docs/rules.md#security-headers)', async () => {
    const devUser = await server.user({ name: 'Devi Developer' });
    const page = await newPage({ clipboard: true });
    await page.goto(`${server.url}/settings/developer/oauth-clients/new`);
    await logIn(page, devUser);
    await page.getByRole('heading', { name: 'Register an OAuth client' }).waitFor();
    await page.getByLabel('Application name').fill('Styled App');
    await page.getByLabel('Redirect URIs', { exact: true }).fill(callback.url);
    await page.getByRole('checkbox', { name: 'PROFILE_READ Read the authorized user\'s profile.', exact: true }).check();
    await page.getByRole('button', { name: 'Register client' }).click();
    await page.locator('#new-secret').waitFor();
    expect(await page.evaluate(() => getComputedStyle(document.querySelector('.secret-box')!).borderTopColor)).toBe('rgb(6, 118, 71)');
    const secret = await page.locator('#new-secret-value').inputValue();
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await keepScreenshot(page, 'csp-02-client-page-copy');
    await page.goto(`${server.url}/no-such-page`);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    expect(await page.evaluate(() => getComputedStyle(document.querySelector('.card')!).backgroundColor)).toBe('rgb(255, 255, 255)');
    expect(violations).toEqual([]);
  });

  it('the API reference at /v2/docs renders its operations under its own policy, with no violation (docs/rules.md#security-headers)', async () => {
    const page = await newPage();
    await page.goto(`${server.url}/v2/docs`);
    // Tags start collapsed (src/platform/openapi.ts): open the one with the most operations.
    await page.locator('.opblock-tag[data-tag="Bookings"]').click();
    await page.locator('.opblock').first().waitFor();
    expect(await page.locator('.opblock').count()).toBeGreaterThan(10);
    await page.locator('.opblock-summary').first().click();
    await page.locator('.opblock-body').first().waitFor();
    // The viewport only: the whole reference is thousands of pixels long.
    await page.screenshot({ path: join(screenshotDir, 'csp-03-api-docs.png') });
    expect(violations).toEqual([]);
  });
});

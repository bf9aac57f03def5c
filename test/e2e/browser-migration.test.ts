// Legacy migration in a real browser (docs/rules.md#legacy-clients):
// a user still follows an old authorization link without scope; the developer's page
// explains legacy, counts that request, refuses to migrate until the warning is confirmed,
// then migrates in place — in a browser without JavaScript. Each step asserts what the
// page shows and keeps a screenshot.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, fitsWidth, keepScreenshot, launchChromium, startCallbackApp } from '../helpers/chromium.ts';
import { startTestServer, type TestClient, type TestServer, type TestUser } from '../helpers/server.ts';

describe.skipIf(!chromiumAvailable)('legacy migration in Chromium', { timeout: 60_000 }, () => {
  let server: TestServer;
  let chromium: Browser;
  let callback: Awaited<ReturnType<typeof startCallbackApp>>;
  let devUser: TestUser;
  let endUser: TestUser;
  let client: TestClient;
  let dev: Page;
  let user: Page;
  const contexts: BrowserContext[] = [];
  let legacyAccessToken = '';

  async function newPage(viewport: { width: number; height: number }, javaScriptEnabled = true): Promise<Page> {
    const context = await chromium.newContext({ viewport, javaScriptEnabled });
    contexts.push(context);
    return context.newPage();
  }

  async function logIn(page: Page, person: TestUser) {
    await page.getByRole('heading', { name: 'Log in' }).waitFor();
    await page.getByLabel('Email').fill(person.email);
    await page.getByLabel('Password').fill(person.password);
    await page.getByRole('button', { name: 'Log in' }).click();
  }

  /** The application's old authorization link: no scope parameter. */
  const oldLink = () => `${server.url}/auth/oauth2/authorize?${new URLSearchParams({ client_id: client.clientId, redirect_uri: callback.url, response_type: 'code', state: 'old-link' })}`;

  beforeAll(async () => {
    server = await startTestServer('sqlite');
    chromium = await launchChromium();
    callback = await startCallbackApp();
    devUser = await server.user({ name: 'Dana Developer' });
    endUser = await server.user({ name: 'Uma User' });
    client = await server.client(devUser, { scopes: null, name: 'Legacy Ledger', redirectUris: [callback.url] });
    // The developer's browser runs no JavaScript: every page must work without it.
    dev = await newPage({ width: 1280, height: 900 }, false);
    user = await newPage({ width: 1024, height: 768 });
  });
  afterAll(async () => {
    for (const c of contexts) await c.close();
    await chromium?.close();
    await callback?.close();
    await server?.close();
  });

  it('1. a user follows the old link without scope; the consent page warns that the app reaches everything', async () => {
    await user.goto(oldLink());
    await logIn(user, endUser);
    await user.locator('#legacy-notice').waitFor();
    expect(await user.locator('#legacy-notice').innerText()).toMatch(/registered before permissions existed.*everything in your account/);
    await keepScreenshot(user, '20-legacy-consent');
    await user.getByRole('button', { name: 'Allow' }).click();
    await user.getByRole('heading', { name: 'Application callback' }).waitFor();
    const code = (await user.locator('#code').textContent())!;
    const tokens = await server.exchange({ ...client, redirectUri: callback.url }, code);
    expect(tokens.body.scope).toBe('');
    legacyAccessToken = tokens.body.access_token as string;
  });

  it('2. the developer\'s client page explains legacy and shows one request without scope', async () => {
    await dev.goto(`${server.url}/settings/developer/oauth-clients/${client.clientId}`);
    await logIn(dev, devUser);
    await dev.locator('#legacy').waitFor();
    const legacy = await dev.locator('#legacy').innerText();
    expect(legacy).toMatch(/registered before scopes existed/);
    expect(legacy).toMatch(/the same client ID and secrets/);
    expect(await dev.locator('#scopeless-count').innerText()).toBe(
      '1 of its authorization requests in the last 30 days had no scope parameter. Update the authorization URL to carry scope before migrating.',
    );
    await keepScreenshot(dev, '21-legacy-client-page');
  });

  it('3. migrating without confirming the warning is refused next to the confirmation, and nothing changes', async () => {
    await dev.getByRole('link', { name: 'Choose scopes and migrate' }).click();
    await dev.getByRole('heading', { name: 'Give Legacy Ledger scopes' }).waitFor();
    expect(await dev.locator('#scopeless-count').innerText()).toMatch(/^1 authorization request of this client in the last 30 days had no scope\. After the migration such requests fail/);
    await dev.getByRole('checkbox', { name: 'PROFILE_READ Read the authorized user\'s profile.', exact: true }).check();
    await keepScreenshot(dev, '22-migration-form-warning');
    await dev.getByRole('button', { name: 'Migrate to scopes' }).click();
    await expect.poll(() => dev.locator('#confirm-error').textContent()).toMatch(
      /^1 authorization request of this client in the last 30 days came without scope; after the migration such requests fail\./,
    );
    expect(await dev.getByRole('checkbox', { name: 'PROFILE_READ Read the authorized user\'s profile.', exact: true }).isChecked()).toBe(true);
    await keepScreenshot(dev, '23-migration-needs-confirmation');
    // Still legacy: the old link still works for the user.
    await user.goto(oldLink());
    await user.getByRole('heading', { name: 'Application callback' }).waitFor();
    expect(await user.locator('#code').textContent()).toMatch(/^gac_/);
  });

  it('4. with the warning confirmed, the client migrates in place: same client ID, scopes shown in plain words', async () => {
    // Opened again, the page counts the visit of step 3 too.
    await dev.goto(`${server.url}/settings/developer/oauth-clients/${client.clientId}/migrate`);
    expect(await dev.locator('#scopeless-count').innerText()).toMatch(/^2 authorization requests/);
    await dev.getByRole('checkbox', { name: 'PROFILE_READ Read the authorized user\'s profile.', exact: true }).check();
    await dev.getByLabel('I understand that 2 recent requests without scope would now fail, and I want to migrate.').check();
    await dev.getByRole('button', { name: 'Migrate to scopes' }).click();
    await expect.poll(() => dev.locator('#flash').textContent()).toBe('Migrated: the client now has scopes, and every authorization request must carry scope.');
    expect(await dev.locator('#client-id').textContent()).toBe(client.clientId);
    expect(await dev.locator('#legacy').count()).toBe(0);
    expect(await dev.locator('#scopes').innerText()).toMatch(/Read the authorized user's profile\. PROFILE_READ/);
    expect(await dev.locator('tr[data-event="client.migrated"]').innerText()).toMatch(/Migrated from legacy to scopes/);
    expect(await fitsWidth(dev)).toBe(true);
    await keepScreenshot(dev, '24-migrated');
  });

  it('5. the old link without scope now fails back to the application with invalid_scope (RFC 6749 §3.3); the legacy token works until the user authorizes again', async () => {
    await user.goto(oldLink());
    await user.getByRole('heading', { name: 'Application callback' }).waitFor();
    expect(await user.locator('#error').textContent()).toBe('invalid_scope');
    expect(await user.locator('#state').textContent()).toBe('old-link');
    await keepScreenshot(user, '25-old-link-after-migration');
    expect((await server.api('GET', '/v2/me', legacyAccessToken)).status).toBe(200);

    await user.goto(`${server.url}/auth/oauth2/authorize?${new URLSearchParams({ client_id: client.clientId, redirect_uri: callback.url, response_type: 'code', scope: 'PROFILE_READ', state: 'new-link' })}`);
    await user.getByRole('button', { name: 'Allow' }).click();
    await user.getByRole('heading', { name: 'Application callback' }).waitFor();
    expect(await user.locator('#state').textContent()).toBe('new-link');
    expect((await server.api('GET', '/v2/me', legacyAccessToken)).status).toBe(401);
  });
});

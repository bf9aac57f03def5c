// The stories a person lives through in a real browser, and the Content-Security-Policy
// Chromium enforces along them, each a block of its own below with its own people and
// clients, so none sees another's. They share one Chromium, one server (every block runs on
// the default settings, the policy included) and one application callback, started once: a
// Chromium and a server per story cost seconds each and test nothing more (ARCHITECTURE.md,
// Tests). Within a block the numbered steps run in order, each carrying what the one before left.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chromiumAvailable, fitsWidth, keepScreenshot, launchChromium, logIn, startCallbackApp, watchCspViolations } from '../helpers/chromium.ts';
import { startTestServer, type TestClient, type TestServer, type TestUser } from '../helpers/server.ts';
import { buildWorld, mint, type World } from '../platform/fixtures.ts';
import { generateToken, hashToken, randomId } from '../../src/oauth/token-format.ts';

describe.skipIf(!chromiumAvailable)('stories in Chromium', { timeout: 60_000 }, () => {
  let server: TestServer;
  let chromium: Browser;
  let callback: Awaited<ReturnType<typeof startCallbackApp>>;

  beforeAll(async () => {
    server = await startTestServer('sqlite');
    chromium = await launchChromium();
    callback = await startCallbackApp();
  });
  afterAll(async () => {
    await chromium?.close();
    await callback?.close();
    await server?.close();
  });

  // The client lifecycle in a real browser: a developer registers a client,
  // an admin approves it, a user authorizes it, the developer rotates its secret (add a
  // second, switch, remove the first) and the user revokes the application. Each step
  // asserts what the page shows and (SCREENSHOTS=1) keeps a screenshot under test-output/screenshots/.
  describe('client lifecycle in Chromium', () => {
    let devUser: TestUser;
    let adminUser: TestUser;
    let endUser: TestUser;
    let dev: Page;
    let admin: Page;
    let user: Page;
    const contexts: BrowserContext[] = [];

    // What the story carries from one step to the next.
    let clientId = '';
    let clientPage = '';
    let authorizeUrl = '';
    let firstSecret = '';
    let secondSecret = '';
    let tokens: { access_token: string; refresh_token: string } = { access_token: '', refresh_token: '' };

    async function newPage(options: { phone?: boolean; clipboard?: boolean } = {}): Promise<Page> {
      const context = await chromium.newContext(options.phone ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } : { viewport: { width: 1280, height: 900 } });
      if (options.clipboard) await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
      contexts.push(context);
      return context.newPage();
    }

    beforeAll(async () => {
      devUser = await server.user({ name: 'Dana Developer' });
      adminUser = await server.user({ admin: true, name: 'Ada Admin' });
      endUser = await server.user({ name: 'Uma User' });
      dev = await newPage({ clipboard: true });
      admin = await newPage();
      user = await newPage({ phone: true });
    });
    afterAll(async () => {
      for (const c of contexts) await c.close();
    });

    it('1. the developer registers a client; a wrong redirect URI is explained next to its field; the client is pending', async () => {
      await dev.goto(`${server.url}/settings/developer/oauth-clients/new`);
      await logIn(dev, devUser);
      await dev.getByRole('heading', { name: 'Register an OAuth client' }).waitFor();
      await dev.getByLabel('Application name').fill('Calendar Bridge');
      await dev.getByLabel('Description (optional)').fill('Copies bookings into your calendar.');
      await dev.getByLabel('Homepage URL (optional)').fill('https://bridge.example.com');
      await dev.getByLabel('Logo URL (optional, https)').fill('https://bridge.example.com/logo.png');
      await dev.getByLabel('Redirect URIs', { exact: true }).fill('http://bridge.example.com/callback');
      await dev.getByRole('checkbox', { name: 'PROFILE_READ Read the authorized user\'s profile.', exact: true }).check();
      await dev.getByRole('checkbox', { name: 'BOOKING_READ List bookings; read recordings, transcripts, calendar links, references.', exact: true }).check();
      await dev.getByRole('button', { name: 'Register client' }).click();

      await expect.poll(() => dev.locator('#redirect_uris-error').textContent()).toBe(
        'Redirect URI "http://bridge.example.com/callback" must use https (http is allowed only for localhost and 127.0.0.1).',
      );
      expect(await dev.getByLabel('Redirect URIs', { exact: true }).getAttribute('aria-invalid')).toBe('true');
      // What was typed and chosen is still there.
      expect(await dev.getByLabel('Application name').inputValue()).toBe('Calendar Bridge');
      expect(await dev.getByRole('checkbox', { name: 'PROFILE_READ Read the authorized user\'s profile.', exact: true }).isChecked()).toBe(true);
      await keepScreenshot(dev, '01-register-validation-error');

      await dev.getByLabel('Redirect URIs', { exact: true }).fill(callback.url);
      await dev.getByRole('button', { name: 'Register client' }).click();
      await dev.locator('#client-title').filter({ hasText: 'Calendar Bridge' }).waitFor();
      expect(await dev.locator('.title-row .badge').first().textContent()).toBe('Pending review');
      expect(await dev.locator('#state-note').textContent()).toMatch(/Waiting for review by a platform admin/);
      expect(await dev.locator('#new-secret').textContent()).toMatch(/Copy it now: it will not be shown again\./);
      firstSecret = await dev.locator('#new-secret-value').inputValue();
      expect(firstSecret).toMatch(/^gcs_/);
      // The copy button exists only with JavaScript, and it copies the secret.
      await dev.getByRole('button', { name: 'Copy' }).click();
      await expect.poll(() => dev.getByRole('button', { name: 'Copied' }).isVisible()).toBe(true);
      expect(await dev.evaluate(() => navigator.clipboard.readText())).toBe(firstSecret);
      clientId = (await dev.locator('#client-id').textContent())!;
      authorizeUrl = (await dev.locator('#authorize-url').textContent())!;
      expect(authorizeUrl).toBe(`${server.url}/auth/oauth2/authorize`);
      expect(await dev.locator('#token-url').textContent()).toBe(`${server.url}/v2/auth/oauth2/token`);
      expect(await dev.locator('#refresh-url').textContent()).toBe(`${server.url}/v2/auth/oauth2/token`);
      clientPage = `${server.url}/settings/developer/oauth-clients/${clientId}`;
      await keepScreenshot(dev, '02-client-registered-pending');

      await dev.getByRole('link', { name: 'Your OAuth clients' }).click();
      const row = dev.locator(`tr[data-client="${clientId}"]`);
      expect(await row.textContent()).toMatch(/Calendar Bridge\s*Pending review\s*confidential/);
      await keepScreenshot(dev, '03-developer-client-list');
    });

    it('2. the admin sees what the client asks for and approves it', async () => {
      await admin.goto(`${server.url}/admin/oauth-clients`);
      await logIn(admin, adminUser);
      const pending = admin.locator('#pending');
      await pending.getByRole('link', { name: 'Calendar Bridge' }).waitFor();
      expect(await pending.textContent()).toContain('127.0.0.1');
      await keepScreenshot(admin, '04-admin-queue');
      await pending.getByRole('link', { name: 'Calendar Bridge' }).click();
      await admin.locator('#asked-scopes').waitFor();
      expect(await admin.locator('#asked-scopes').innerText()).toMatch(/Your account\s+List bookings; read recordings, transcripts, calendar links, references\. BOOKING_READ\s+Read the authorized user's profile\. PROFILE_READ/);
      expect(await admin.locator('dl.facts').first().innerText()).toContain(`Owner\nDana Developer (${devUser.email})`);
      await keepScreenshot(admin, '05-admin-review-page');
      // Keyboard only: focus the decision and press Enter.
      await admin.getByRole('button', { name: 'Approve client' }).focus();
      await admin.keyboard.press('Enter');
      await expect.poll(() => admin.locator('#flash').textContent()).toBe('Approved. Users can now authorize the client.');
      expect(await admin.locator('.title-row .badge').first().textContent()).toBe('Approved');
      expect(await admin.locator('tr[data-event="client.approved"]').innerText()).toMatch(/Approved by an admin client\.approved\s+you/);
      await keepScreenshot(admin, '06-admin-approved');
    });

    it('3. a user on a phone authorizes the application on the consent page', async () => {
      const query = new URLSearchParams({ client_id: clientId, redirect_uri: callback.url, response_type: 'code', scope: 'PROFILE_READ BOOKING_READ', state: 'state-123' });
      await user.goto(`${authorizeUrl}?${query}`);
      await logIn(user, endUser);
      await user.locator('#client-name').filter({ hasText: 'Calendar Bridge' }).waitFor();
      expect(await user.locator('#return-host').textContent()).toBe(new URL(callback.url).host);
      expect(await user.locator('main').innerText()).toMatch(/Read the authorized user's profile\./);
      expect(await fitsWidth(user)).toBe(true);
      await keepScreenshot(user, '07-consent-phone');
      await user.getByRole('button', { name: 'Allow' }).click();
      await user.getByRole('heading', { name: 'Application callback' }).waitFor();
      expect(await user.locator('#state').textContent()).toBe('state-123');
      const code = (await user.locator('#code').textContent())!;
      expect(code).toMatch(/^gac_/);
      const exchanged = await server.token({ grant_type: 'authorization_code', code, redirect_uri: callback.url, client_id: clientId, client_secret: firstSecret });
      expect(exchanged.status).toBe(200);
      tokens = exchanged.body as typeof tokens;
    });

    it('4. the developer adds a second secret; the page shows it once and says why a third is not possible', async () => {
      await dev.goto(clientPage);
      expect(await dev.locator('#state-note').count()).toBe(0);
      await dev.getByRole('button', { name: 'Add a secret' }).click();
      await dev.locator('#new-secret').waitFor();
      expect(await dev.locator('#new-secret').textContent()).toMatch(/Copy it now: it will not be shown again\./);
      secondSecret = await dev.locator('#new-secret-value').inputValue();
      expect(secondSecret).not.toBe(firstSecret);
      expect(await dev.locator('tr[data-secret]').count()).toBe(2);
      expect(await dev.locator('#secret-limit-note').textContent()).toMatch(/at most 2 active secrets/);
      expect(await dev.getByRole('button', { name: 'Add a secret' }).count()).toBe(0);
      await keepScreenshot(dev, '08-second-secret-shown-once');
    });

    it('5. the application switches to the new secret; the page shows which secret was last used', async () => {
      const refreshed = await server.token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId, client_secret: secondSecret });
      expect(refreshed.status).toBe(200);
      tokens = refreshed.body as typeof tokens;
      await dev.goto(clientPage);
      expect(await dev.content()).not.toContain(secondSecret);
      const secondRow = dev.locator('tr[data-secret]').filter({ hasText: `…${secondSecret.slice(-4)}` });
      expect(await secondRow.locator('td').nth(2).textContent()).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d UTC/);
      await keepScreenshot(dev, '09-secrets-last-used');
    });

    it('6. the developer removes the first secret after a confirmation; it stops working at once, tokens keep working', async () => {
      const firstRow = dev.locator('tr[data-secret]').filter({ hasText: `…${firstSecret.slice(-4)}` });
      await firstRow.getByRole('link', { name: /Remove/ }).click();
      await dev.getByRole('heading', { name: `Remove the secret ending in ${firstSecret.slice(-4)}?` }).waitFor();
      expect(await dev.locator('main').innerText()).toMatch(/Removal takes effect at once/);
      await keepScreenshot(dev, '10-remove-secret-confirmation');
      await dev.getByRole('button', { name: `Remove secret …${firstSecret.slice(-4)}` }).click();
      await expect.poll(() => dev.locator('#flash').textContent()).toMatch(/The secret was removed and stopped working at once/);
      expect(await dev.locator('tr[data-secret]').count()).toBe(1);
      expect(await dev.locator('#last-secret-note').textContent()).toMatch(/This is the only secret, so it cannot be removed/);
      await keepScreenshot(dev, '11-first-secret-removed');

      const withOld = await server.token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId, client_secret: firstSecret });
      expect(withOld.status).toBe(401);
      expect((await server.api('GET', '/v2/me', tokens.access_token)).status).toBe(200);
      const withNew = await server.token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId, client_secret: secondSecret });
      expect(withNew.status).toBe(200);
      tokens = withNew.body as typeof tokens;
    });

    it('7. the user revokes the application; its tokens stop working at once', async () => {
      await user.goto(`${server.url}/settings/authorized-apps`);
      const card = user.locator(`section[data-client="${clientId}"]`);
      await card.waitFor();
      expect(await card.innerText()).toMatch(/Calendar Bridge[\s\S]*You approved it on \d{4}-\d\d-\d\d[\s\S]*Read the authorized user's profile\./);
      expect(await fitsWidth(user)).toBe(true);
      await keepScreenshot(user, '12-authorized-apps-phone');
      // Revoke access asks first, on a page of its own.
      await card.getByRole('link', { name: 'Revoke access for Calendar Bridge for you' }).click();
      await user.locator('#revoke-title').waitFor();
      expect(await user.locator('#revoke-title').textContent()).toBe('Revoke the access Calendar Bridge has for you?');
      expect(await fitsWidth(user)).toBe(true);
      await keepScreenshot(user, '12b-revoke-confirm-phone');
      await user.getByRole('button', { name: 'Revoke access for Calendar Bridge for you' }).click();
      await expect.poll(() => user.locator('#flash').textContent()).toBe('You revoked the access Calendar Bridge had for you. Its tokens stopped working at once.');
      expect(await user.locator('#no-apps').textContent()).toBe('You have not authorized any application.');
      await keepScreenshot(user, '13-app-revoked');
      expect((await server.api('GET', '/v2/me', tokens.access_token)).status).toBe(401);
      // The developer sees it all in the client's activity.
      await dev.goto(clientPage);
      const activity = await dev.locator('table.events').innerText();
      // docs/rules.md#private-records: an admin is "a platform administrator" to a developer, never an e-mail.
      expect(await dev.locator('tr[data-event="client.approved"]').innerText()).toContain('a platform administrator');
      expect(activity).not.toContain(adminUser.email);
      for (const type of ['client.created', 'client.approved', 'grant.created', 'secret.created', 'secret.removed', 'grant.revoked']) expect(activity).toContain(type);
      await keepScreenshot(dev, '14-client-activity');
    });
  });

  // Legacy migration in a real browser (docs/rules.md#legacy-clients):
  // a user still follows an old authorization link without scope; the developer's page
  // explains legacy, counts that request, refuses to migrate until the warning is confirmed,
  // then migrates in place — in a browser without JavaScript. Each step asserts what the
  // page shows and (SCREENSHOTS=1) keeps a screenshot.
  describe('legacy migration in Chromium', () => {
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

    /** The application's old authorization link: no scope parameter. */
    const oldLink = () => `${server.url}/auth/oauth2/authorize?${new URLSearchParams({ client_id: client.clientId, redirect_uri: callback.url, response_type: 'code', state: 'old-link' })}`;

    beforeAll(async () => {
      devUser = await server.user({ name: 'Dana Developer' });
      endUser = await server.user({ name: 'Uma User' });
      client = await server.client(devUser, { scopes: null, name: 'Legacy Ledger', redirectUris: [callback.url] });
      // The developer's browser runs no JavaScript: every page must work without it.
      dev = await newPage({ width: 1280, height: 900 }, false);
      user = await newPage({ width: 1024, height: 768 });
    });
    afterAll(async () => {
      for (const c of contexts) await c.close();
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

  // An invitation answered in a real browser (docs/rules.md#membership-invitations): a team admin invites a user
  // by e-mail through the API; the invitation grants nothing; the user logs in, opens
  // /settings/teams on a phone, accepts, and the membership takes effect at once. Screenshots (SCREENSHOTS=1)
  // go to test-output/screenshots/.
  describe('an invitation accepted in Chromium', () => {
    let context: BrowserContext;
    let page: Page;
    let w: World;
    let invitee: TestUser;

    beforeAll(async () => {
      context = await chromium.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
      page = await context.newPage();
      w = await buildWorld(server);
      invitee = await server.user({ name: 'Ines Invitee' });
    });
    afterAll(async () => {
      await context?.close();
    });

    it('the invited user logs in, accepts on /settings/teams, and only then can use the team endpoints', async () => {
      const admin = await mint(server, w, w.teamAdmin, ['TEAM_MEMBERSHIP_READ', 'TEAM_MEMBERSHIP_WRITE']);
      const invited = await server.api('POST', `/v2/teams/${w.team.id}/memberships`, admin, { email: invitee.email, role: 'member' });
      expect(invited.status).toBe(201);
      const invitationId = invited.body.data.id as number;
      const token = await mint(server, w, invitee, ['TEAM_PROFILE_READ']);
      expect((await server.api('GET', `/v2/teams/${w.team.id}`, token)).status).toBe(403);

      await page.goto(`${server.url}/settings/teams`);
      await logIn(page, invitee);

      await page.getByRole('heading', { name: 'Teams and organizations', exact: true }).waitFor();
      const card = page.locator(`li[data-invitation="${invitationId}"]`);
      expect(await card.innerText()).toMatch(/Sales\s+Team in Acme\. You are invited as member by Tara Team-Admin, on \d{4}-\d\d-\d\d \d\d:\d\d UTC\./);
      expect(await page.locator('#no-memberships').textContent()).toBe('You are not a member of any team or organization.');
      expect(await fitsWidth(page)).toBe(true);
      await keepScreenshot(page, 'invitation-01-waiting-phone');

      await card.getByRole('button', { name: 'Accept the invitation to Sales' }).click();
      await expect.poll(() => page.locator('#flash').textContent()).toBe('You joined Sales.');
      expect(await page.locator('#no-invitations').textContent()).toBe('No invitations are waiting for you.');
      expect(await page.locator(`li[data-membership="${invitationId}"]`).innerText()).toMatch(/Sales\s+Team in Acme\. Your role: member/);
      expect(await fitsWidth(page)).toBe(true);
      await keepScreenshot(page, 'invitation-02-accepted-phone');

      // The membership is effective at once, and the team sees the member.
      expect((await server.api('GET', `/v2/teams/${w.team.id}`, token)).status).toBe(200);
      const member = await server.api('GET', `/v2/teams/${w.team.id}/memberships/${invitationId}`, admin);
      expect(member.body.data).toMatchObject({ state: 'accepted', userId: Number(invitee.id), role: 'MEMBER', accepted: true });
    });
  });

  // The Content-Security-Policy as Chromium enforces it (docs/rules.md#security-headers): the consent form's POST and
  // its 303 to the application's redirect URI are allowed by form-action (Chromium checks
  // form-action on the redirects after a form POST), and so is the login form whose redirects
  // end at the application; no page reports a violation; styles and the copy button still
  // work from this origin's files. (The API reference under its own policy: browser-pages,
  // where its one visit per width checks everything it shows.)
  describe('Content-Security-Policy in Chromium', () => {
    let client: TestClient;
    let endUser: TestUser;
    const contexts: BrowserContext[] = [];
    /** Every CSP violation any page reported, as "page url: what". */
    const violations: string[] = [];

    /** A fresh browser profile whose pages report each CSP violation they see. */
    async function newPage(options: { clipboard?: boolean } = {}): Promise<Page> {
      const context = await chromium.newContext({ viewport: { width: 1280, height: 900 } });
      if (options.clipboard) await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
      await watchCspViolations(context, violations);
      contexts.push(context);
      return context.newPage();
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
      const dev = await server.user({ name: 'Dana Developer' });
      client = await server.client(dev, { name: 'Loopback App', redirectUris: [callback.url], scopes: ['PROFILE_READ'] });
      endUser = await server.user({ name: 'Uma User' });
    });
    beforeEach(() => {
      violations.length = 0;
    });
    afterAll(async () => {
      for (const c of contexts) await c.close();
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
  });
});

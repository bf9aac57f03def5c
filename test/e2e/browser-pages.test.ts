// Every page at a phone's width (390 px) and a laptop's (1280 px) in Chromium: nothing scrolls sideways, the page's key elements are on screen, the header
// stays one short bar, and a screenshot of each is kept in test-output/screenshots/ for a
// person to look at.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromiumAvailable, fitsWidth, keepScreenshot, launchChromium, screenshotDir } from '../helpers/chromium.ts';
import { startTestServer, type TestClient, type TestServer, type TestUser } from '../helpers/server.ts';
import { createInviteLink } from '../../src/services/teams/invite-links.ts';
import { addMember, createOrganization, createTeam } from '../../src/services/teams/teams.ts';

const DEV = '/settings/developer/oauth-clients';
const ADMIN = '/admin/oauth-clients';
const widths = [390, 1280] as const;

/** Long values of the kind that used to break mid-word or push the page sideways. */
const longRedirect = 'https://calendar-sync.example.com/oauth/callback/with/a/rather/long/path?tenant=acme-industries-international&region=eu-west';

describe.skipIf(!chromiumAvailable)('every page at 390 and 1280 px', { timeout: 240_000 }, () => {
  let server: TestServer;
  let chromium: Browser;
  let person: TestUser;
  let approved: TestClient;
  const pending = new Map<number, TestClient>();
  let legacy: TestClient;
  let risky: TestClient;
  let salesMembership: string;
  let supportTeam: string;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    server = await startTestServer('sqlite');
    chromium = await launchChromium();
    // One person who is a developer, an admin and a user, so the header carries every link.
    person = await server.user({ admin: true, name: 'Alexandra Montgomery-Fitzgerald' });
    const other = await server.user({ name: 'Olu Other' });
    approved = await server.client(other, {
      name: 'Calendar Sync for Teams',
      redirectUris: [longRedirect, 'http://localhost:8080/callback'],
      scopes: ['PROFILE_READ', 'BOOKING_READ', 'BOOKING_WRITE', 'SCHEDULE_READ', 'TEAM_EVENT_TYPE_READ', 'ORG_BOOKING_READ'],
      homepageUrl: 'https://calendar-sync.example.com/product/overview?ref=gatehouse',
    });
    for (const width of widths) pending.set(width, await server.client(person, { name: `Pending Planner ${width}`, state: 'pending', redirectUris: [longRedirect] }));
    legacy = await server.client(person, { name: 'Old Integration', scopes: null });
    // An application the person has already authorized, for the authorized-apps page.
    // It can make changes (BOOKING_WRITE), and got a token: the page marks the one and dates the other.
    await server.exchange(approved, await server.code(approved, person, { scope: 'PROFILE_READ BOOKING_WRITE' }));
    // A team and an organization, for what the consent page says the team scopes reach.
    const acme = await createOrganization(server.services, { name: 'Acme Corp', ownerId: other.id });
    await addMember(server.services, { organizationId: acme.id }, person.id, 'admin');
    const sales = await createTeam(server.services, { name: 'Sales', ownerId: other.id });
    salesMembership = (await addMember(server.services, { teamId: sales.id }, person.id, 'member')).id;
    // A team of the organization the person administers, with a link that works and one whose
    // maker is no longer an admin (the person is not its member, so the consent page's reach stays).
    const support = await createTeam(server.services, { name: 'Customer Support and Success', ownerId: other.id, organizationId: acme.id });
    supportTeam = support.id;
    // The application authorized for that team too: the authorized-apps page shows it as a card of its own.
    await server.exchange(approved, await server.code(approved, person, { scope: 'TEAM_EVENT_TYPE_READ', team_slug: support.slug }));
    const former = await server.user({ name: 'Bartholomew Former-Administrator' });
    const formerRole = await addMember(server.services, { teamId: support.id }, former.id, 'admin');
    for (const createdBy of [former.id, person.id]) await createInviteLink(server.services, { teamId: support.id, createdBy, grantId: null }, server.url);
    await server.services.stores.teams.setMembershipRole(formerRole.id, 'member', server.clock());
    // A client with every risk the review page points out.
    risky = await server.client(other, {
      name: 'Org Mover',
      kind: 'public',
      state: 'pending',
      homepageUrl: 'https://org-mover.example.com/',
      redirectUris: ['https://callback.elsewhere.example.net/cb', 'http://localhost:8080/callback'],
      scopes: ['PROFILE_READ', 'ORG_MEMBERSHIP_WRITE'],
    });
  });
  afterAll(async () => {
    for (const c of contexts) await c.close();
    await chromium?.close();
    await server?.close();
  });

  async function phoneOrLaptop(width: number): Promise<Page> {
    const context = await chromium.newContext({ viewport: { width, height: width === 390 ? 844 : 900 }, ...(width === 390 ? { isMobile: true, hasTouch: true } : {}) });
    contexts.push(context);
    return context.newPage();
  }

  const authorizeUrl = (client: TestClient, scope: string) =>
    `/auth/oauth2/authorize?${new URLSearchParams({ client_id: client.clientId, redirect_uri: client.redirectUri, response_type: 'code', scope, state: 'tour' })}`;

  /** What is wrong with the page now: sideways scrolling, a key element off screen, a tall header. */
  async function problemsOf(page: Page, name: string, keys: string[]): Promise<string[]> {
    const problems: string[] = [];
    if (!(await fitsWidth(page))) {
      const widths = await page.evaluate(() => `${document.documentElement.scrollWidth} > ${window.innerWidth}`);
      problems.push(`${name}: scrolls sideways (${widths})`);
    }
    for (const selector of keys) {
      const box = await page.locator(selector).first().boundingBox();
      const inside = box !== null && box.width > 0 && box.x >= 0 && box.x + box.width <= page.viewportSize()!.width + 0.5;
      if (!inside) problems.push(`${name}: ${selector} is not on screen (${JSON.stringify(box)})`);
    }
    const header = await page.locator('header.top').boundingBox();
    if (header !== null && header.height > 64) problems.push(`${name}: the header is ${Math.round(header.height)} px tall`);
    return problems;
  }

  for (const width of widths) {
    it(`every page fits ${width} px with its key elements on screen`, async () => {
      const page = await phoneOrLaptop(width);
      const problems: string[] = [];
      const mine = pending.get(width)!;
      let step = 0;
      async function visit(name: string, path: string, keys: string[] = ['h1']) {
        await page.goto(server.url + path);
        await page.locator(keys[0]!).first().waitFor();
        problems.push(...(await problemsOf(page, name, keys)));
        step += 1;
        await keepScreenshot(page, `pages-${width}-${String(step).padStart(2, '0')}-${name}`);
      }

      await visit('home-anonymous', '/');
      await visit('login-for-application', `/login?next=${encodeURIComponent(authorizeUrl(approved, 'PROFILE_READ BOOKING_WRITE'))}`, ['h1', '#login-for', 'img.app-logo', 'button[type=submit]']);
      expect(await page.locator('#login-for').textContent()).toBe('to continue to Calendar Sync for Teams');
      await visit('error-unknown-application', '/auth/oauth2/authorize?client_id=bogus&response_type=code&redirect_uri=https%3A%2F%2Fevil.example%2F', ['h1', '#error-message', '#error-details']);
      expect(await page.locator('h1').textContent()).toBe('This sign-in link is not valid');
      await visit('not-found', '/no-such-page');

      await page.goto(`${server.url}/login`);
      await page.getByLabel('Email').fill(person.email);
      await page.getByLabel('Password').fill(person.password);
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.waitForURL(`${server.url}/`);

      await visit('home', '/');
      if (width === 390) {
        // The account links wait behind Menu; one tap shows them.
        expect(await page.getByRole('link', { name: 'Developer settings' }).isVisible()).toBe(false);
        await page.locator('label[for=menu-toggle]').click();
        await page.getByRole('link', { name: 'Developer settings' }).waitFor();
        problems.push(...(await problemsOf(page, 'home-menu-open', ['nav.top-nav a[href="/logout"]']).then((p) => p.filter((x) => !x.includes('header is')))));
        step += 1;
        await keepScreenshot(page, `pages-${width}-${String(step).padStart(2, '0')}-menu-open`);
      } else {
        expect(await page.getByRole('link', { name: 'Developer settings' }).isVisible()).toBe(true);
      }
      await visit('consent', authorizeUrl(approved, 'PROFILE_READ BOOKING_READ BOOKING_WRITE SCHEDULE_READ TEAM_EVENT_TYPE_READ ORG_BOOKING_READ'), ['h1', 'img.app-logo', '#switch-account', '#reach-team', '#reach-organization', 'button[value=allow]', 'button[value=deny]']);
      expect(await page.locator('#reach-team').textContent()).toContain('Today: Sales (member) and every team of Acme Corp (organization admin).');
      // The monogram loaded from this origin (an <img> that failed has no natural width).
      expect(await page.locator('img.app-logo').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
      // The consent card starts right under a one-line header.
      expect((await page.locator('.card.consent').boundingBox())!.y).toBeLessThan(120);
      await visit('developer-clients', DEV, ['h1', 'table.clients .badge']);
      await visit('register-form', `${DEV}/new`, ['h1', '#name']);

      // A client page with a secret shown once: Add a secret, then the page the redirect leads to.
      await visit('client', `${DEV}/${mine.clientId}`, ['h1', '#client-id', '#authorize-url']);
      if ((await page.locator('button', { hasText: 'Add a secret' }).count()) > 0) {
        await page.getByRole('button', { name: 'Add a secret' }).click();
        await page.locator('#new-secret-value').waitFor();
        problems.push(...(await problemsOf(page, 'client-new-secret', ['#new-secret-value'])));
        step += 1;
        await keepScreenshot(page, `pages-${width}-${String(step).padStart(2, '0')}-client-new-secret`);
      }
      const secretId = await page.locator('tr[data-secret]').first().getAttribute('data-secret');
      await visit('remove-secret', `${DEV}/${mine.clientId}/secrets/${secretId}/remove`);
      await visit('edit-client', `${DEV}/${mine.clientId}/edit`, ['h1', '#redirect_uris']);
      await visit('migrate-legacy', `${DEV}/${legacy.clientId}/migrate`);
      await visit('admin-queue', ADMIN, ['h1', '#pending .badge', '#all .badge']);
      await visit('admin-review', `${ADMIN}/${mine.clientId}`, ['h1', 'button[type=submit]']);
      // One card for the person's own authorization of the application, one for the team's.
      await visit('authorized-apps', '/settings/authorized-apps', ['h1', 'section.app img.app-logo', 'section.app .badge.writes', `section.app[data-client="${approved.clientId}"] [id^="last-used-"]`, 'section.app a.button.danger', '#reach-team']);
      const approvedGrant = await page.locator(`section.app[data-client="${approved.clientId}"]`).first().getAttribute('data-grant');
      await visit('teams', '/settings/teams', ['h1', '#how-you-join']);
      // Issue 24 items 9 and 10: the confirmations, the review page's risks, the error page naming the application.
      await visit('team-invite-links', `/settings/teams/${supportTeam}/invite-links`, ['h1', '#links li.invite-link button.danger', '#links .notice.bad']);
      await visit('teams-leave-confirm', `/settings/teams/memberships/${salesMembership}/leave`, ['h1', 'button.danger', 'a.button.secondary']);
      await visit('authorized-apps-revoke-confirm', `/settings/authorized-apps/grants/${approvedGrant}/revoke`, ['h1', 'img.app-logo', 'button.danger', '#revoke-keeps']);
      await visit('admin-review-risks', `${ADMIN}/${risky.clientId}`, ['h1', '#risk-public-org-write', '#risk-homepage-domain', '#risk-http-redirect']);
      await visit('error-bad-redirect', `/auth/oauth2/authorize?${new URLSearchParams({ client_id: approved.clientId, response_type: 'code', redirect_uri: 'https://evil.example/steal' })}`, ['h1', '#error-application']);
      await visit('logout', '/logout', ['h1', 'button[type=submit]']);

      await page.goto(`${server.url}/v2/docs`);
      await page.locator('.information-container').waitFor();
      // Issue 40 item 3: it declares a viewport, so a phone lays it out at its own width.
      expect(await page.evaluate(() => window.innerWidth)).toBe(width);
      expect(await fitsWidth(page)).toBe(true);
      expect(await page.title()).toBe('Gatehouse API reference');
      expect(await page.locator('.information-container').innerText()).toContain('Authorization: Bearer <token>');
      step += 1;
      // The reference is long: the first screen is what tells whose it is.
      mkdirSync(screenshotDir, { recursive: true });
      await page.screenshot({ path: join(screenshotDir, `pages-${width}-${String(step).padStart(2, '0')}-api-reference.png`) });

      // "Not you? Switch account": logged out, on the login page for the same application.
      // (PROFILE_READ BOOKING_WRITE was allowed before and would be remembered: ask for more.)
      await page.goto(server.url + authorizeUrl(approved, 'PROFILE_READ SCHEDULE_READ'));
      await page.locator('#switch-account').click();
      await page.locator('#login-for').waitFor();
      expect(await page.locator('#login-for').textContent()).toBe('to continue to Calendar Sync for Teams');
      expect(new URL(page.url()).searchParams.get('next')).toBe(authorizeUrl(approved, 'PROFILE_READ SCHEDULE_READ'));
      expect(await page.locator('header.top').getByRole('link', { name: 'Log in' }).isVisible()).toBe(true);

      expect(problems).toEqual([]);
    });
  }
});

// The pages at a phone's width (390 px) and a laptop's (1280 px) in Chromium, in two blocks
// below: every page visited once, and the rough edges found on them since. They share one
// Chromium and one server, started once; each block signs in people of its own and registers
// clients of its own, so what one lists the other never sees. With SCREENSHOTS=1, screenshots go to
// test-output/screenshots/ for a person to look at.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, fitsWidth, keepScreenshot, launchChromium, logIn, watchCspViolations } from '../helpers/chromium.ts';
import { startTestServer, type TestClient, type TestServer, type TestUser } from '../helpers/server.ts';
import { reviewClient } from '../../src/services/clients/review.ts';
import { createInviteLink } from '../../src/services/teams/invite-links.ts';
import { addMember, createOrganization, createTeam } from '../../src/services/teams/teams.ts';

const DEV = '/settings/developer/oauth-clients';
const ADMIN = '/admin/oauth-clients';
const widths = [390, 1280] as const;

/** Long values of the kind that used to break mid-word or push the page sideways. */
const longRedirect = 'https://calendar-sync.example.com/oauth/callback/with/a/rather/long/path?tenant=acme-industries-international&region=eu-west';
const longUri = 'http://planner.example.com/oauth/callback/for-the-calendar-integration-of-acme-industries-international';
const heldUri = 'https://planner.example.com/oauth/callback/calendarintegrationforacmeindustriesinternationalintheeuwestregion?tenant=acmeindustriesinternational';

describe.skipIf(!chromiumAvailable)('the pages in Chromium', { timeout: 240_000 }, () => {
  let server: TestServer;
  let chromium: Browser;

  beforeAll(async () => {
    server = await startTestServer('sqlite');
    chromium = await launchChromium();
  });
  afterAll(async () => {
    await chromium?.close();
    await server?.close();
  });

  // Every page at a phone's width (390 px) and a laptop's (1280 px) in Chromium: nothing scrolls sideways, the page's key elements are on screen, the header
  // stays one short bar, and (SCREENSHOTS=1) a screenshot of each is kept in test-output/screenshots/ for a
  // person to look at.
  describe('every page at 390 and 1280 px', () => {
    let person: TestUser;
    let approved: TestClient;
    const pending = new Map<number, TestClient>();
    let legacy: TestClient;
    let risky: TestClient;
    let salesMembership: string;
    let supportTeam: string;
    const contexts: BrowserContext[] = [];

    beforeAll(async () => {
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
        await logIn(page, person);
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

  // The pages' rough edges at a phone's width (390 px) and a
  // laptop's (1280 px) in Chromium: a form's error summary that quotes a long URL wraps; state
  // badges stay beside their label and keep their size; the Activity table's Details can be
  // read in full; the metadata-document host input looks like every other input; a reviewer's
  // note that ends in "." gets no second one; the 404 page of a signed-in user offers their
  // account, not "Log in"; a redirect URI with a query string is warned about; and the API
  // reference lets a visitor paste an access token and try an operation, with no dead-end
  // OAuth button and no one-entry definition menu. Each step keeps a screenshot first, so
  // that a run on older code still shows what it looked like.
  describe('the pages’ rough edges at 390 and 1280 px', () => {
    let person: TestUser;
    const contexts: BrowserContext[] = [];
    const approved = new Map<number, TestClient>();
    const rejected = new Map<number, TestClient>();
    let token: string;

    beforeAll(async () => {
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
    });

    async function signedIn(width: number): Promise<Page> {
      const context = await chromium.newContext({ viewport: { width, height: width === 390 ? 844 : 900 }, ...(width === 390 ? { isMobile: true, hasTouch: true } : {}) });
      contexts.push(context);
      const page = await context.newPage();
      await page.goto(`${server.url}/login`);
      await logIn(page, person);
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

      // The reference is heavy to render (Swagger UI resolves the whole document in the page,
      // and again each operation opened): one visit per width. What the width changes is the
      // layout; the token and the operation tried are the same script at either width, and are
      // tried once, on the phone, where a control that does not fit would show.
      const tried = width === 390;
      it(`${width} px: the API reference fits and renders under its own policy${tried ? '; it takes a pasted access token and tries an operation' : ''}`, async () => {
        const context = await chromium.newContext({ viewport: { width, height: width === 390 ? 844 : 900 }, ...(width === 390 ? { isMobile: true, hasTouch: true } : {}) });
        contexts.push(context);
        const violations: string[] = [];
        await watchCspViolations(context, violations);
        const page = await context.newPage();
        // The reference is long: what the screen shows is what these steps are about.
        const shot = (name: string) => keepScreenshot(page, `issue24-${width}-${name}`, { viewport: true });
        await page.goto(`${server.url}/v2/docs`);
        await page.locator('.information-container').waitFor();
        await page.locator('.opblock-tag').first().waitFor();
        await shot('10-api-reference');
        // Issue 40 item 3: it declares a viewport, so a phone lays it out at its own width.
        expect(await page.evaluate(() => window.innerWidth)).toBe(width);
        expect(await fitsWidth(page)).toBe(true);
        expect(await page.title()).toBe('Gatehouse API reference');
        expect(await page.locator('.information-container').innerText()).toContain('Authorization: Bearer <token>');
        // No one-entry "Select a definition" menu.
        expect.soft(await page.locator('.topbar select, .topbar .download-url-wrapper').filter({ visible: true }).count()).toBe(0);
        // Its own policy (docs/rules.md#security-headers): nothing it loads or runs is refused.
        expect(violations).toEqual([]);
        if (!tried) return;
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
        // Tags start collapsed (src/platform/openapi.ts): the one with the most operations opens.
        await page.locator('.opblock-tag[data-tag="Bookings"]').click();
        await expect.poll(() => page.locator('.opblock').count()).toBeGreaterThan(10);
        // Nor anything the operations it tried and opened loaded or ran.
        expect(violations).toEqual([]);
      });
    }
  });
});

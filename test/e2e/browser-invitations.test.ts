// An invitation answered in a real browser (docs/rules.md#membership-invitations): a team admin invites a user
// by e-mail through the API; the invitation grants nothing; the user logs in, opens
// /settings/teams on a phone, accepts, and the membership takes effect at once. Screenshots
// go to test-output/screenshots/.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, fitsWidth, keepScreenshot, launchChromium } from '../helpers/chromium.ts';
import { startTestServer, type TestServer, type TestUser } from '../helpers/server.ts';
import { buildWorld, mint, type World } from '../platform/fixtures.ts';

describe.skipIf(!chromiumAvailable)('an invitation accepted in Chromium', { timeout: 60_000 }, () => {
  let server: TestServer;
  let chromium: Browser;
  let context: BrowserContext;
  let page: Page;
  let w: World;
  let invitee: TestUser;

  beforeAll(async () => {
    server = await startTestServer('sqlite');
    chromium = await launchChromium();
    context = await chromium.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    page = await context.newPage();
    w = await buildWorld(server);
    invitee = await server.user({ name: 'Ines Invitee' });
  });
  afterAll(async () => {
    await context?.close();
    await chromium?.close();
    await server?.close();
  });

  it('the invited user logs in, accepts on /settings/teams, and only then can use the team endpoints', async () => {
    const admin = await mint(server, w, w.teamAdmin, ['TEAM_MEMBERSHIP_READ', 'TEAM_MEMBERSHIP_WRITE']);
    const invited = await server.api('POST', `/v2/teams/${w.team.id}/memberships`, admin, { email: invitee.email, role: 'member' });
    expect(invited.status).toBe(201);
    const invitationId = invited.body.data.id as number;
    const token = await mint(server, w, invitee, ['TEAM_PROFILE_READ']);
    expect((await server.api('GET', `/v2/teams/${w.team.id}`, token)).status).toBe(403);

    await page.goto(`${server.url}/settings/teams`);
    await expect.poll(() => page.getByRole('heading', { name: 'Log in' }).isVisible()).toBe(true);
    await page.getByLabel('Email').fill(invitee.email);
    await page.getByLabel('Password').fill(invitee.password);
    await page.getByRole('button', { name: 'Log in' }).click();

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

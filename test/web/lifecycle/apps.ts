// Authorized apps (docs/rules.md#consent): each application the user approved, one card for
// each party it acts for (the user, or a team, docs/rules.md#team-authorization), with its
// scopes in plain words and when; each card's Revoke ends every token of that card at once,
// and only of that card and this user.
import { beforeAll, describe, expect, it } from 'vitest';
import { createTeam } from '../../../src/services/teams/teams.ts';
import type { Backend } from '../../helpers/backends.ts';
import { csrfOf, loggedIn, open, postForm, textOf, visibleText } from '../../helpers/pages.ts';
import type { TestServer, TestUser } from '../../helpers/server.ts';

const APPS = '/settings/authorized-apps';

/** The page's cards, in order: the grant each is named by, its client and its heading. */
function cards(body: string): { grantId: string; clientId: string; heading: string | null }[] {
  return [...body.matchAll(/<section class="card app" data-client="([^"]+)" data-grant="([^"]+)"/g)].map((m) => ({ clientId: m[1]!, grantId: m[2]!, heading: textOf(body, `grant-${m[2]}`) }));
}

/** The visible text of the card named by the grant, down to its Revoke link. */
function cardText(body: string, grantId: string): string {
  const from = body.lastIndexOf('<section', body.indexOf(`data-grant="${grantId}"`));
  return visibleText(body.slice(from, body.indexOf('</section>', body.indexOf('class="actions"', from))));
}

export function authorizedApps({ available }: Backend, shared: () => TestServer): void {
  describe('authorized apps', () => {
    let server: TestServer;
    let dev: TestUser;
    beforeAll(async () => {
      if (!available) return;
      server = shared();
      dev = await server.user();
    });

    it.skipIf(!available)('lists each approved application with its scopes in plain words and when; Revoke ends all its tokens for this user at once', async () => {
      const client = await server.client(dev, { name: 'Booking Buddy', homepageUrl: 'https://buddy.example.com' });
      const other = await server.client(dev, { name: 'Other App' });
      const { user, browser } = await loggedIn(server);
      // Two authorizations of one application for the user: two grants, one card.
      const first = await server.exchange(client, await server.code(client, user, { scope: 'PROFILE_READ' }));
      const second = await server.exchange(client, await server.code(client, user, { scope: 'BOOKING_READ', prompt: 'consent' }));
      const kept = await server.exchange(other, await server.code(other, user));
      const bystander = await server.user();
      const theirs = await server.exchange(client, await server.code(client, bystander));

      const page = await open(browser, APPS);
      const mine = cards(page.body).filter((c) => c.clientId === client.clientId);
      expect(mine.map((c) => c.heading)).toEqual(['Booking Buddy for you']);
      const grantId = mine[0]!.grantId;
      const text = visibleText(page.body);
      expect(text).toMatch(
        /Booking Buddy for you https:\/\/buddy\.example\.com You approved it on \d{4}-\d\d-\d\d \d\d:\d\d UTC.*Last used: .*It acts for you\. It can: Your account List bookings; read recordings, transcripts, calendar links, references\. Read the authorized user's profile\. Revoke access/,
      );
      expect(text).toContain('Other App for you');

      // Revoke access asks first: a link to a confirmation page, whose form revokes.
      expect(page.body).toContain(`<a class="button danger" href="${APPS}/grants/${grantId}/revoke">Revoke access<span class="visually-hidden"> for Booking Buddy for you</span></a>`);
      const confirm = await open(browser, `${APPS}/grants/${grantId}/revoke`);
      expect(textOf(confirm.body, 'revoke-title')).toBe('Revoke the access Booking Buddy has for you?');
      expect(textOf(confirm.body, 'revoke-consequence')).toBe('Every token it holds for your account stops working at once. To use it again you will have to allow it again.');
      expect(textOf(confirm.body, 'revoke-keeps')).toBeNull();
      expect(visibleText(confirm.body)).toContain('Revoke access for Booking Buddy for you Cancel');
      // Looking at the confirmation revokes nothing.
      expect((await server.api('GET', '/v2/me', first.body.access_token as string)).status).toBe(200);

      const res = await postForm(browser, `${APPS}/grants/${grantId}/revoke`, { _csrf: csrfOf(confirm.body) });
      expect(res.status).toBe(303);
      const after = await browser.follow(res);
      expect(textOf(after.body, 'flash')).toBe('You revoked the access Booking Buddy had for you. Its tokens stopped working at once.');
      expect(visibleText(after.body)).not.toContain('Booking Buddy for you https://');
      expect(visibleText(after.body)).toContain('Other App');

      for (const tokens of [first, second]) {
        expect((await server.api('GET', '/v2/me', tokens.body.access_token as string)).status).toBe(401);
        const refresh = await server.token({ grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token as string, client_id: client.clientId, client_secret: client.secret! });
        expect(refresh.body.error).toBe('invalid_grant');
      }
      // Another application of this user, and this application for another user, are untouched.
      expect((await server.api('GET', '/v2/me', kept.body.access_token as string)).status).toBe(200);
      expect((await server.api('GET', '/v2/me', theirs.body.access_token as string)).status).toBe(200);

      const revoked = (await server.services.stores.auditLog.list({ clientId: client.clientId })).filter((e) => e.type === 'grant.revoked');
      expect(revoked).toHaveLength(2);
      expect(revoked.every((e) => e.actorId === user.id && e.userId === user.id)).toBe(true);

      // Consent is asked again: the application has to come back to the user.
      const query = new URLSearchParams({ client_id: client.clientId, redirect_uri: client.redirectUri, response_type: 'code', scope: 'PROFILE_READ', state: 's' });
      const again = await browser.get(`/auth/oauth2/authorize?${query}`);
      expect(again.status).toBe(200);
      expect(textOf(again.body, 'client-name')).toBe('Booking Buddy');
    });

    it.skipIf(!available)("docs/rules.md#team-authorization: the user's own grant and a team's grant of one application are two cards, each with its own scopes and Revoke; revoking one leaves the other working", async () => {
      const client = await server.client(dev, { name: 'Crew Planner', scopes: ['PROFILE_READ', 'TEAM_PROFILE_READ'] });
      const { user, browser } = await loggedIn(server);
      const team = await createTeam(server.services, { name: 'Night Shift', ownerId: user.id });
      const personal = await server.exchange(client, await server.code(client, user, { scope: 'PROFILE_READ' }));
      const forTeam = await server.exchange(client, await server.code(client, user, { scope: 'TEAM_PROFILE_READ', team_slug: team.slug }));

      const page = await open(browser, APPS);
      const shown = cards(page.body).filter((c) => c.clientId === client.clientId);
      expect(shown.map((c) => c.heading)).toEqual(['Crew Planner for you', 'Crew Planner for the team Night Shift']);
      const [mine, theTeam] = shown.map((c) => c.grantId) as [string, string];
      expect(cardText(page.body, mine)).toMatch(/It acts for you\. It can: Your account Read the authorized user's profile\. Revoke access for Crew Planner for you$/);
      expect(cardText(page.body, theTeam)).toMatch(
        /It acts for the team Night Shift, not for you, as you authorized it as an owner or admin of the team or of its organization; it works only while you still are one\. It can: Your teams In the team Night Shift only, and only while you are an owner or admin of it\. Read team profiles\. Revoke access for Crew Planner for the team Night Shift$/,
      );
      expect(cardText(page.body, theTeam)).not.toContain("authorized user's profile");

      // The team's confirmation says what ends and what stays.
      const confirm = await open(browser, `${APPS}/grants/${theTeam}/revoke`);
      expect(textOf(confirm.body, 'revoke-title')).toBe('Revoke the access Crew Planner has for the team Night Shift?');
      expect(textOf(confirm.body, 'revoke-consequence')).toBe(
        'Every token it holds for the team Night Shift, and the invite links they made, stops working at once. To use it again an owner or admin of the team will have to allow it again.',
      );
      expect(textOf(confirm.body, 'revoke-keeps')).toBe('Its access for you is not revoked; it has a card of its own.');
      const res = await postForm(browser, `${APPS}/grants/${theTeam}/revoke`, { _csrf: csrfOf(confirm.body) });
      expect(res.status).toBe(303);
      const after = await browser.follow(res);
      expect(textOf(after.body, 'flash')).toBe('You revoked the access Crew Planner had for the team Night Shift. Its tokens stopped working at once.');
      expect(cards(after.body).filter((c) => c.clientId === client.clientId).map((c) => c.heading)).toEqual(['Crew Planner for you']);

      expect((await server.api('GET', `/v2/teams/${team.id}`, forTeam.body.access_token as string)).status).toBe(401);
      const teamRefresh = await server.token({ grant_type: 'refresh_token', refresh_token: forTeam.body.refresh_token as string, client_id: client.clientId, client_secret: client.secret! });
      expect(teamRefresh.body.error).toBe('invalid_grant');
      expect((await server.api('GET', '/v2/me', personal.body.access_token as string)).status).toBe(200);
      const refreshed = await server.token({ grant_type: 'refresh_token', refresh_token: personal.body.refresh_token as string, client_id: client.clientId, client_secret: client.secret! });
      expect(refreshed.status).toBe(200);

      // The user's own card is revoked on its own too.
      const mineConfirm = await open(browser, `${APPS}/grants/${mine}/revoke`);
      expect(textOf(mineConfirm.body, 'revoke-keeps')).toBeNull();
      expect((await postForm(browser, `${APPS}/grants/${mine}/revoke`, { _csrf: csrfOf(mineConfirm.body) })).status).toBe(303);
      expect((await server.api('GET', '/v2/me', refreshed.body.access_token as string)).status).toBe(401);
    });

    it.skipIf(!available)("a revoke naming another user's grant is not found and revokes nothing; its confirmation page is not shown either", async () => {
      const client = await server.client(dev, { name: 'Not Yours' });
      const victim = await loggedIn(server);
      const tokens = await server.exchange(client, await server.code(client, victim.user));
      const [theirGrant] = cards((await open(victim.browser, APPS)).body).filter((c) => c.clientId === client.clientId);
      const attacker = await loggedIn(server);
      // The attacker authorized the same application: a valid form token, on a page of their own.
      await server.exchange(client, await server.code(client, attacker.user));
      const [ownGrant] = cards((await open(attacker.browser, APPS)).body).filter((c) => c.clientId === client.clientId);
      const csrf = csrfOf((await open(attacker.browser, `${APPS}/grants/${ownGrant!.grantId}/revoke`)).body);

      expect((await attacker.browser.get(`${APPS}/grants/${theirGrant!.grantId}/revoke`)).status).toBe(404);
      const res = await postForm(attacker.browser, `${APPS}/grants/${theirGrant!.grantId}/revoke`, { _csrf: csrf });
      expect(res.status).toBe(404);
      expect(visibleText(res.body)).toContain('You have not authorized this application, or this access was already revoked.');
      expect((await server.api('GET', '/v2/me', tokens.body.access_token as string)).status).toBe(200);
      expect(cards((await open(victim.browser, APPS)).body).map((c) => c.grantId)).toContain(theirGrant!.grantId);
      // Nor does the flash name another user's grant.
      expect(textOf((await open(attacker.browser, `${APPS}?revoked=${theirGrant!.grantId}`)).body, 'flash')).toBeNull();
    });

    it.skipIf(!available)('each application shows its logo, marks the scopes that can make changes, and when it last got a token', async () => {
      const client = await server.client(dev, { name: 'Change Maker', scopes: ['PROFILE_READ', 'BOOKING_READ', 'BOOKING_WRITE'] });
      const { user, browser } = await loggedIn(server);
      const tokens = await server.exchange(client, await server.code(client, user, { scope: 'BOOKING_WRITE PROFILE_READ' }));
      const issuedAt = server.clock();
      const page = await open(browser, APPS);
      expect(page.body).toContain(`<img class="app-logo" src="/oauth-clients/${client.clientId}/logo" alt="" width="40" height="40">`);
      const from = page.body.indexOf(`data-client="${client.clientId}"`);
      const card = page.body.slice(from, page.body.indexOf('Revoke access', from));
      expect(visibleText(card)).toContain('It can: Your account Read the authorized user\'s profile. Add guests, change locations, confirm, decline, reassign bookings. Can make changes');
      expect(card).toContain('<li class="writes">');
      /** The last-used line, and the time it names. */
      const used = async () => {
        const body = (await open(browser, APPS)).body;
        const line = /<p class="muted" id="last-used-[^"]+">([\s\S]*?)<\/p>/.exec(body.slice(body.indexOf(`data-client="${client.clientId}"`)))![0];
        return { text: visibleText(line), at: Date.parse(/datetime="([^"]+)"/.exec(line)![1]!) };
      };
      const before = await used();
      expect(before.text).toMatch(/^Last used: \d{4}-\d\d-\d\d \d\d:\d\d UTC, when it last got a token \(signing you in or refreshing\)\.$/);
      expect(Math.abs(before.at - issuedAt)).toBeLessThan(60_000);

      // A refresh two days later moves it.
      server.advance(2 * 24 * 3600);
      const refreshed = await server.token({ grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token as string, client_id: client.clientId, client_secret: client.secret! });
      expect(refreshed.status).toBe(200);
      expect(Math.abs((await used()).at - server.clock())).toBeLessThan(60_000);
    });

    it.skipIf(!available)('a legacy application is shown as reaching everything in the account', async () => {
      const client = await server.client(dev, { scopes: null, name: 'Old Faithful' });
      const { user, browser } = await loggedIn(server);
      await server.code(client, user);
      const page = await open(browser, APPS);
      expect(visibleText(page.body)).toMatch(/Old Faithful .*It can: Read and change everything in your account/);
    });

    it.skipIf(!available)('with nothing authorized the page says so; a stale revoke form says it expired and revokes nothing', async () => {
      const client = await server.client(dev);
      const { user, browser } = await loggedIn(server);
      expect(textOf((await open(browser, APPS)).body, 'no-apps')).toBe('You have not authorized any application.');
      const tokens = await server.exchange(client, await server.code(client, user));
      const [card] = cards((await open(browser, APPS)).body);
      const res = await postForm(browser, `${APPS}/grants/${card!.grantId}/revoke`, { _csrf: 'stale' });
      expect(res.status).toBe(403);
      expect(visibleText(res.body)).toContain('This form has expired');
      expect((await server.api('GET', '/v2/me', tokens.body.access_token as string)).status).toBe(200);
    });
  });
}

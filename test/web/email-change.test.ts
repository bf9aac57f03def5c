// docs/rules.md#profile: PATCH /v2/me takes `email`, as the platform's does, but the sign-in
// address moves only when its user confirms it in the web app, signed in; a token alone never
// hands the account over. Through real HTTP, the consent flow's tokens and the pages, on both
// databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.ts';
import type { Browser } from '../helpers/browser.ts';
import { browserFor, csrfOf, loggedIn, open, postForm, textOf } from '../helpers/pages.ts';
import { createTeam } from '../../src/services/teams/teams.ts';
import { inviteMember } from '../../src/services/teams/invitations.ts';
import { startTestServer, type TestClient, type TestServer, type TestUser } from '../helpers/server.ts';
import { fixtures } from '../platform/fixtures.ts';

const PAGE = '/settings/email';

describe.each(backends)('a sign-in address change asked for by an application on $name', ({ name, available }) => {
  let server: TestServer;
  let client: TestClient;
  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer(name);
    client = await server.client(await server.user(), { name: 'Address Book Sync', scopes: ['PROFILE_READ', 'PROFILE_WRITE', 'VERIFIED_RESOURCES_READ', 'VERIFIED_RESOURCES_WRITE'] });
  });
  afterAll(async () => server?.close());

  /** A user signed in on the web, and an access token of theirs from the real flow. */
  async function userWithToken(): Promise<{ user: TestUser; browser: Browser; token: string }> {
    const { user, browser } = await loggedIn(server, { name: 'Ada' });
    const res = await server.exchange(client, await server.code(client, user, { scope: 'PROFILE_READ PROFILE_WRITE VERIFIED_RESOURCES_WRITE' }));
    expect(res.status).toBe(200);
    return { user, browser, token: res.body.access_token as string };
  }

  const fresh = () => `new-${Math.random().toString(36).slice(2)}@example.com`;

  /** The application proves the address is the user's, as the platform's verified emails do: a code sent to it. */
  async function verify(user: TestUser, token: string, email: string) {
    const code = await fixtures(server).pendingCode({ userId: user.id }, 'email', email);
    const res = await server.api('POST', '/v2/verified-resources/emails/verification-code/verify', token, { email, code });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }

  async function press(browser: Browser, action: 'confirm' | 'dismiss') {
    const page = await open(browser, PAGE);
    const shown = /name="email" value="([^"]+)"/.exec(page.body)?.[1];
    const posted = await postForm(browser, `${PAGE}/${action}`, { _csrf: csrfOf(page.body), ...(shown === undefined ? {} : { email: shown }) });
    expect(posted.status).toBe(303);
    return browser.follow(posted);
  }

  it.skipIf(!available)('PATCH answers the profile as it is, the new address waiting as pendingEmail; GET says the same; nothing else changes', async () => {
    const { user, token } = await userWithToken();
    const wanted = fresh();
    const res = await server.api('PATCH', '/v2/me', token, { email: wanted.toUpperCase(), name: 'Ada Lovelace' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ email: user.email, name: 'Ada Lovelace', pendingEmail: wanted });
    expect((await server.api('GET', '/v2/me', token)).body.data).toMatchObject({ email: user.email, pendingEmail: wanted });
    const audit = await server.db.selectFrom('audit_events').select(['type', 'client_id']).where('user_id', '=', user.id).where('type', 'like', 'user.email%').execute();
    expect(audit).toEqual([{ type: 'user.email_change_requested', client_id: client.clientId }]);
  });

  it.skipIf(!available)('the user confirms in the web app: the address is theirs to sign in with, the old one no longer', async () => {
    const { user, browser, token } = await userWithToken();
    const wanted = fresh();
    await server.api('PATCH', '/v2/me', token, { email: wanted });
    await verify(user, token, wanted);
    const home = await open(browser, '/');
    expect(textOf(home.body, 'email-change-waiting')).toContain(wanted);
    const page = await open(browser, PAGE);
    expect(textOf(page.body, 'asked-by')).toBe('Address Book Sync');
    expect(textOf(page.body, 'new-email')).toBe(wanted);
    const done = await press(browser, 'confirm');
    expect(textOf(done.body, 'flash')).toBe(`Your sign-in address is now ${wanted}.`);
    expect(textOf(done.body, 'current-email')).toBe(wanted);
    const me = (await server.api('GET', '/v2/me', token)).body.data;
    expect(me.email).toBe(wanted);
    expect(me).not.toHaveProperty('pendingEmail');
    expect((await server.browser().login(wanted, user.password)).status).toBe(303);
    const old = await server.browser().login(user.email, user.password);
    expect(old.status).toBe(401);
  });

  it.skipIf(!available)("an address not proven to be the user's cannot be taken, so invitations sent to it cannot be claimed: Confirm is refused until it is a verified address of theirs", async () => {
    // The attacker's own application asks for the victim's address, and the attacker confirms.
    const inviter = await server.user();
    const victim = `ceo-${Math.random().toString(36).slice(2)}@victim.example`;
    const team = await createTeam(server.services, { name: `Board ${Math.random().toString(36).slice(2)}`, ownerId: inviter.id });
    await inviteMember(server.services, { teamId: team.id }, { email: victim }, 'admin', inviter.id);
    const { user, browser, token } = await userWithToken();
    expect((await server.api('PATCH', '/v2/me', token, { email: victim })).status).toBe(200);
    const page = await open(browser, PAGE);
    expect(textOf(page.body, 'unverified')).toContain(`${victim} is not yet a verified address of yours`);
    const posted = await postForm(browser, `${PAGE}/confirm`, { _csrf: csrfOf(page.body), email: victim });
    expect(textOf((await browser.follow(posted)).body, 'flash')).toBe(`${victim} is not a verified address of yours yet: the application that asked must verify it first, with a code sent to it`);
    expect((await server.api('GET', '/v2/me', token)).body.data.email).toBe(user.email);
    expect(await server.db.selectFrom('users').select('id').where('email', '=', victim).execute()).toEqual([]);
  });

  it.skipIf(!available)('Confirm applies the address the page showed: a newer request that replaced it meanwhile is refused, and waits', async () => {
    const { user, browser, token } = await userWithToken();
    const shown = fresh();
    await server.api('PATCH', '/v2/me', token, { email: shown });
    await verify(user, token, shown);
    const page = await open(browser, PAGE);
    const newer = fresh();
    await server.api('PATCH', '/v2/me', token, { email: newer });
    const posted = await postForm(browser, `${PAGE}/confirm`, { _csrf: csrfOf(page.body), email: shown });
    expect(textOf((await browser.follow(posted)).body, 'flash')).toBe(`the change waiting is now to ${newer}, not the address you confirmed: look at it again`);
    expect((await server.api('GET', '/v2/me', token)).body.data).toMatchObject({ email: user.email, pendingEmail: newer });
  });

  it.skipIf(!available)('dismissed, nothing changes and nothing waits', async () => {
    const { user, browser, token } = await userWithToken();
    await server.api('PATCH', '/v2/me', token, { email: fresh() });
    const done = await press(browser, 'dismiss');
    expect(textOf(done.body, 'flash')).toBe('The change was dismissed: your sign-in address stays as it is.');
    expect(textOf(done.body, 'no-change')).toBe('No change of your sign-in address is waiting.');
    const me = (await server.api('GET', '/v2/me', token)).body.data;
    expect(me.email).toBe(user.email);
    expect(me).not.toHaveProperty('pendingEmail');
  });

  it.skipIf(!available)("another account's address: the application learns nothing, the user is told at confirmation and the address stays", async () => {
    const other = await server.user();
    const { user, browser, token } = await userWithToken();
    const res = await server.api('PATCH', '/v2/me', token, { email: other.email });
    expect(res.status).toBe(200);
    expect(res.body.data.pendingEmail).toBe(other.email);
    await verify(user, token, other.email);
    const done = await press(browser, 'confirm');
    expect(textOf(done.body, 'flash')).toBe(`${other.email} is the sign-in address of another account: dismiss this change`);
    expect((await server.api('GET', '/v2/me', token)).body.data.email).toBe(user.email);
  });

  it.skipIf(!available)('its own address asks nothing and clears an earlier request; a malformed one is 400 naming email', async () => {
    const { user, token } = await userWithToken();
    await server.api('PATCH', '/v2/me', token, { email: fresh() });
    const same = await server.api('PATCH', '/v2/me', token, { email: user.email.toUpperCase() });
    expect(same.status).toBe(200);
    expect(same.body.data).not.toHaveProperty('pendingEmail');
    const bad = await server.api('PATCH', '/v2/me', token, { email: 'not an address' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('email');
    expect(bad.body.error.message).toContain('is not an email address');
  });

  it.skipIf(!available)('a request lapses after seven days: nothing waits, and confirming says so', async () => {
    const { user, token } = await userWithToken();
    await server.api('PATCH', '/v2/me', token, { email: fresh() });
    server.advance(7 * 24 * 3600 + 1);
    try {
      // A week on, the session has ended too: the user signs in again.
      const browser = await browserFor(server, user);
      const page = await open(browser, PAGE);
      expect(textOf(page.body, 'no-change')).toBe('No change of your sign-in address is waiting.');
      // A form left open from before: the page offers none now, the new-client form lends its token.
      const posted = await postForm(browser, `${PAGE}/confirm`, { _csrf: csrfOf((await open(browser, '/settings/developer/oauth-clients/new')).body) });
      expect(textOf((await browser.follow(posted)).body, 'flash')).toBe('no change of your sign-in address is waiting: it was confirmed, dismissed or has expired');
    } finally {
      server.advance(-(7 * 24 * 3600 + 1));
    }
  });
});

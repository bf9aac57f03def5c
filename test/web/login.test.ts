// Signing in and out, through real HTTP on both storage backends, one server per database:
// RP-initiated logout at end_session_endpoint (OpenID Connect RP-Initiated Logout 1.0;
// docs/integrating.md#sign-in-with-gatehouse): a valid id_token_hint ends the session and
// returns to the registered post-logout URI with state; without one the user is asked; no
// answer ever goes to a URI the client did not register. /login and /logout
// (docs/rules.md#surfaces, docs/rules.md#audit-events, docs/rules.md#security-checklist). A
// change of the sign-in address an application asks for (docs/rules.md#profile): PATCH /v2/me
// takes `email`, as the platform's does, but the sign-in address moves only when its user
// confirms it in the web app, signed in; a token alone never hands the account over.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateClient } from '../../src/services/clients/changes.ts';
import { createTeam } from '../../src/services/teams/teams.ts';
import { inviteMember } from '../../src/services/teams/invitations.ts';
import { backends } from '../helpers/backends.ts';
import { formFields, type Browser, type PageResponse } from '../helpers/browser.ts';
import { browserFor, csrfOf, loggedIn, open, postForm, textOf, visibleText } from '../helpers/pages.ts';
import { sessionCountOfUser } from '../helpers/rows.ts';
import { startTestServer, type TestClient, type TestServer, type TestUser } from '../helpers/server.ts';
import { auditEvents, sessionOf } from '../helpers/stores.ts';
import { fixtures } from '../platform/fixtures.ts';

const PAGE = '/settings/email';
const SIGNED_OUT = 'https://app.example.com/signed-out';

describe.each(backends)('signing in and out on $name', ({ name, available }) => {
  let shared: TestServer;
  beforeAll(async () => {
    if (available) shared = await startTestServer(name);
  });
  afterAll(async () => shared?.close());

  describe('RP-initiated logout', () => {
    let server: TestServer;
    let developer: TestUser;
    let client: TestClient;

    beforeAll(async () => {
      if (!available) return;
      server = shared;
      developer = await server.user();
      client = await server.client(developer, { scopes: ['openid', 'PROFILE_READ'] });
      await updateClient(server.services, client.clientId, developer.id, { postLogoutRedirectUris: [SIGNED_OUT] });
    });

    /** A user logged in who signed in to the client: the browser and the ID token. */
    async function signedIn(): Promise<{ user: TestUser; browser: Browser; idToken: string }> {
      const user = await server.user();
      const browser = server.browser();
      expect((await browser.login(user.email, user.password)).status).toBe(303);
      const callback = await server.authorize(browser, { client_id: client.clientId, redirect_uri: client.redirectUri, response_type: 'code', scope: 'openid' });
      const tokens = await server.exchange(client, callback.searchParams.get('code')!);
      return { user, browser, idToken: (tokens.body as { id_token: string }).id_token };
    }

    /** prompt=none for the client: login_required once the session has ended (OIDC Core 3.1.2.6). */
    async function silentError(browser: Browser): Promise<string | null> {
      const query = new URLSearchParams({ client_id: client.clientId, redirect_uri: client.redirectUri, response_type: 'code', scope: 'openid', prompt: 'none', state: 's' });
      const res = await browser.get(`/auth/oauth2/authorize?${query}`);
      expect(res.status).toBe(303);
      const back = new URL(res.location!);
      return back.searchParams.get('error') ?? (back.searchParams.has('code') ? 'code' : null);
    }

    const logout = (params: Record<string, string>) => `/auth/oauth2/logout?${new URLSearchParams(params)}`;

    it.skipIf(!available)('OIDC RP-Initiated Logout 2, 3: a valid id_token_hint ends the session and returns to the registered URI with state; prompt=none then answers login_required', async () => {
      const { browser, idToken } = await signedIn();
      expect(await silentError(browser)).toBe('code');
      const res = await browser.get(logout({ id_token_hint: idToken, post_logout_redirect_uri: SIGNED_OUT, state: 'st-1' }));
      expect(res.status).toBe(303);
      expect(res.location).toBe(`${SIGNED_OUT}?state=st-1`);
      expect(await silentError(browser)).toBe('login_required');
    });

    it.skipIf(!available)('OIDC RP-Initiated Logout 3.1: a post_logout_redirect_uri the client did not register is never followed: the session ends on our page', async () => {
      const { browser, idToken } = await signedIn();
      const res = await browser.get(logout({ id_token_hint: idToken, post_logout_redirect_uri: 'https://evil.example.net/', state: 'x' }));
      expect(res.status).toBe(200);
      expect(res.location).toBeNull();
      expect(res.body).toContain('You are logged out');
      expect(res.body).not.toContain('evil.example.net');
      expect(await silentError(browser)).toBe('login_required');
    });

    it.skipIf(!available)('OIDC RP-Initiated Logout 2: without a valid hint the user is asked; the session stays until they answer, then logout returns to the registered URI', async () => {
      const { browser } = await signedIn();
      for (const hint of [undefined, 'not-a-jwt', 'eyJhbGciOiJub25lIn0.eyJpc3MiOiJ4In0.']) {
        const asked = await browser.get(logout({ ...(hint ? { id_token_hint: hint } : {}), client_id: client.clientId, post_logout_redirect_uri: SIGNED_OUT, state: 'st-2' }));
        expect(asked.status, hint).toBe(200);
        expect(asked.body).toContain('Log out?');
        expect(asked.body).toContain('Test App');
      }
      expect(await silentError(browser)).toBe('code');
      const page = await browser.get(logout({ client_id: client.clientId, post_logout_redirect_uri: SIGNED_OUT, state: 'st-2' }));
      // The answer may redirect to the registered URI's origin (form-action), and only there.
      expect(page.headers.get('content-security-policy')).toContain('https://app.example.com');
      const answered = await browser.post('/auth/oauth2/logout/confirm', formFields(page.body));
      expect(answered.status).toBe(303);
      expect(answered.location).toBe(`${SIGNED_OUT}?state=st-2`);
      expect(await silentError(browser)).toBe('login_required');
    });

    it.skipIf(!available)('OIDC RP-Initiated Logout 2: a hint of another user, or the application POSTing without our CSRF token, only asks; the confirmation needs its CSRF token', async () => {
      const { idToken: othersToken } = await signedIn();
      const { browser } = await signedIn();
      expect((await browser.get(logout({ id_token_hint: othersToken }))).body).toContain('Log out?');
      expect((await browser.post('/auth/oauth2/logout', { client_id: client.clientId })).body).toContain('Log out?');
      expect((await browser.post('/auth/oauth2/logout/confirm', { client_id: client.clientId })).status).toBe(403);
      expect(await silentError(browser)).toBe('code');
    });
  });

  describe('login and logout', () => {
    let server: TestServer;
    beforeAll(async () => {
      if (available) server = shared;
    });

    /** The browser's session as the pages find it (by its cookie): defined while it is live. */
    const sessionIn = (browser: Browser | string) => sessionOf(server, typeof browser === 'string' ? browser : browser.cookieHeader(), server.clock());

    /** Where a redirect really takes a browser (WHATWG URL parsing, as a browser does it). */
    const target = (res: PageResponse) => new URL(res.location!, server.url);

    it.skipIf(!available)('wrong password → 401 page with a message, a login.failed audit row, and no session (docs/rules.md#audit-events)', async () => {
      const user = await server.user();
      const browser = server.browser();
      const res = await browser.login(user.email, `${user.password}-wrong`);
      expect(res.status).toBe(401);
      expect(res.location).toBeNull();
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(visibleText(res.body)).toContain('The email or password is not right.');
      // The form is shown again, with a fresh CSRF token and the email kept.
      expect(formFields(res.body)._csrf).toBeTruthy();
      expect(res.body).toContain(`value="${user.email}"`);
      expect(res.headers.getSetCookie().some((line) => line.startsWith('gh_session='))).toBe(false);
      expect(await sessionCountOfUser(server.db, user.id)).toBe(0);

      // docs/rules.md#audit-events, docs/rules.md#private-records: the account's user id, and nothing that was typed.
      const events = await auditEvents(server, { userId: user.id, type: 'login.failed' });
      expect(events).toHaveLength(1);
      const table = JSON.stringify(await auditEvents(server));
      expect(table).not.toContain(`${user.password}-wrong`);
      expect(table).not.toContain(user.email);
    });

    it.skipIf(!available)('unknown email → the same 401 page and message as a wrong password, audited without anything typed: a password typed into the e-mail field is not stored (docs/rules.md#audit-events, docs/rules.md#private-records)', async () => {
      const failedLogins = async () => (await auditEvents(server, { type: 'login.failed' })).length;
      const before = await failedLogins();
      // People type their password into the e-mail field; it must not land in the audit log.
      const typed = `Correct-Horse-${Math.random().toString(36).slice(2)}`;
      const res = await server.browser().login(typed, `${typed}-again`);
      expect(res.status).toBe(401);
      expect(visibleText(res.body)).toContain('The email or password is not right.');
      const unknownEmail = `nobody-${Math.random().toString(36).slice(2)}@example.com`;
      expect((await server.browser().login(unknownEmail, 'whatever-password')).status).toBe(401);
      expect(await failedLogins()).toBe(before + 2);
      const rows = (await auditEvents(server, { type: 'login.failed' })).slice(-2);
      expect(rows.map((r) => r.userId)).toEqual([null, null]);
      const table = JSON.stringify(await auditEvents(server));
      expect(table).not.toContain(typed);
      expect(table).not.toContain(unknownEmail);
    });

    it.skipIf(!available)('empty email or password → 401 page asking for both, never a 500', async () => {
      const browser = server.browser();
      const form = await browser.get('/login');
      const res = await browser.post('/login', { ...formFields(form.body), email: '', password: '' });
      expect(res.status).toBe(401);
      expect(visibleText(res.body)).toContain('Enter your email and password.');
    });

    it.skipIf(!available)('right password → 303 to next and a session row (docs/rules.md#surfaces)', async () => {
      const user = await server.user();
      const browser = server.browser();
      const res = await browser.login(user.email, user.password, '/auth/oauth2/authorize?client_id=x');
      expect(res.status).toBe(303);
      expect(res.location).toBe('/auth/oauth2/authorize?client_id=x');
      // A live session (one that expires after now) of this user.
      expect((await sessionIn(browser))?.user.id).toBe(user.id);
      // The cookie holds a random token; the store knows the session by its hash only.
      const cookie = res.headers.getSetCookie().find((line) => line.startsWith('gh_session='))!;
      const token = cookie.split(';')[0]!.slice('gh_session='.length);
      expect(await server.services.stores.sessions.findLive(token, server.clock())).toBeUndefined();
      const home = await browser.get('/');
      expect(visibleText(home.body)).toContain(`You are logged in as ${user.email}`);
    });

    it.skipIf(!available)('login is case-insensitive in the email (a typed capital letter is not a wrong account)', async () => {
      const user = await server.user();
      const res = await server.browser().login(user.email.toUpperCase(), user.password);
      expect(res.status).toBe(303);
      expect((await sessionIn(res.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ')))?.user.id).toBe(user.id);
    });

    it.skipIf(!available)('login POST without a CSRF token → 403 page saying the form expired, no session (docs/rules.md#sessions-and-csrf)', async () => {
      const user = await server.user();
      const browser = server.browser();
      await browser.get('/login');
      const res = await browser.post('/login', { email: user.email, password: user.password, next: '/' });
      expect(res.status).toBe(403);
      expect(visibleText(res.body)).toMatch(/form has expired/i);
      expect(await sessionCountOfUser(server.db, user.id)).toBe(0);
    });

    it.skipIf(!available)('logout ends the session: the row is deleted and the old cookie no longer logs anyone in (docs/rules.md#surfaces)', async () => {
      const user = await server.user();
      const browser = server.browser();
      await browser.login(user.email, user.password);
      expect(await sessionIn(browser)).toBeDefined();
      const stolenCookie = browser.cookieHeader();

      // GET /logout only shows the form: a link or an image cannot log a user out.
      const form = await browser.get('/logout');
      expect(form.status).toBe(200);
      expect(await sessionIn(browser)).toBeDefined();

      const res = await browser.post('/logout', formFields(form.body));
      expect(res.status).toBe(303);
      expect(res.location).toBe('/login');
      expect(await sessionIn(stolenCookie)).toBeUndefined();
      const cleared = res.headers.getSetCookie().find((line) => line.startsWith('gh_session='));
      expect(cleared).toMatch(/gh_session=;|expires=Thu, 01 Jan 1970|max-age=0/i);

      // The browser is logged out, and so is anyone replaying the old cookie.
      expect(visibleText((await browser.get('/')).body)).not.toContain('You are logged in');
      const replay = await fetch(`${server.url}/`, { headers: { cookie: stolenCookie } });
      expect(visibleText(await replay.text())).not.toContain('You are logged in');
    });

    it.skipIf(!available)('logout without a CSRF token → 403, the session survives (docs/rules.md#sessions-and-csrf)', async () => {
      const user = await server.user();
      const browser = server.browser();
      await browser.login(user.email, user.password);
      const res = await browser.post('/logout', {});
      expect(res.status).toBe(403);
      expect(await sessionIn(browser)).toBeDefined();
    });

    it.skipIf(!available)('an expired session is not a login (sessions end after their lifetime)', async () => {
      const user = await server.user();
      const browser = server.browser();
      await browser.login(user.email, user.password);
      expect(visibleText((await browser.get('/')).body)).toContain('You are logged in');
      server.advance(8 * 24 * 3600);
      expect(visibleText((await browser.get('/')).body)).not.toContain('You are logged in');
    });

    it.skipIf(!available)('next cannot redirect off-site: //evil.example and its variants go to / (no open redirect)', async () => {
      const attempts = [
        '//evil.example',
        '//evil.example/path',
        'https://evil.example/',
        '/\\evil.example',
        '\\\\evil.example',
        '/\t/evil.example',
        '/\n/evil.example',
        '/\r\n/evil.example',
        ' //evil.example',
        'javascript:alert(1)',
      ];
      for (const next of attempts) {
        const user = await server.user();
        const browser = server.browser();
        const res = await browser.login(user.email, user.password, next);
        expect(res.status, `next=${JSON.stringify(next)}`).toBe(303);
        expect(target(res).origin, `next=${JSON.stringify(next)}`).toBe(server.url);
        expect(target(res).pathname, `next=${JSON.stringify(next)}`).toBe('/');
        // A logged-in visit to /login?next=... follows the same rule.
        const again = await browser.get(`/login?next=${encodeURIComponent(next)}`);
        expect(again.status).toBe(303);
        expect(target(again).origin, `next=${JSON.stringify(next)}`).toBe(server.url);
        expect(target(again).pathname).toBe('/');
        // And the login form never carries it.
        const fresh = await server.browser().get(`/login?next=${encodeURIComponent(next)}`);
        expect(formFields(fresh.body).next).toBe('/');
      }
    });

    it.skipIf(!available)('a same-site next keeps its path and query', async () => {
      const user = await server.user();
      const next = '/auth/oauth2/authorize?client_id=abc&scope=PROFILE_READ%20BOOKING_READ&state=x%2Fy';
      const res = await server.browser().login(user.email, user.password, next);
      expect(res.status).toBe(303);
      expect(res.location).toBe(next);
    });
  });

  describe('a sign-in address change asked for by an application', () => {
    let server: TestServer;
    let client: TestClient;
    beforeAll(async () => {
      if (!available) return;
      server = shared;
      client = await server.client(await server.user(), { name: 'Address Book Sync', scopes: ['PROFILE_READ', 'PROFILE_WRITE', 'VERIFIED_RESOURCES_READ', 'VERIFIED_RESOURCES_WRITE'] });
    });

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
});

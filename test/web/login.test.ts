// /login and /logout (docs/rules.md#surfaces, docs/rules.md#audit-events, docs/rules.md#security-checklist) through real HTTP on both storage backends.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.ts';
import { formFields, type Browser, type PageResponse } from '../helpers/browser.ts';
import { sessionCountOfUser } from '../helpers/rows.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { auditEvents, sessionOf } from '../helpers/stores.ts';

function visibleText(body: string): string {
  return body
    .replace(/<style[\s\S]*?<\/style>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

describe.each(backends)('login and logout on $name', ({ name, available }) => {
  let server: TestServer;
  beforeAll(async () => {
    if (available) server = await startTestServer(name);
  });
  afterAll(async () => server?.close());

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

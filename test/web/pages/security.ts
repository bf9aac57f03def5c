// The headers every page and every /v2 answer carries (docs/rules.md#security-headers, docs/rules.md#forms-and-pages): a
// Content-Security-Policy without inline script or style, frames refused, no-store on
// account data, Location headers percent-encoded whatever the input, error pages (500
// included) with the same headers; and what a page shows from the URL (notices by own key)
// or about an admin (docs/rules.md#private-records: "a platform administrator").
import { beforeAll, describe, expect, it } from 'vitest';
import { apiRoutes } from '../../../src/platform/route-table.ts';
import { reviewClient } from '../../../src/services/clients/review.ts';
import type { Backend } from '../../helpers/backends.ts';
import { formFields, Browser } from '../../helpers/browser.ts';
import { ADMIN_CLIENTS as ADMIN, DEVELOPER_CLIENTS as DEV, developerAndAdmin, loggedIn, open, textOf, visibleText } from '../../helpers/pages.ts';
import { withColumnGone, withTableMissing } from '../../helpers/rows.ts';
import type { TestClient, TestServer, TestUser } from '../../helpers/server.ts';

const AUTHORIZE = '/auth/oauth2/authorize';

/** The directives of a Content-Security-Policy header, by name. */
function directives(header: string | null): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of (header ?? '').split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) map.set(name.toLowerCase(), values);
  }
  return map;
}

/** docs/rules.md#security-headers: what every HTML page answers with, whatever its status. */
function expectPageHeaders(res: { headers: Headers; status: number }, what: string) {
  const csp = res.headers.get('content-security-policy');
  const d = directives(csp);
  expect(d.get('default-src'), `${what}: ${csp}`).toEqual(["'self'"]);
  expect(d.get('script-src'), `${what}: ${csp}`).toEqual(["'self'"]);
  expect(d.get('style-src'), `${what}: ${csp}`).toEqual(["'self'"]);
  expect(d.get('frame-ancestors'), what).toEqual(["'none'"]);
  expect(d.get('object-src'), what).toEqual(["'none'"]);
  expect(d.get('base-uri'), what).toEqual(["'none'"]);
  expect(d.get('form-action')?.[0], what).toBe("'self'");
  expect(csp, what).not.toMatch(/unsafe-inline|unsafe-eval|nonce-|\*/);
  expect(res.headers.get('x-frame-options'), what).toBe('DENY');
  expect(res.headers.get('x-content-type-options'), what).toBe('nosniff');
  expect(res.headers.get('cache-control'), what).toBe('no-store');
}

/** No inline script, style block or style attribute: everything comes from this origin's files. */
function expectNoInlineCode(body: string, what: string) {
  expect(body, what).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
  expect(body, what).not.toMatch(/<style\b/);
  expect(body, what).not.toMatch(/\sstyle=/);
  expect(body, what).not.toMatch(/\son[a-z]+=/);
  expect(body, what).toMatch(/<link rel="stylesheet" href="\/assets\/[^"]+\.css">/);
}

export function securityHeaders({ available }: Backend, shared: () => TestServer): void {
  describe('page and API security headers', () => {
    let server: TestServer;
    let dev: TestUser;
    let devBrowser: Browser;
    let admin: TestUser;
    let adminBrowser: Browser;
    let client: TestClient;

    beforeAll(async () => {
      if (!available) return;
      server = shared();
      ({ dev, devBrowser, admin, adminBrowser } = await developerAndAdmin(server));
      client = await server.client(dev, { state: 'pending' });
      await reviewClient(server.services, client.clientId, 'approve', admin.id);
    });

    const authorizeQuery = (c: TestClient, extra: Record<string, string> = {}) =>
      new URLSearchParams({ client_id: c.clientId, redirect_uri: c.redirectUri, response_type: 'code', scope: 'PROFILE_READ', state: 's', ...extra }).toString();

    it.skipIf(!available)("every page carries a Content-Security-Policy with default-src 'self' and no inline code, frames refused, and no-store (docs/rules.md#security-headers)", async () => {
      const { browser: userBrowser } = await loggedIn(server);
      const anonymous = server.browser();
      const pages: Array<[string, Browser, string]> = [
        ['start page (logged in)', userBrowser, '/'],
        ['start page (anonymous)', anonymous, '/'],
        ['login', anonymous, '/login'],
        ['logout', userBrowser, '/logout'],
        ['authorized apps', userBrowser, '/settings/authorized-apps'],
        ['developer client list', devBrowser, DEV],
        ['new client form', devBrowser, `${DEV}/new`],
        ['developer client page', devBrowser, `${DEV}/${client.clientId}`],
        ['edit client form', devBrowser, `${DEV}/${client.clientId}/edit`],
        ['admin client list', adminBrowser, ADMIN],
        ['admin review page', adminBrowser, `${ADMIN}/${client.clientId}`],
        ['consent page', userBrowser, `${AUTHORIZE}?${authorizeQuery(client)}`],
      ];
      for (const [what, browser, path] of pages) {
        const res = await open(browser, path);
        expectPageHeaders(res, what);
        expectNoInlineCode(res.body, what);
      }
      // Error pages are pages too.
      const notFound = await anonymous.get('/no-such-page');
      expect(notFound.status).toBe(404);
      expectPageHeaders(notFound, '404 page');
      const badRequest = await userBrowser.get(`${AUTHORIZE}?client_id=nobody`);
      expect(badRequest.status).toBe(400);
      expectPageHeaders(badRequest, 'authorization error page');
      const expired = await userBrowser.post('/logout', { _csrf: 'stale' });
      expect(expired.status).toBe(403);
      expectPageHeaders(expired, 'CSRF error page');
    });

    it.skipIf(!available)('serves the stylesheet and the copy script from this origin, cacheable, with the right types (docs/rules.md#security-headers)', async () => {
      const page = await open(devBrowser, DEV);
      const css = /<link rel="stylesheet" href="(\/assets\/[^"]+\.css)">/.exec(page.body)![1]!;
      const js = /<script src="(\/assets\/[^"]+\.js)"><\/script>/.exec(page.body)![1]!;
      const cssRes = await fetch(server.url + css);
      expect(cssRes.status).toBe(200);
      expect(cssRes.headers.get('content-type')).toBe('text/css; charset=utf-8');
      expect(cssRes.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(await cssRes.text()).toContain('.card {');
      const jsRes = await fetch(server.url + js);
      expect(jsRes.status).toBe(200);
      expect(jsRes.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      expect(jsRes.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(await jsRes.text()).toContain('data-copy');
      // A name that is not one of the current files is not found, not guessed.
      expect((await fetch(`${server.url}/assets/app.0000000000.css`)).status).toBe(404);
    });

    it.skipIf(!available)("the authorization page sends no Referer and lets its form reach the client's redirect URI origin only (docs/rules.md#security-headers)", async () => {
      const { browser } = await loggedIn(server);
      const consent = await open(browser, `${AUTHORIZE}?${authorizeQuery(client)}`);
      expect(consent.headers.get('referrer-policy')).toBe('no-referrer');
      expect(directives(consent.headers.get('content-security-policy')).get('form-action')).toEqual(["'self'", 'https://app.example.com']);
      // CSP has no source for an IPv6 literal: a [::1] loopback redirect URI is allowed by its scheme.
      const ipv6 = await server.client(dev, { redirectUris: ['http://[::1]:3000/cb'] });
      const ipv6Consent = await open(browser, `${AUTHORIZE}?${authorizeQuery(ipv6)}`);
      expect(directives(ipv6Consent.headers.get('content-security-policy')).get('form-action')).toEqual(["'self'", 'http:']);
      // Other pages keep form-action to this site, and send Referer only to this site.
      const login = await server.browser().get('/login');
      expect(directives(login.headers.get('content-security-policy')).get('form-action')).toEqual(["'self'"]);
      expect(login.headers.get('referrer-policy')).toBe('same-origin');
    });

    it.skipIf(!available)("the login page on the way to an authorization lets its form's redirects reach that client's redirect URI origin, no other (docs/rules.md#security-headers)", async () => {
      const next = `${AUTHORIZE}?${authorizeQuery(client)}`;
      const login = await server.browser().get(`/login?next=${encodeURIComponent(next)}`);
      expect(login.status).toBe(200);
      expect(directives(login.headers.get('content-security-policy')).get('form-action')).toEqual(["'self'", 'https://app.example.com']);
      // A redirect URI the client did not register adds nothing.
      const forged = `${AUTHORIZE}?${authorizeQuery(client, { redirect_uri: 'https://evil.example/cb' })}`;
      const other = await server.browser().get(`/login?next=${encodeURIComponent(forged)}`);
      expect(directives(other.headers.get('content-security-policy')).get('form-action')).toEqual(["'self'"]);
      // A failed login shows the form again, with the same allowance.
      const user = await server.user();
      const browser = server.browser();
      const form = await browser.get(`/login?next=${encodeURIComponent(next)}`);
      const failed = await browser.post('/login', { ...formFields(form.body), email: user.email, password: 'wrong' });
      expect(failed.status).toBe(401);
      expect(directives(failed.headers.get('content-security-policy')).get('form-action')).toEqual(["'self'", 'https://app.example.com']);
    });

    it.skipIf(!available)('every /v2 answer with account data carries Cache-Control: no-store, success or error (docs/rules.md#forms-and-pages)', async () => {
      const user = await server.user();
      const code = await server.code(client, user, { scope: 'PROFILE_READ PROFILE_WRITE' });
      const access = (await server.exchange(client, code)).body.access_token as string;
      const me = await server.api('GET', '/v2/me', access);
      expect(me.status).toBe(200);
      expect(me.headers.get('cache-control')).toBe('no-store');
      const unknown = await server.api('GET', '/v2/no-such-thing', access);
      expect(unknown.status).toBe(404);
      expect(unknown.headers.get('cache-control')).toBe('no-store');
      const invalid = await server.api('PATCH', '/v2/me', access, { timeFormat: 13 });
      expect(invalid.status).toBe(400);
      expect(invalid.headers.get('cache-control')).toBe('no-store');
      for (const r of apiRoutes) {
        const path = r.path.replace(/:(\w+)/g, 'unusedId');
        const res = await server.api(r.method, path);
        expect(res.headers.get('cache-control'), `${r.method} ${r.path} → ${res.status}`).toBe('no-store');
      }
    });

    it.skipIf(!available)("the API reference keeps its own policy on /v2/docs only; the rest of /v2 keeps the pages' policy (docs/rules.md#security-headers)", async () => {
      const docs = await fetch(`${server.url}/v2/docs`);
      expect(docs.status).toBe(200);
      const docsCsp = directives(docs.headers.get('content-security-policy'));
      expect(docsCsp.get('default-src')).toEqual(["'self'"]);
      expect(docsCsp.get('script-src')).toEqual(["'self'"]);
      // Swagger UI injects <style> elements and draws icons from data: URLs.
      expect(docsCsp.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
      expect(docsCsp.get('img-src')).toEqual(["'self'", 'data:']);
      expect(docsCsp.get('frame-ancestors')).toEqual(["'none'"]);
      expect(docs.headers.get('x-frame-options')).toBe('DENY');
      const me = await fetch(`${server.url}/v2/me`);
      expect(me.headers.get('content-security-policy')).not.toMatch(/unsafe-inline/);
      expect(directives(me.headers.get('content-security-policy')).get('default-src')).toEqual(["'self'"]);
    });

    it.skipIf(!available)('percent-encodes the Location of a redirect after login, whatever next holds: never a 500, never a raw byte (docs/rules.md#security-headers)', async () => {
      const { browser } = await loggedIn(server);
      const ideographic = await browser.get('/login?next=/%E3%80%82');
      expect(ideographic.status).toBe(303);
      expect(ideographic.location).toBe('/%E3%80%82');
      const accented = await browser.get('/login?next=/%C3%A9?q=%C3%A9');
      expect(accented.status).toBe(303);
      expect(accented.location).toBe('/%C3%A9?q=%C3%A9');
      // Escapes that are already there stay as they are; a stray % is escaped itself.
      const mixed = await browser.get(`/login?next=${encodeURIComponent('/a%20b%zz"<>\u{1F600}')}`);
      expect(mixed.location).toBe('/a%20b%25zz%22%3C%3E%F0%9F%98%80');

      const user = await server.user();
      const anonymous = server.browser();
      const form = await anonymous.get('/login?next=/%E3%80%82');
      expect(form.status).toBe(200);
      const loggedInNow = await anonymous.post('/login', { ...formFields(form.body), email: user.email, password: user.password });
      expect(loggedInNow.status).toBe(303);
      expect(loggedInNow.location).toBe('/%E3%80%82');
    });

    it.skipIf(!available)('a page that fails answers the HTML error page with the same headers, never JSON (docs/rules.md#security-headers)', async () => {
      const { browser } = await loggedIn(server);
      // A column of the sessions table disappears: every page with a session cookie fails, a fault.
      const res = await withColumnGone(server.db, 'sessions', 'user_id', () => browser.get('/settings/authorized-apps'));
      expect(res.status).toBe(500);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(visibleText(res.body)).toMatch(/Something went wrong/);
      expect(res.body).not.toMatch(/internal_error|statusCode|sessions|user_id/);
      expectPageHeaders(res, '500 page');
    });

    it.skipIf(!available)('a page whose table is away (a restore under a running server) answers the 503 page with Retry-After and the same headers (docs/operating.md#when-things-fail)', async () => {
      const { browser } = await loggedIn(server);
      const res = await withTableMissing(server.db, 'sessions', () => browser.get('/settings/authorized-apps'));
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(visibleText(res.body)).toMatch(/Temporarily unavailable/);
      expect(res.body).not.toMatch(/sessions|relation|no such table/);
      expectPageHeaders(res, '503 page');
    });

    it.skipIf(!available)('a malformed address answers a 400 page (or the /v2 envelope) with the same headers, never a bare JSON error (docs/rules.md#security-headers)', async () => {
      const page = await server.browser().get('/settings/%zz');
      expect(page.status).toBe(400);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(visibleText(page.body)).toMatch(/This address is not valid/);
      expect(page.body).not.toMatch(/FST_ERR/);
      expectPageHeaders(page, 'bad URL page');
      const tooLong = await server.browser().get(`${DEV}/${'a'.repeat(6001)}`);
      expect(tooLong.status).toBe(414);
      expect(visibleText(tooLong.body)).toMatch(/longer than 6000 characters/);
      expectPageHeaders(tooLong, 'over-long address page');
      const api = await server.api('GET', '/v2/me%zz');
      expect(api.status).toBe(400);
      expect(api.body).toEqual({ status: 'error', timestamp: expect.any(String), path: expect.any(String), error: { code: 'bad_request', message: expect.stringMatching(/percent-encoding/) } });
      expect(api.headers.get('cache-control')).toBe('no-store');
      // A well-formed escape that is not UTF-8 is named as such, not as a stray %.
      const notUtf8 = await server.browser().get('/admin/oauth-clients/%ff');
      expect(notUtf8.status).toBe(400);
      expect(visibleText(notUtf8.body)).toMatch(/the escapes must spell UTF-8 text/);
      expect(api.headers.get('x-frame-options')).toBe('DENY');
    });

    it.skipIf(!available)('a notice is looked up by its own key only: ?done=constructor shows nothing (docs/rules.md#forms-and-pages)', async () => {
      for (const done of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf']) {
        const devPage = await open(devBrowser, `${DEV}/${client.clientId}?done=${done}`);
        expect(textOf(devPage.body, 'flash'), done).toBeNull();
        expect(devPage.body, done).not.toMatch(/native code|\[object/);
        const adminPage = await open(adminBrowser, `${ADMIN}/${client.clientId}?done=${done}`);
        expect(textOf(adminPage.body, 'flash'), done).toBeNull();
        expect(adminPage.body, done).not.toMatch(/native code|\[object/);
      }
      // A real notice still shows.
      expect(textOf((await open(devBrowser, `${DEV}/${client.clientId}?done=saved`)).body, 'flash')).toBe('Your changes are saved.');
    });

    it.skipIf(!available)('developers see an admin as "a platform administrator", never by e-mail; admins still see who it was (docs/rules.md#private-records)', async () => {
      const devPage = await open(devBrowser, `${DEV}/${client.clientId}`);
      const approved = /<tr data-event="client\.approved">[\s\S]*?<\/tr>/.exec(devPage.body)![0];
      expect(visibleText(approved)).toMatch(/Approved by an admin client\.approved a platform administrator/);
      expect(devPage.body).not.toContain(admin.email);
      expect(devPage.body).not.toContain('Ada Admin');
      // Another admin sees who it was.
      const { browser: otherAdmin } = await loggedIn(server, { admin: true, name: 'Otto Admin' });
      const adminPage = await open(otherAdmin, `${ADMIN}/${client.clientId}`);
      expect(visibleText(adminPage.body)).toContain(`Approved by an admin client.approved Ada Admin (${admin.email}), admin`);
    });
  });
}

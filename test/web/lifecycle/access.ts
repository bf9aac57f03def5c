// Who may see which lifecycle page: anonymous visitors are sent to
// the login page, only a client's owner sees its developer pages (others get the same 404
// as for a client that does not exist), and only admins reach /admin.
import { beforeAll, describe, expect, it } from 'vitest';
import { listAuthorizedApps } from '../../../src/services/clients/authorized-apps.ts';
import { requireClient } from '../../../src/services/clients/view.ts';
import type { Backend } from '../../helpers/backends.ts';
import { formFields } from '../../helpers/browser.ts';
import { ADMIN_CLIENTS as ADMIN, csrfOf, DEVELOPER_CLIENTS as DEV, loggedIn, open, postForm, visibleText } from '../../helpers/pages.ts';
import type { TestServer, TestUser } from '../../helpers/server.ts';

export function pageAccess({ available }: Backend, shared: () => TestServer): void {
  describe('lifecycle page access', () => {
    let server: TestServer;
    let owner: TestUser;
    beforeAll(async () => {
      if (!available) return;
      server = shared();
      owner = await server.user();
    });

    it.skipIf(!available)('an anonymous visitor is sent to log in and comes back to the page (docs/rules.md#surfaces)', async () => {
      const client = await server.client(owner);
      const browser = server.browser();
      for (const path of [DEV, `${DEV}/new`, `${DEV}/${client.clientId}`, ADMIN, `${ADMIN}/${client.clientId}`, '/settings/authorized-apps']) {
        const res = await browser.get(path);
        expect(res.status, path).toBe(303);
        const login = new URL(res.location!, server.url);
        expect(login.pathname).toBe('/login');
        expect(login.searchParams.get('next')).toBe(path);
      }
    });

    it.skipIf(!available)('an anonymous form post with a garbage Referer goes to log in, not to an error (docs/rules.md#bad-input)', async () => {
      const browser = server.browser();
      const { _csrf } = formFields((await browser.get('/login')).body);
      const res = await fetch(`${server.url}${DEV}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie: browser.cookieHeader(), 'content-type': 'application/x-www-form-urlencoded', referer: 'http://[' },
        body: new URLSearchParams({ _csrf: _csrf!, name: 'x' }).toString(),
      });
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe('/login?next=%2F');
    });

    it.skipIf(!available)('a user who is not an admin gets 403 on every admin page and cannot decide anything (docs/rules.md#client-states)', async () => {
      const client = await server.client(owner, { state: 'pending' });
      const { browser } = await loggedIn(server);
      for (const path of [ADMIN, `${ADMIN}/${client.clientId}`]) {
        const res = await browser.get(path);
        expect(res.status, path).toBe(403);
        expect(visibleText(res.body)).toMatch(/Admins only.*Your account is not an admin account/);
      }
      const csrf = csrfOf((await open(browser, DEV + '/new')).body);
      const res = await postForm(browser, `${ADMIN}/${client.clientId}/review`, { _csrf: csrf, decision: 'approve' });
      expect(res.status).toBe(403);
      expect((await requireClient(server.services, client.clientId)).state).toBe('pending');
      // The owner is no admin either: owning a client does not let one approve it.
      const ownerBrowser = (await loggedInAs(owner)).browser;
      expect((await ownerBrowser.get(`${ADMIN}/${client.clientId}`)).status).toBe(403);
    });

    async function loggedInAs(user: TestUser) {
      const browser = server.browser();
      expect((await browser.login(user.email, user.password)).status).toBe(303);
      return { user, browser };
    }

    it.skipIf(!available)('an admin reaches the queue, and the navigation offers it only to admins', async () => {
      const client = await server.client(owner, { state: 'pending', name: 'Queue Me' });
      const { browser } = await loggedIn(server, { admin: true });
      const queue = await open(browser, ADMIN);
      expect(visibleText(queue.body)).toContain('Queue Me');
      expect(queue.body).toContain(`href="${ADMIN}/${client.clientId}"`);
      expect(visibleText(queue.body)).toContain('Client review');
      const { browser: plain } = await loggedIn(server);
      expect((await open(plain, DEV)).body).not.toContain(`href="${ADMIN}"`);
    });

    it.skipIf(!available)('another user gets 404 on every page of a client they do not own, the same as for no client, and changes nothing', async () => {
      const client = await server.client(owner, { name: 'Mine Only' });
      const before = await requireClient(server.services, client.clientId);
      const secretId = before.secrets[0]!.id;
      const { browser } = await loggedIn(server);
      const missing = await browser.get(`${DEV}/no-such-client`);
      expect(missing.status).toBe(404);
      const pages = ['', '/edit', '/migrate', `/secrets/${secretId}/remove`];
      for (const suffix of pages) {
        const res = await browser.get(`${DEV}/${client.clientId}${suffix}`);
        expect(res.status, suffix).toBe(404);
        expect(visibleText(res.body)).toBe(visibleText(missing.body));
        expect(res.body).not.toContain('Mine Only');
      }
      const csrf = csrfOf((await open(browser, `${DEV}/new`)).body);
      const posts: Array<[string, Record<string, string>]> = [
        ['/edit', { name: 'Taken over', redirect_uris: client.redirectUri, scopes: 'PROFILE_READ' }],
        ['/secrets', {}],
        [`/secrets/${secretId}/remove`, {}],
        ['/migrate', { scopes: 'PROFILE_READ' }],
      ];
      for (const [suffix, fields] of posts) {
        const res = await postForm(browser, `${DEV}/${client.clientId}${suffix}`, { _csrf: csrf, ...fields });
        expect(res.status, suffix).toBe(404);
      }
      const after = await requireClient(server.services, client.clientId);
      expect(after.name).toBe('Mine Only');
      expect(after.secrets).toEqual(before.secrets);
      // Nor does the client appear in the other user's list.
      expect((await open(browser, DEV)).body).not.toContain('Mine Only');
    });

    it.skipIf(!available)('an admin who does not own a client gets 404 on its developer pages too: review happens in /admin', async () => {
      const client = await server.client(owner);
      const { browser } = await loggedIn(server, { admin: true });
      expect((await browser.get(`${DEV}/${client.clientId}`)).status).toBe(404);
      expect((await browser.get(`${ADMIN}/${client.clientId}`)).status).toBe(200);
    });

    it.skipIf(!available)('revoking a grant that is another user\'s is 404 and revokes nobody else\'s grant (docs/rules.md#consent)', async () => {
      const client = await server.client(owner);
      const other = await server.user();
      const code = await server.code(client, other);
      const tokens = await server.exchange(client, code);
      const { browser } = await loggedIn(server);
      const apps = await open(browser, '/settings/authorized-apps');
      expect(visibleText(apps.body)).toContain('You have not authorized any application.');
      const csrf = csrfOf((await open(browser, `${DEV}/new`)).body);
      const [theirs] = await listAuthorizedApps(server.services, other.id);
      const res = await postForm(browser, `/settings/authorized-apps/grants/${theirs!.grantId}/revoke`, { _csrf: csrf });
      expect(res.status).toBe(404);
      expect(visibleText(res.body)).toMatch(/you have not authorized this application/i);
      expect((await server.api('GET', '/v2/me', tokens.body.access_token as string)).status).toBe(200);
    });
  });
}

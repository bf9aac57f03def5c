// Admin client operations (docs/rules.md#cli, docs/rules.md#introspection): on /admin/oauth-clients/:id an admin
// rotates a client's secrets with the developer's rules and messages, and marks a client as
// a resource server that may introspect any token. Admin-only, CSRF-protected, audited
// with the admin's identity.
import { beforeAll, describe, expect, it } from 'vitest';
import { requireClient } from '../../../src/services/clients/view.ts';
import type { Backend } from '../../helpers/backends.ts';
import type { Browser, PageResponse } from '../../helpers/browser.ts';
import { ADMIN_CLIENTS as ADMIN, csrfOf, DEVELOPER_CLIENTS as DEV, developerAndAdmin, formAt, open, postForm, textOf, visibleText } from '../../helpers/pages.ts';
import type { TestClient, TestServer, TestUser } from '../../helpers/server.ts';


function shownSecret(res: PageResponse): string {
  const secret = /id="new-secret-value" type="text" readonly value="(gcs_[^"]+)"/.exec(res.body)?.[1];
  if (!secret) throw new Error(`no new secret on the page: ${visibleText(res.body).slice(0, 400)}`);
  return secret;
}

export function adminClientOperations({ available }: Backend, shared: () => TestServer): void {
  describe('admin client operations', () => {
    let server: TestServer;
    let dev: TestUser;
    let devBrowser: Browser;
    let admin: TestUser;
    let adminBrowser: Browser;
    let user: TestUser;
    beforeAll(async () => {
      if (!available) return;
      server = shared();
      ({ dev, devBrowser, admin, adminBrowser } = await developerAndAdmin(server));
      user = await server.user();
    });

    /** A valid token of the developer's (non-admin) session. */
    async function devCsrf() {
      return csrfOf((await open(devBrowser, `${DEV}/new`)).body);
    }

    async function adminCsrf(client: TestClient) {
      return csrfOf((await open(adminBrowser, `${ADMIN}/${client.clientId}`)).body);
    }

    async function introspect(caller: TestClient, token: string) {
      const res = await server.post(
        '/v2/auth/oauth2/introspect',
        new URLSearchParams({ token, client_id: caller.clientId, client_secret: caller.secret! }).toString(),
        { 'content-type': 'application/x-www-form-urlencoded' },
      );
      expect(res.status).toBe(200);
      return res.body!;
    }

    it.skipIf(!available)('an admin adds a second secret (shown once), a third is refused, removes one (it stops at once), the last is refused; audited as the admin', async () => {
      const client = await server.client(dev);
      const firstId = (await requireClient(server.services, client.clientId)).secrets[0]!.id;

      const page = await open(adminBrowser, `${ADMIN}/${client.clientId}`);
      expect(textOf(page.body, 'secrets')).toContain(`…${client.secret!.slice(-4)}`);
      expect(textOf(page.body, 'last-secret-note')).toMatch(/This is the only secret, so it cannot be removed/);

      const posted = await postForm(adminBrowser, `${ADMIN}/${client.clientId}/secrets`, formAt(page.body, `${ADMIN}/${client.clientId}/secrets`));
      expect(posted.status).toBe(303);
      const added = await adminBrowser.follow(posted);
      expect(added.status).toBe(200);
      expect(added.headers.get('cache-control')).toBe('no-store');
      const second = shownSecret(added);
      expect(textOf(added.body, 'new-secret')).toMatch(/Copy it now: it will not be shown again/);
      // Shown once: afterwards only its last four characters.
      const after = await open(adminBrowser, `${ADMIN}/${client.clientId}`);
      expect(after.body).not.toContain(second);
      expect(textOf(after.body, 'secrets')).toContain(`…${second.slice(-4)}`);
      expect(textOf(after.body, 'secret-limit-note')).toMatch(/A client can hold at most 2 active secrets/);

      // Both secrets work at the token endpoint.
      const switched = { ...client, secret: second };
      expect((await server.exchange(switched, await server.code(client, user))).status).toBe(200);
      expect((await server.exchange(client, await server.code(client, user))).status).toBe(200);

      // A third is refused with the developer page's message (the page offers no form for it: a request naming the two it shows).
      const shown = (await requireClient(server.services, client.clientId)).secrets.map((s) => s.id).join(' ');
      const refusal = await postForm(adminBrowser, `${ADMIN}/${client.clientId}/secrets`, { _csrf: csrfOf(after.body), shown_secrets: shown });
      expect(refusal.status).toBe(303);
      const third = await adminBrowser.follow(refusal);
      expect(textOf(third.body, 'secret-error')).toBe('A client may hold at most 2 active secrets: remove one before adding another.');
      expect(third.body).not.toContain('new-secret-value');
      expect((await requireClient(server.services, client.clientId)).secrets).toHaveLength(2);

      // Removal has a confirmation step, then takes effect at once.
      const confirm = await open(adminBrowser, `${ADMIN}/${client.clientId}/secrets/${firstId}/remove`);
      expect(visibleText(confirm.body)).toMatch(/Remove the secret ending in \w{4}\? .*Removal takes effect at once/);
      const removed = await postForm(adminBrowser, `${ADMIN}/${client.clientId}/secrets/${firstId}/remove`, { _csrf: csrfOf(confirm.body) });
      expect(removed.status).toBe(303);
      const back = await adminBrowser.follow(removed);
      expect(textOf(back.body, 'flash')).toMatch(/The secret was removed and stopped working at once/);
      const refused = await server.exchange(client, await server.code(client, user));
      expect(refused.status).toBe(401);
      expect(refused.body.error).toBe('invalid_client');
      expect((await server.exchange(switched, await server.code(client, user))).status).toBe(200);

      // The last one stays.
      const secondId = (await requireClient(server.services, client.clientId)).secrets[0]!.id;
      const lastConfirm = await open(adminBrowser, `${ADMIN}/${client.clientId}/secrets/${secondId}/remove`);
      expect(textOf(lastConfirm.body, 'secret-error')).toMatch(/This is the last active secret, so it cannot be removed/);
      expect(lastConfirm.body).not.toContain('<button type="submit" class="danger">');
      const lastRefusal = await postForm(adminBrowser, `${ADMIN}/${client.clientId}/secrets/${secondId}/remove`, { _csrf: await adminCsrf(client) });
      expect(lastRefusal.status).toBe(303);
      const last = await adminBrowser.follow(lastRefusal);
      expect(textOf(last.body, 'secret-error')).toMatch(/This is the last active secret: a confidential client always keeps one/);
      expect((await server.exchange(switched, await server.code(client, user))).status).toBe(200);

      const events = await server.services.stores.auditLog.list({ clientId: client.clientId });
      expect(events.filter((e) => e.type === 'secret.created' && e.actorId === admin.id)).toHaveLength(1);
      expect(events.filter((e) => e.type === 'secret.removed')).toEqual([expect.objectContaining({ actorId: admin.id, data: { secretId: firstId, lastFour: client.secret!.slice(-4) } })]);
      expect(JSON.stringify(events)).not.toContain(second);
    });

    it.skipIf(!available)('a non-admin gets 403 on every admin operation and nothing changes', async () => {
      const client = await server.client(dev);
      const withOne = await open(adminBrowser, `${ADMIN}/${client.clientId}`);
      await postForm(adminBrowser, `${ADMIN}/${client.clientId}/secrets`, formAt(withOne.body, `${ADMIN}/${client.clientId}/secrets`));
      const before = await requireClient(server.services, client.clientId);
      expect(before.secrets).toHaveLength(2);
      const auditBefore = (await server.services.stores.auditLog.list({ clientId: client.clientId })).length;

      const posts: [string, Record<string, string>][] = [
        [`${ADMIN}/${client.clientId}/secrets`, {}],
        [`${ADMIN}/${client.clientId}/secrets/${before.secrets[0]!.id}/remove`, {}],
        [`${ADMIN}/${client.clientId}/resource-server`, { resource_server: 'on' }],
      ];
      for (const [action, fields] of posts) {
        const res = await postForm(devBrowser, action, { _csrf: await devCsrf(), ...fields });
        expect(res.status, action).toBe(403);
        expect(visibleText(res.body)).toContain('Admins only');
        expect(res.body).not.toContain('new-secret-value');
      }
      expect((await devBrowser.get(`${ADMIN}/${client.clientId}/secrets/${before.secrets[0]!.id}/remove`)).status).toBe(403);

      const afterwards = await requireClient(server.services, client.clientId);
      expect(afterwards.secrets.map((s) => s.id)).toEqual(before.secrets.map((s) => s.id));
      expect((await server.services.stores.auditLog.list({ clientId: client.clientId })).length).toBe(auditBefore);
      const page = await open(adminBrowser, `${ADMIN}/${client.clientId}`);
      expect(textOf(page.body, 'resource-server-state')).toMatch(/Not a resource server/);
    });

    it.skipIf(!available)('forms without a valid CSRF token change nothing', async () => {
      const client = await server.client(dev);
      const res = await postForm(adminBrowser, `${ADMIN}/${client.clientId}/resource-server`, { _csrf: 'stale', resource_server: 'on' });
      expect(res.status).toBe(403);
      expect(visibleText(res.body)).toContain('This form has expired');
      const add = await postForm(adminBrowser, `${ADMIN}/${client.clientId}/secrets`, { _csrf: 'stale' });
      expect(add.status).toBe(403);
      expect((await requireClient(server.services, client.clientId)).secrets).toHaveLength(1);
      const page = await open(adminBrowser, `${ADMIN}/${client.clientId}`);
      expect(textOf(page.body, 'resource-server-state')).toMatch(/Not a resource server/);
    });

    it.skipIf(!available)('the resource-server mark lets the client introspect another client’s token; removing it makes that inactive; audited as the admin', async () => {
      const rs = await server.client(dev, { name: 'Booking API' });
      const other = await server.client(dev, { name: 'Other App' });
      const issued = await server.exchange(other, await server.code(other, user));
      expect(issued.status).toBe(200);
      const token = issued.body.access_token as string;

      expect(await introspect(rs, token)).toEqual({ active: false });
      expect((await introspect(other, token)).active).toBe(true);

      const page = await open(adminBrowser, `${ADMIN}/${rs.clientId}`);
      expect(textOf(page.body, 'resource-server-state')).toMatch(/Not a resource server/);
      const on = await postForm(adminBrowser, `${ADMIN}/${rs.clientId}/resource-server`, { _csrf: csrfOf(page.body), resource_server: 'on' });
      expect(on.status).toBe(303);
      const marked = await adminBrowser.follow(on);
      expect(textOf(marked.body, 'flash')).toMatch(/Marked as a resource server/);
      expect(textOf(marked.body, 'resource-server-state')).toMatch(/Marked as a resource server: this client may introspect any client’s tokens/);

      const seen = await introspect(rs, token);
      expect(seen).toMatchObject({ active: true, client_id: other.clientId });

      const off = await postForm(adminBrowser, `${ADMIN}/${rs.clientId}/resource-server`, { _csrf: csrfOf(marked.body), resource_server: 'off' });
      expect(off.status).toBe(303);
      const unmarked = await adminBrowser.follow(off);
      expect(textOf(unmarked.body, 'resource-server-state')).toMatch(/Not a resource server/);
      expect(await introspect(rs, token)).toEqual({ active: false });

      // A garbled form is a page message, not a 500.
      const bad = await postForm(adminBrowser, `${ADMIN}/${rs.clientId}/resource-server`, { _csrf: csrfOf(unmarked.body), resource_server: 'maybe' });
      expect(bad.status).toBe(400);
      expect(textOf(bad.body, 'resource-server-error')).toMatch(/Choose whether the client is a resource server/);

      // Newest first.
      const events = (await server.services.stores.auditLog.list({ clientId: rs.clientId })).filter((e) => e.type === 'client.resource_server_changed');
      expect(events).toEqual([
        expect.objectContaining({ actorId: admin.id, data: { resourceServer: false } }),
        expect.objectContaining({ actorId: admin.id, data: { resourceServer: true } }),
      ]);
    });

    it.skipIf(!available)('an unknown client or secret is a 404 page, not a 500', async () => {
      const client = await server.client(dev);
      const csrf = await adminCsrf(client);
      expect((await postForm(adminBrowser, `${ADMIN}/no-such-client/secrets`, { _csrf: csrf })).status).toBe(404);
      expect((await postForm(adminBrowser, `${ADMIN}/no-such-client/resource-server`, { _csrf: csrf, resource_server: 'on' })).status).toBe(404);
      expect((await postForm(adminBrowser, `${ADMIN}/${client.clientId}/secrets/nope/remove`, { _csrf: csrf })).status).toBe(404);
      expect((await adminBrowser.get(`${ADMIN}/${client.clientId}/secrets/nope/remove`)).status).toBe(404);
    });
  });
}

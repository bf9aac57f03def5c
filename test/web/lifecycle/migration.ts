// Legacy migration in the developer settings (docs/rules.md#legacy-clients):
// the page explains legacy, counts the last 30 days' requests
// without scope, asks for confirmation when there were any, and migrates in place.
import { beforeAll, describe, expect, it } from 'vitest';
import { requireClient } from '../../../src/services/clients/view.ts';
import type { Backend } from '../../helpers/backends.ts';
import type { Browser } from '../../helpers/browser.ts';
import { browserFor, csrfOf, DEVELOPER_CLIENTS as DEV, fieldError, loggedIn, open, postForm, textOf, visibleText } from '../../helpers/pages.ts';
import type { TestClient, TestServer, TestUser } from '../../helpers/server.ts';

export function legacyMigrationPages({ available }: Backend, shared: () => TestServer): void {
  describe('legacy migration pages', () => {
    let server: TestServer;
    let dev: TestUser;
    let devBrowser: Browser;
    beforeAll(async () => {
      if (!available) return;
      server = shared();
      dev = await server.user();
      devBrowser = await browserFor(server, dev);
    });

    /** A user walks the authorization page of the legacy client with or without scope. */
    async function visit(client: TestClient, browser: Browser, scope?: string) {
      const query = new URLSearchParams({ client_id: client.clientId, redirect_uri: client.redirectUri, response_type: 'code', state: 's', ...(scope ? { scope } : {}) });
      return browser.get(`/auth/oauth2/authorize?${query}`);
    }

    async function migrate(client: TestClient, fields: Record<string, string | string[]>) {
      const page = await open(devBrowser, `${DEV}/${client.clientId}/migrate`);
      return postForm(devBrowser, `${DEV}/${client.clientId}/migrate`, { _csrf: csrfOf(page.body), ...fields });
    }

    it.skipIf(!available)('the client page explains what legacy means and counts the requests without scope of the last 30 days only', async () => {
      const client = await server.client(dev, { scopes: null });
      const { user, browser } = await loggedIn(server);
      await visit(client, browser); // 31 days old by the time the page is read: not counted
      server.advance(31 * 24 * 3600);
      // Sessions have expired meanwhile: both log in again.
      devBrowser = await browserFor(server, dev);
      const again = await browserFor(server, user);
      await visit(client, again);
      await visit(client, again, 'PROFILE_READ'); // carries scope: not counted
      const page = await open(devBrowser, `${DEV}/${client.clientId}`);
      expect(textOf(page.body, 'legacy')).toMatch(/registered before scopes existed\. Its tokens are not limited by scope: they reach everything in the account/);
      expect(textOf(page.body, 'legacy')).toMatch(/the same client ID and secrets/);
      expect(textOf(page.body, 'scopeless-count')).toBe('1 of its authorization requests in the last 30 days had no scope parameter. Update the authorization URL to carry scope before migrating.');
    });

    it.skipIf(!available)('with requests without scope, migrating needs confirmation: refused beside the checkbox, nothing changes, then confirmed (docs/rules.md#legacy-clients)', async () => {
      const client = await server.client(dev, { scopes: null });
      const { user, browser } = await loggedIn(server);
      // A legacy authorization whose tokens must outlive the migration (docs/rules.md#legacy-clients).
      const legacyCode = new URL((await server.authorize(browser, { client_id: client.clientId, redirect_uri: client.redirectUri, response_type: 'code', state: 's' })).href).searchParams.get('code')!;
      const legacyTokens = await server.exchange(client, legacyCode);
      expect(legacyTokens.body.scope).toBe('');
      await visit(client, browser);

      const form = await open(devBrowser, `${DEV}/${client.clientId}/migrate`);
      expect(textOf(form.body, 'scopeless-count')).toMatch(/^2 authorization requests of this client in the last 30 days had no scope\. After the migration such requests fail/);
      expect(visibleText(form.body)).toContain('I understand that 2 recent requests without scope would now fail, and I want to migrate.');

      const unconfirmed = await migrate(client, { scopes: ['PROFILE_READ', 'BOOKING_READ'] });
      expect(unconfirmed.status).toBe(409);
      expect(fieldError(unconfirmed.body, 'confirm')).toMatch(/^2 authorization requests of this client in the last 30 days came without scope; after the migration such requests fail\. Make the authorization URL carry scope first, then confirm the migration\.$/);
      // What was chosen stays chosen.
      expect(unconfirmed.body).toMatch(/id="scope-BOOKING_READ" name="scopes" value="BOOKING_READ" checked/);
      expect((await requireClient(server.services, client.clientId)).legacy).toBe(true);

      const confirmed = await migrate(client, { scopes: ['PROFILE_READ', 'BOOKING_READ'], confirm: 'yes' });
      expect(confirmed.status).toBe(303);
      expect(confirmed.location).toBe(`${DEV}/${client.clientId}?done=migrated`);
      const page = await devBrowser.follow(confirmed);
      expect(textOf(page.body, 'flash')).toMatch(/Migrated: the client now has scopes/);
      expect(textOf(page.body, 'client-id')).toBe(client.clientId);
      expect(textOf(page.body, 'legacy')).toBeNull();
      expect(textOf(page.body, 'scopes')).toMatch(/List bookings; .*Read the authorized user's profile\./);

      // In place: same id and secret; now scope is required (RFC 6749 §3.3: invalid_scope without it).
      const noScope = await visit(client, browser);
      expect(new URL(noScope.location!).searchParams.get('error')).toBe('invalid_scope');
      // Tokens of the legacy grant keep working until this user authorizes again.
      expect((await server.api('GET', '/v2/me', legacyTokens.body.access_token as string)).status).toBe(200);
      const legacyRefresh = await server.token({ grant_type: 'refresh_token', refresh_token: legacyTokens.body.refresh_token as string, client_id: client.clientId, client_secret: client.secret! });
      expect(legacyRefresh.status).toBe(200);
      expect(legacyRefresh.body.scope).toBe('');
      const fresh = await server.exchange(client, await server.code(client, user, { scope: 'PROFILE_READ' }));
      expect(fresh.status).toBe(200);
      expect(fresh.body.scope).toBe('PROFILE_READ');
      expect((await server.api('GET', '/v2/me', legacyRefresh.body.access_token as string)).status).toBe(401);

      const events = await server.services.stores.auditLog.list({ clientId: client.clientId });
      expect(events.find((e) => e.type === 'client.migrated')).toMatchObject({ actorId: dev.id, data: { scopes: 'BOOKING_READ PROFILE_READ', scopelessRequests: 2 } });
    });

    it.skipIf(!available)('without requests lacking scope, the migration needs no confirmation', async () => {
      const client = await server.client(dev, { scopes: null });
      const form = await open(devBrowser, `${DEV}/${client.clientId}/migrate`);
      expect(textOf(form.body, 'scopeless-count')).toMatch(/^0 authorization requests .* Nothing suggests that old links are still in use\.$/);
      expect(form.body).not.toContain('name="confirm"');
      const res = await migrate(client, { scopes: 'PROFILE_READ' });
      expect(res.status).toBe(303);
      expect((await requireClient(server.services, client.clientId)).scopes).toEqual(['PROFILE_READ']);
      // A migrated client has no migration page any more.
      const again = await devBrowser.get(`${DEV}/${client.clientId}/migrate`);
      expect(again.status).toBe(303);
      expect(again.location).toBe(`${DEV}/${client.clientId}`);
    });

    it.skipIf(!available)('choosing no scope or an unknown one is refused beside the scopes', async () => {
      const client = await server.client(dev, { scopes: null });
      const none = await migrate(client, {});
      expect(none.status).toBe(400);
      expect(fieldError(none.body, 'scopes')).toBe('Choose at least one scope.');
      const unknown = await migrate(client, { scopes: ['PROFILE_READ', 'ROOT'] });
      expect(unknown.status).toBe(400);
      expect(fieldError(unknown.body, 'scopes')).toBe('Unknown scope: ROOT.');
      expect((await requireClient(server.services, client.clientId)).legacy).toBe(true);
    });

    it.skipIf(!available)('the edit page of a legacy client points to the migration instead of offering scopes', async () => {
      const client = await server.client(dev, { scopes: null });
      const form = await open(devBrowser, `${DEV}/${client.clientId}/edit`);
      expect(form.body).not.toContain('name="scopes"');
      expect(visibleText(form.body)).toContain('This is a legacy client without scopes. Choose its scopes on the migration page.');
      expect(form.body).toContain(`href="${DEV}/${client.clientId}/migrate"`);
    });
  });
}

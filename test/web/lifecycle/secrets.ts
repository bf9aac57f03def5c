// Secret rotation in the developer settings (docs/rules.md#client-secrets, docs/rules.md#secret-rotation): shown once, at most 2 active, the last one stays, removal
// takes effect at once and issued tokens keep working.
import { beforeAll, describe, expect, it } from 'vitest';
import { requireClient } from '../../../src/services/clients/view.ts';
import type { Backend } from '../../helpers/backends.ts';
import type { Browser, PageResponse } from '../../helpers/browser.ts';
import { browserFor, csrfOf, DEVELOPER_CLIENTS as DEV, formAt, loggedIn, open, postForm, textOf, visibleText } from '../../helpers/pages.ts';
import type { TestClient, TestServer, TestUser } from '../../helpers/server.ts';

function shownSecret(res: PageResponse): string {
  const secret = /id="new-secret-value" type="text" readonly value="(gcs_[^"]+)"/.exec(res.body)?.[1];
  if (!secret) throw new Error(`no new secret on the page: ${visibleText(res.body).slice(0, 400)}`);
  return secret;
}

export function secretRotationPages({ available }: Backend, shared: () => TestServer): void {
  describe('secret rotation pages', () => {
    let server: TestServer;
    let dev: TestUser;
    let devBrowser: Browser;
    let user: TestUser;
    beforeAll(async () => {
      if (!available) return;
      server = shared();
      dev = await server.user();
      devBrowser = await browserFor(server, dev);
      user = (await loggedIn(server)).user;
    });

    /** A valid token of the developer's session, for pages that offer no form of their own. */
    async function anyCsrf() {
      return csrfOf((await open(devBrowser, `${DEV}/new`)).body);
    }

    async function addSecret(client: TestClient) {
      const page = await open(devBrowser, `${DEV}/${client.clientId}`);
      return postForm(devBrowser, `${DEV}/${client.clientId}/secrets`, formAt(page.body, `${DEV}/${client.clientId}/secrets`));
    }

    async function removeSecret(client: TestClient, secretId: string) {
      const confirm = await open(devBrowser, `${DEV}/${client.clientId}/secrets/${secretId}/remove`);
      return { confirm, res: await postForm(devBrowser, `${DEV}/${client.clientId}/secrets/${secretId}/remove`, { _csrf: csrfOf(confirm.body) }) };
    }

    it.skipIf(!available)('the whole rotation: add a second secret, switch, remove the first; issued tokens keep working (docs/rules.md#secret-rotation)', async () => {
      const client = await server.client(dev);
      const firstId = (await requireClient(server.services, client.clientId)).secrets[0]!.id;
      const before = await server.exchange(client, await server.code(client, user));
      expect(before.status).toBe(200);

      // docs/rules.md#forms-and-pages: the POST redirects; the page it leads to shows the secret once.
      const posted = await addSecret(client);
      expect(posted.status).toBe(303);
      expect(posted.location).toMatch(new RegExp(`^${DEV}/${client.clientId}\\?notice=[\\w-]{22}#secrets$`));
      const added = await devBrowser.follow(posted);
      expect(added.status).toBe(200);
      expect(added.headers.get('cache-control')).toBe('no-store');
      const second = shownSecret(added);
      expect(textOf(added.body, 'new-secret')).toMatch(/Copy it now: it will not be shown again/);
      expect(added.body).toMatch(/<button type="button" class="secondary" data-copy="new-secret-value" hidden>Copy<\/button>/);
      // Shown once: a reload of that address, and the page afterwards, have only its last four characters.
      const reloaded = await devBrowser.follow(posted);
      expect(reloaded.status).toBe(200);
      expect(reloaded.body).not.toContain(second);
      expect(reloaded.body).not.toContain('new-secret-value');
      expect((await requireClient(server.services, client.clientId)).secrets).toHaveLength(2);
      const page = await open(devBrowser, `${DEV}/${client.clientId}`);
      expect(page.body).not.toContain(second);
      expect(textOf(page.body, 'secrets')).toContain(`…${second.slice(-4)}`);

      // Both secrets work while both are active.
      const switched = { ...client, secret: second };
      expect((await server.exchange(switched, await server.code(client, user))).status).toBe(200);
      expect((await server.exchange(client, await server.code(client, user))).status).toBe(200);
      // Last used tells the developer which one the application still uses.
      const used = await open(devBrowser, `${DEV}/${client.clientId}`);
      expect(used.body).not.toMatch(/<tr data-secret="[^"]+"><td><code>…\w{4}<\/code><\/td><td>.*?<\/td><td><span class="muted">never<\/span>/);

      const { confirm, res } = await removeSecret(client, firstId);
      expect(visibleText(confirm.body)).toMatch(/Remove the secret ending in \w{4}\? .*Removal takes effect at once.*Access and refresh tokens issued before keep working/);
      expect(res.status).toBe(303);
      const removed = await devBrowser.follow(res);
      expect(textOf(removed.body, 'flash')).toMatch(/The secret was removed and stopped working at once/);
      expect(textOf(removed.body, 'secrets')).not.toContain(`…${client.secret!.slice(-4)}`);

      // At once: the removed secret no longer authenticates; the new one does.
      const refused = await server.exchange(client, await server.code(client, user));
      expect(refused.status).toBe(401);
      expect(refused.body.error).toBe('invalid_client');
      // Tokens issued under the old secret keep working, and refresh with the new secret.
      expect((await server.api('GET', '/v2/me', before.body.access_token as string)).status).toBe(200);
      const refreshed = await server.token({ grant_type: 'refresh_token', refresh_token: before.body.refresh_token as string, client_id: client.clientId, client_secret: second });
      expect(refreshed.status).toBe(200);

      const events = await server.services.stores.auditLog.list({ clientId: client.clientId });
      expect(events.filter((e) => e.type === 'secret.removed')).toEqual([expect.objectContaining({ actorId: dev.id, data: { secretId: firstId, lastFour: client.secret!.slice(-4) } })]);
      expect(JSON.stringify(events)).not.toContain(second);
    });

    it.skipIf(!available)('with 2 active secrets the page says why no third can be added, and adding one anyway is refused with that reason (docs/rules.md#secret-rotation)', async () => {
      const client = await server.client(dev);
      expect((await addSecret(client)).status).toBe(303);
      const page = await open(devBrowser, `${DEV}/${client.clientId}`);
      expect(textOf(page.body, 'secret-limit-note')).toMatch(/A client can hold at most 2 active secrets\. Remove the one your application no longer uses/);
      expect(page.body).not.toContain('>Add a secret</button>');
      // A request naming the two secrets the page shows (which offers no form for it) tries to add a third.
      const shown = (await requireClient(server.services, client.clientId)).secrets.map((s) => s.id).join(' ');
      const refusal = await postForm(devBrowser, `${DEV}/${client.clientId}/secrets`, { _csrf: await anyCsrf(), shown_secrets: shown });
      expect(refusal.status).toBe(303);
      const third = await devBrowser.follow(refusal);
      expect(textOf(third.body, 'secret-error')).toBe('A client may hold at most 2 active secrets: remove one before adding another.');
      expect(third.body).not.toContain('new-secret-value');
      expect((await requireClient(server.services, client.clientId)).secrets).toHaveLength(2);
    });

    it.skipIf(!available)('the last secret cannot be removed: the page says why and a removal anyway is refused (docs/rules.md#secret-rotation)', async () => {
      const client = await server.client(dev);
      const only = (await requireClient(server.services, client.clientId)).secrets[0]!.id;
      const page = await open(devBrowser, `${DEV}/${client.clientId}`);
      expect(textOf(page.body, 'last-secret-note')).toMatch(/This is the only secret, so it cannot be removed/);
      expect(page.body).not.toContain(`/secrets/${only}/remove"`);
      const confirm = await open(devBrowser, `${DEV}/${client.clientId}/secrets/${only}/remove`);
      expect(textOf(confirm.body, 'secret-error')).toMatch(/This is the last active secret, so it cannot be removed/);
      expect(confirm.body).not.toContain('<button type="submit" class="danger">');
      const refusal = await postForm(devBrowser, `${DEV}/${client.clientId}/secrets/${only}/remove`, { _csrf: await anyCsrf() });
      expect(refusal.status).toBe(303);
      const res = await devBrowser.follow(refusal);
      expect(textOf(res.body, 'secret-error')).toMatch(/This is the last active secret: a confidential client always keeps one/);
      expect((await server.exchange(client, await server.code(client, user))).status).toBe(200);
    });

    it.skipIf(!available)('removing a secret that is already gone is 404 (a second click changes nothing)', async () => {
      const client = await server.client(dev);
      const firstId = (await requireClient(server.services, client.clientId)).secrets[0]!.id;
      await addSecret(client);
      const { confirm, res } = await removeSecret(client, firstId);
      expect(res.status).toBe(303);
      const again = await postForm(devBrowser, `${DEV}/${client.clientId}/secrets/${firstId}/remove`, { _csrf: csrfOf(confirm.body) });
      expect(again.status).toBe(404);
      expect((await requireClient(server.services, client.clientId)).secrets).toHaveLength(1);
    });

    it.skipIf(!available)('a stale removal form says it has expired and removes nothing (docs/rules.md#sessions-and-csrf)', async () => {
      const client = await server.client(dev);
      await addSecret(client);
      const [first] = (await requireClient(server.services, client.clientId)).secrets;
      const res = await postForm(devBrowser, `${DEV}/${client.clientId}/secrets/${first!.id}/remove`, { _csrf: 'stale' });
      expect(res.status).toBe(403);
      expect(visibleText(res.body)).toContain('This form has expired');
      expect((await requireClient(server.services, client.clientId)).secrets).toHaveLength(2);
    });
  });
}

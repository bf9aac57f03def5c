// POST/redirect/GET (docs/rules.md#forms-and-pages): a form that creates something
// answers 303, and a secret shown once is shown by the page the redirect leads to, from a
// one-time notice kept server-side for the session. A reload shows nothing new and
// registers nothing; another session cannot read the notice; the database never holds the
// secret in the clear.
import { beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../../src/oauth/token-format.ts';
import { listClients, requireClient } from '../../../src/services/clients/view.ts';
import type { Backend } from '../../helpers/backends.ts';
import { storedNotice } from '../../helpers/rows.ts';
import { csrfOf, formAt, loggedIn, open, postForm, submit, textOf } from '../../helpers/pages.ts';
import type { TestServer } from '../../helpers/server.ts';
import { sessionToken } from '../../helpers/stores.ts';

const LIST = '/settings/developer/oauth-clients';

const form = {
  name: 'Reload Test',
  description: '',
  homepage_url: '',
  logo_url: '',
  kind: 'confidential',
  redirect_uris: 'https://reload.example.com/cb',
  scopes: ['PROFILE_READ'],
};

const secretOn = (body: string) => /id="new-secret-value" type="text" readonly value="(gcs_[^"]+)"/.exec(body)?.[1];

export function postRedirectGet({ available }: Backend, shared: () => TestServer): void {
  describe('POST/redirect/GET', () => {
    let server: TestServer;
    beforeAll(async () => {
      if (available) server = shared();
    });

    it.skipIf(!available)('registering answers 303; the redirect target shows the secret on the first GET only, and exactly one client exists', async () => {
      const { user, browser } = await loggedIn(server);
      const posted = await submit(browser, `${LIST}/new`, LIST, form);
      expect(posted.status).toBe(303);
      expect(posted.body).toBe('');
      const target = posted.location!;
      expect(target).toMatch(new RegExp(`^${LIST}/[^/?]+\\?notice=[\\w-]{22}$`));

      const first = await browser.get(target);
      expect(first.status).toBe(200);
      expect(first.headers.get('cache-control')).toBe('no-store');
      const secret = secretOn(first.body);
      expect(secret).toMatch(/^gcs_/);
      expect(textOf(first.body, 'flash')).toMatch(/^Registered\./);

      const second = await browser.get(target);
      expect(second.status).toBe(200);
      expect(second.body).not.toContain('new-secret-value');
      expect(second.body).not.toContain(secret!);
      expect(textOf(second.body, 'flash')).toBeNull();

      const clients = await listClients(server.services, { ownerId: user.id });
      expect(clients).toHaveLength(1);
      const { secrets } = await requireClient(server.services, clients[0]!.clientId);
      expect(secrets).toHaveLength(1);
      expect(secrets[0]!.lastFour).toBe(secret!.slice(-4));
    });

    it.skipIf(!available)('adding a secret answers 303; the secret shows once and a reload adds none', async () => {
      const { user, browser } = await loggedIn(server);
      const created = await browser.follow(await submit(browser, `${LIST}/new`, LIST, form));
      const clientId = textOf(created.body, 'client-id')!;
      const posted = await postForm(browser, `${LIST}/${clientId}/secrets`, formAt(created.body, `${LIST}/${clientId}/secrets`));
      expect(posted.status).toBe(303);
      const target = posted.location!;
      expect(target).toMatch(/\?notice=[\w-]{22}#secrets$/);
      const added = secretOn((await browser.get(target.replace(/#.*/, ''))).body);
      expect(added).toMatch(/^gcs_/);
      const again = await browser.get(target.replace(/#.*/, ''));
      expect(again.body).not.toContain('new-secret-value');
      expect((await requireClient(server.services, clientId)).secrets).toHaveLength(2);
      expect(await listClients(server.services, { ownerId: user.id })).toHaveLength(1);
    });

    // Issue 21 item 7: the events URL's signing secret follows the same rule. A reload of the
    // page that showed it must not rotate it again, or the secret just copied stops working.
    const eventsSecretOn = (body: string) => /id="new-events-secret-value" type="text" readonly value="(whsec_[^"]+)"/.exec(body)?.[1]?.replace(/&#x2B;|&#43;/g, '+').replace(/&#x2F;|&#47;/g, '/').replace(/&#x3D;|&#61;/g, '=');
    /** The secret the client's deliveries are signed with, as the delivery engine gets it when it claims one. */
    async function storedEventsSecret(clientId: string): Promise<string | undefined> {
      const deliveries = server.services.stores.webhookDeliveries;
      const now = server.clock();
      const [id] = await deliveries.enqueue([{ clientId }], 'probe', {}, now);
      return (await deliveries.claimDue(now, now + 60_000, 1000)).find((d) => d.id === id)?.secret;
    }

    /** GETs the redirect target twice: the secret shows on the first only, is the stored one, and stays so. */
    async function showsEventsSecretOnce(browser: Awaited<ReturnType<typeof loggedIn>>['browser'], clientId: string, posted: { status: number; body: string; location: string | null }, flash: string | null): Promise<string> {
      expect(posted.status).toBe(303);
      expect(posted.body).toBe('');
      const target = posted.location!;
      expect(target).toMatch(/\?notice=[\w-]{22}#events-url$/);
      expect(target).not.toContain('whsec_');
      const first = await browser.get(target.replace(/#.*/, ''));
      expect(first.status).toBe(200);
      expect(first.headers.get('cache-control')).toBe('no-store');
      const secret = eventsSecretOn(first.body);
      expect(secret).toMatch(/^whsec_/);
      expect(textOf(first.body, 'flash')).toBe(flash);
      expect(await storedEventsSecret(clientId)).toBe(secret);
      const second = await browser.get(target.replace(/#.*/, ''));
      expect(second.status).toBe(200);
      expect(second.body).not.toContain('new-events-secret-value');
      expect(second.body).not.toContain(secret!);
      // The reload rotated nothing: the secret copied is still the one deliveries are signed with.
      expect(await storedEventsSecret(clientId)).toBe(secret);
      return secret!;
    }

    it.skipIf(!available)('saving an events URL answers 303; its new signing secret shows once and a reload does not replace it', async () => {
      const { browser } = await loggedIn(server);
      const created = await browser.follow(await submit(browser, `${LIST}/new`, LIST, form));
      const clientId = textOf(created.body, 'client-id')!;
      const page = await open(browser, `${LIST}/${clientId}`);
      const posted = await postForm(browser, `${LIST}/${clientId}/events-url`, { _csrf: csrfOf(page.body), eventsUrl: 'https://events.example.com/hook' });
      await showsEventsSecretOnce(browser, clientId, posted, 'The events URL is saved.');
    });

    it.skipIf(!available)('rotating the events signing secret answers 303; the new one shows once and a reload does not rotate again', async () => {
      const { browser } = await loggedIn(server);
      const created = await browser.follow(await submit(browser, `${LIST}/new`, LIST, form));
      const clientId = textOf(created.body, 'client-id')!;
      const page = await open(browser, `${LIST}/${clientId}`);
      const saved = await postForm(browser, `${LIST}/${clientId}/events-url`, { _csrf: csrfOf(page.body), eventsUrl: 'https://events.example.com/hook' });
      const first = await showsEventsSecretOnce(browser, clientId, saved, 'The events URL is saved.');
      const withRotate = await open(browser, `${LIST}/${clientId}`);
      const rotated = await postForm(browser, `${LIST}/${clientId}/events-secret`, formAt(withRotate.body, `${LIST}/${clientId}/events-secret`));
      const fresh = await showsEventsSecretOnce(browser, clientId, rotated, null);
      expect(fresh).not.toBe(first);
    });

    // Issue 34 item 3: the redirect keeps a reload from repeating a form, but the same POST
    // sent twice (a double click, the same CSRF token) rotated the signing secret twice: the
    // secret the first answer showed, and the user copied, no longer signed anything. A form
    // that rotates or reveals a secret names the one its page showed, and is good once.
    async function clientWithEventsSecret(browser: Awaited<ReturnType<typeof loggedIn>>['browser']) {
      const created = await browser.follow(await submit(browser, `${LIST}/new`, LIST, form));
      const clientId = textOf(created.body, 'client-id')!;
      const action = `${LIST}/${clientId}/events-url`;
      const saved = await postForm(browser, action, { ...formAt((await open(browser, `${LIST}/${clientId}`)).body, action), eventsUrl: 'https://events.example.com/hook' });
      return { clientId, secret: await showsEventsSecretOnce(browser, clientId, saved, 'The events URL is saved.') };
    }

    it.skipIf(!available)('the same rotation of the events signing secret sent twice (same body, CSRF token and cookie) rotates once: the second leaves the secret the first made and lands on the page saying so', async () => {
      const { browser } = await loggedIn(server);
      const { clientId, secret: before } = await clientWithEventsSecret(browser);
      const action = `${LIST}/${clientId}/events-secret`;
      const fields = formAt((await open(browser, `${LIST}/${clientId}`)).body, action);
      const first = await postForm(browser, action, fields);
      const second = await postForm(browser, action, fields);
      const rotated = await showsEventsSecretOnce(browser, clientId, first, null);
      expect(rotated).not.toBe(before);
      expect(second.status).toBe(303);
      expect(second.location).toMatch(new RegExp(`^${LIST}/${clientId}\\?notice=[\\w-]{22}#events-url$`));
      const landed = await browser.get(second.location!.replace(/#.*/, ''));
      expect(landed.status).toBe(200);
      expect(textOf(landed.body, 'events-url-error')).toBe('The signing secret was rotated since this page was shown (this form may have been sent twice), so it was not rotated again: the new secret was shown once, after that rotation; if nobody copied it, rotate it again.');
      expect(landed.body).not.toContain('new-events-secret-value');
      expect(await storedEventsSecret(clientId)).toBe(rotated);
    });

    it.skipIf(!available)('the same rotation sent twice at once rotates once: one answer shows the new secret, which signs the deliveries, and the other says it was rotated already', async () => {
      const { browser } = await loggedIn(server);
      const { clientId } = await clientWithEventsSecret(browser);
      const action = `${LIST}/${clientId}/events-secret`;
      const fields = formAt((await open(browser, `${LIST}/${clientId}`)).body, action);
      const answers = await Promise.all([postForm(browser, action, fields), postForm(browser, action, fields)]);
      const pages = [];
      for (const answer of answers) {
        expect(answer.status).toBe(303);
        pages.push((await browser.get(answer.location!.replace(/#.*/, ''))).body);
      }
      const shown = pages.map(eventsSecretOn).filter((s) => s !== undefined);
      expect(shown).toHaveLength(1);
      expect(pages.filter((body) => textOf(body, 'events-url-error')?.startsWith('The signing secret was rotated since this page was shown'))).toHaveLength(1);
      expect(await storedEventsSecret(clientId)).toBe(shown[0]);
    });

    it.skipIf(!available)('the first save of an events URL sent twice makes one signing secret: the second keeps it and says it was shown when the form was first sent', async () => {
      const { browser } = await loggedIn(server);
      const created = await browser.follow(await submit(browser, `${LIST}/new`, LIST, form));
      const clientId = textOf(created.body, 'client-id')!;
      const action = `${LIST}/${clientId}/events-url`;
      const fields = { ...formAt((await open(browser, `${LIST}/${clientId}`)).body, action), eventsUrl: 'https://events.example.com/hook' };
      const first = await postForm(browser, action, fields);
      const second = await postForm(browser, action, fields);
      const secret = await showsEventsSecretOnce(browser, clientId, first, 'The events URL is saved.');
      expect(second.status).toBe(303);
      const landed = await browser.get(second.location!.replace(/#.*/, ''));
      expect(textOf(landed.body, 'flash')).toBe('The events URL is saved. Its signing secret was made when this form was sent before, and shown once then; if nobody copied it, rotate it.');
      expect(landed.body).not.toContain('new-events-secret-value');
      expect(await storedEventsSecret(clientId)).toBe(secret);
    });

    it.skipIf(!available)('the same "Add a secret" sent twice adds one secret: the second adds none and lands on the page naming the one the first added', async () => {
      const { browser } = await loggedIn(server);
      const created = await browser.follow(await submit(browser, `${LIST}/new`, LIST, form));
      const clientId = textOf(created.body, 'client-id')!;
      const action = `${LIST}/${clientId}/secrets`;
      const fields = formAt((await open(browser, `${LIST}/${clientId}`)).body, action);
      const first = await postForm(browser, action, fields);
      const second = await postForm(browser, action, fields);
      const added = secretOn((await browser.get(first.location!.replace(/#.*/, ''))).body)!;
      expect(second.status).toBe(303);
      const landed = await browser.get(second.location!.replace(/#.*/, ''));
      expect(textOf(landed.body, 'secret-error')).toBe(`The secret ending in …${added.slice(-4)} was added after this page was shown (this form may have been sent twice), so no other was added: its value was shown once, when it was made; if nobody copied it, remove it and add another.`);
      expect(landed.body).not.toContain('new-secret-value');
      const { secrets } = await requireClient(server.services, clientId);
      expect(secrets).toHaveLength(2);
      expect(secrets.map((s) => s.lastFour)).toContain(added.slice(-4));
    });

    it.skipIf(!available)('the notice belongs to its session: another signed-in browser following the same address sees no secret, and the owner still does', async () => {
      const { browser } = await loggedIn(server);
      const posted = await submit(browser, `${LIST}/new`, LIST, form);
      const clientId = posted.location!.split('/').pop()!.split('?')[0]!;
      // Another session of another user: the client is not theirs (404), the notice stays.
      const other = (await loggedIn(server)).browser;
      expect((await other.get(posted.location!)).status).toBe(404);
      // An admin can open the client; the address names the notice, but it is not the admin's.
      const admin = (await loggedIn(server, { admin: true })).browser;
      const adminView = await open(admin, `/admin/oauth-clients/${clientId}?${posted.location!.split('?')[1]}`);
      expect(adminView.body).not.toContain('new-secret-value');
      expect(secretOn((await browser.get(posted.location!)).body)).toMatch(/^gcs_/);
    });

    /** Takes the session's notice through the port, as a page shows it: undefined once it is gone. */
    const noticeOf = (cookieHeader: string, id: string) => server.services.stores.notices.take(id, hashToken(sessionToken(cookieHeader)!), server.clock());

    it.skipIf(!available)('the notice is sealed at rest: its row never holds the secret, and it is deleted once read', async () => {
      const { browser } = await loggedIn(server);
      const posted = await submit(browser, `${LIST}/new`, LIST, form);
      const id = /notice=([\w-]+)/.exec(posted.location!)![1]!;
      const stored = (await storedNotice(server.db, id))!;
      const secret = secretOn((await browser.get(posted.location!)).body)!;
      expect(stored.sealed).not.toContain(secret);
      expect(stored.sealed).not.toContain(secret.slice(4, 20));
      expect(await noticeOf(browser.cookieHeader(), id)).toBeUndefined();
    });

    it.skipIf(!available)('a notice not read within ten minutes is gone', async () => {
      const { browser } = await loggedIn(server);
      const posted = await submit(browser, `${LIST}/new`, LIST, form);
      server.advance(10 * 60 + 1);
      const late = await browser.get(posted.location!);
      expect(late.status).toBe(200);
      expect(late.body).not.toContain('new-secret-value');
    });

    it.skipIf(!available)('logging out drops the session’s unread notices', async () => {
      const { browser } = await loggedIn(server);
      const posted = await submit(browser, `${LIST}/new`, LIST, form);
      const id = /notice=([\w-]+)/.exec(posted.location!)![1]!;
      const session = browser.cookieHeader();
      const logout = await open(browser, '/logout');
      expect((await browser.post('/logout', { _csrf: csrfOf(logout.body) })).status).toBe(303);
      expect(await noticeOf(session, id)).toBeUndefined();
    });
  });
}

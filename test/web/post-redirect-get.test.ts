// POST/redirect/GET (docs/rules.md#forms-and-pages): a form that creates something
// answers 303, and a secret shown once is shown by the page the redirect leads to, from a
// one-time notice kept server-side for the session. A reload shows nothing new and
// registers nothing; another session cannot read the notice; the database never holds the
// secret in the clear.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../src/oauth/token-format.ts';
import { listClients, requireClient } from '../../src/services/clients/view.ts';
import { backends } from '../helpers/backends.ts';
import { storedNotice } from '../helpers/rows.ts';
import { csrfOf, loggedIn, open, postForm, submit, textOf } from '../helpers/pages.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { sessionToken } from '../helpers/stores.ts';

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

describe.each(backends)('POST/redirect/GET on $name', ({ name, available }) => {
  let server: TestServer;
  beforeAll(async () => {
    if (available) server = await startTestServer(name);
  });
  afterAll(async () => server?.close());

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
    const posted = await postForm(browser, `${LIST}/${clientId}/secrets`, { _csrf: csrfOf(created.body) });
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
    const rotated = await postForm(browser, `${LIST}/${clientId}/events-secret`, { _csrf: csrfOf(page.body) });
    const fresh = await showsEventsSecretOnce(browser, clientId, rotated, null);
    expect(fresh).not.toBe(first);
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

// Authorized apps (docs/rules.md#consent): each application the user approved,
// with its scopes in plain words and when; Revoke ends every token of it for this user at
// once, and only for this user.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.ts';
import { csrfOf, loggedIn, open, postForm, textOf, visibleText } from '../helpers/pages.ts';
import { startTestServer, type TestServer, type TestUser } from '../helpers/server.ts';

const APPS = '/settings/authorized-apps';

describe.each(backends)('authorized apps on $name', ({ name, available }) => {
  let server: TestServer;
  let dev: TestUser;
  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer(name);
    dev = await server.user();
  });
  afterAll(async () => server?.close());

  it.skipIf(!available)('lists each approved application with its scopes in plain words and when; Revoke ends all its tokens for this user at once', async () => {
    const client = await server.client(dev, { name: 'Booking Buddy', homepageUrl: 'https://buddy.example.com' });
    const other = await server.client(dev, { name: 'Other App' });
    const { user, browser } = await loggedIn(server);
    // Two authorizations of one application: two grants, one entry.
    const first = await server.exchange(client, await server.code(client, user, { scope: 'PROFILE_READ' }));
    const second = await server.exchange(client, await server.code(client, user, { scope: 'BOOKING_READ', prompt: 'consent' }));
    const kept = await server.exchange(other, await server.code(other, user));
    const bystander = await server.user();
    const theirs = await server.exchange(client, await server.code(client, bystander));

    const page = await open(browser, APPS);
    const card = textOf(page.body, `app-${client.clientId}`);
    expect(card).toBe('Booking Buddy');
    const text = visibleText(page.body);
    expect(text).toMatch(
      /Booking Buddy https:\/\/buddy\.example\.com You approved it on \d{4}-\d\d-\d\d \d\d:\d\d UTC.*Last used: .*It can: Your account List bookings; read recordings, transcripts, calendar links, references\. Read the authorized user's profile\. Revoke access/,
    );
    expect(text).toContain('Other App');

    // Revoke access asks first: a link to a confirmation page, whose form revokes.
    expect(page.body).toContain(`<a class="button danger" href="${APPS}/${client.clientId}/revoke">Revoke access<span class="visually-hidden"> for Booking Buddy</span></a>`);
    const confirm = await open(browser, `${APPS}/${client.clientId}/revoke`);
    expect(textOf(confirm.body, 'revoke-title')).toBe('Revoke access for Booking Buddy?');
    expect(textOf(confirm.body, 'revoke-consequence')).toBe('Every token it holds for your account stops working at once. To use it again you will have to allow it again.');
    expect(visibleText(confirm.body)).toContain('Revoke access for Booking Buddy Cancel');
    // Looking at the confirmation revokes nothing.
    expect((await server.api('GET', '/v2/me', first.body.access_token as string)).status).toBe(200);

    const res = await postForm(browser, `${APPS}/${client.clientId}/revoke`, { _csrf: csrfOf(confirm.body) });
    expect(res.status).toBe(303);
    const after = await browser.follow(res);
    expect(textOf(after.body, 'flash')).toBe('You revoked access for Booking Buddy. Its tokens stopped working at once.');
    expect(visibleText(after.body)).not.toContain('Booking Buddy https://');
    expect(visibleText(after.body)).toContain('Other App');

    for (const tokens of [first, second]) {
      expect((await server.api('GET', '/v2/me', tokens.body.access_token as string)).status).toBe(401);
      const refresh = await server.token({ grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token as string, client_id: client.clientId, client_secret: client.secret! });
      expect(refresh.body.error).toBe('invalid_grant');
    }
    // Another application of this user, and this application for another user, are untouched.
    expect((await server.api('GET', '/v2/me', kept.body.access_token as string)).status).toBe(200);
    expect((await server.api('GET', '/v2/me', theirs.body.access_token as string)).status).toBe(200);

    const revoked = (await server.services.stores.auditLog.list({ clientId: client.clientId })).filter((e) => e.type === 'grant.revoked');
    expect(revoked).toHaveLength(2);
    expect(revoked.every((e) => e.actorId === user.id && e.userId === user.id)).toBe(true);

    // Consent is asked again: the application has to come back to the user.
    const query = new URLSearchParams({ client_id: client.clientId, redirect_uri: client.redirectUri, response_type: 'code', scope: 'PROFILE_READ', state: 's' });
    const again = await browser.get(`/auth/oauth2/authorize?${query}`);
    expect(again.status).toBe(200);
    expect(textOf(again.body, 'client-name')).toBe('Booking Buddy');
  });

  it.skipIf(!available)('each application shows its logo, marks the scopes that can make changes, and when it last got a token', async () => {
    const client = await server.client(dev, { name: 'Change Maker', scopes: ['PROFILE_READ', 'BOOKING_READ', 'BOOKING_WRITE'] });
    const { user, browser } = await loggedIn(server);
    const tokens = await server.exchange(client, await server.code(client, user, { scope: 'BOOKING_WRITE PROFILE_READ' }));
    const issuedAt = server.clock();
    const page = await open(browser, APPS);
    expect(page.body).toContain(`<img class="app-logo" src="/oauth-clients/${client.clientId}/logo" alt="" width="40" height="40">`);
    const from = page.body.indexOf(`data-client="${client.clientId}"`);
    const card = page.body.slice(from, page.body.indexOf('Revoke access', from));
    expect(visibleText(card)).toContain('It can: Your account Read the authorized user\'s profile. Add guests, change locations, confirm, decline, reassign bookings. Can make changes');
    expect(card).toContain('<li class="writes">');
    /** The last-used line, and the time it names. */
    const used = async () => {
      const body = (await open(browser, APPS)).body;
      const line = /<p class="muted" id="last-used-[^"]+">([\s\S]*?)<\/p>/.exec(body.slice(body.indexOf(`id="last-used-${client.clientId}"`) - 30))![0];
      return { text: visibleText(line), at: Date.parse(/datetime="([^"]+)"/.exec(line)![1]!) };
    };
    const before = await used();
    expect(before.text).toMatch(/^Last used: \d{4}-\d\d-\d\d \d\d:\d\d UTC, when it last got a token \(signing you in or refreshing\)\.$/);
    expect(Math.abs(before.at - issuedAt)).toBeLessThan(60_000);

    // A refresh two days later moves it.
    server.advance(2 * 24 * 3600);
    const refreshed = await server.token({ grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token as string, client_id: client.clientId, client_secret: client.secret! });
    expect(refreshed.status).toBe(200);
    expect(Math.abs((await used()).at - server.clock())).toBeLessThan(60_000);
  });

  it.skipIf(!available)('a legacy application is shown as reaching everything in the account', async () => {
    const client = await server.client(dev, { scopes: null, name: 'Old Faithful' });
    const { user, browser } = await loggedIn(server);
    await server.code(client, user);
    const page = await open(browser, APPS);
    expect(visibleText(page.body)).toMatch(/Old Faithful .*It can: Read and change everything in your account/);
  });

  it.skipIf(!available)('with nothing authorized the page says so; a stale revoke form says it expired and revokes nothing', async () => {
    const client = await server.client(dev);
    const { user, browser } = await loggedIn(server);
    expect(textOf((await open(browser, APPS)).body, 'no-apps')).toBe('You have not authorized any application.');
    const tokens = await server.exchange(client, await server.code(client, user));
    const res = await postForm(browser, `${APPS}/${client.clientId}/revoke`, { _csrf: 'stale' });
    expect(res.status).toBe(403);
    expect(visibleText(res.body)).toContain('This form has expired');
    expect((await server.api('GET', '/v2/me', tokens.body.access_token as string)).status).toBe(200);
  });
});

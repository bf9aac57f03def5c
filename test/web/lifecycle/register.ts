// Registering a client in the developer settings (docs/rules.md#client-record,
// docs/rules.md#client-states, docs/rules.md#client-secrets, docs/rules.md#audit-events): what the developer sees, validation next to each field, and
// CSRF protection that says when a form went stale.
import { beforeAll, describe, expect, it } from 'vitest';
import { listClients } from '../../../src/services/clients/view.ts';
import type { Backend } from '../../helpers/backends.ts';
import { clientKey } from '../../helpers/client-keys.ts';
import { csrfOf, fieldError, loggedIn, open, postForm, submit, textOf, visibleText } from '../../helpers/pages.ts';
import type { TestServer } from '../../helpers/server.ts';

const LIST = '/settings/developer/oauth-clients';
const NEW = `${LIST}/new`;

const valid = {
  name: 'Calendar Sync',
  description: 'Keeps calendars in sync.',
  homepage_url: 'https://sync.example.com',
  logo_url: 'https://sync.example.com/logo.png',
  kind: 'confidential',
  redirect_uris: 'https://sync.example.com/cb\nhttp://localhost:8080/cb',
  scopes: ['PROFILE_READ', 'BOOKING_READ'],
};

export function registeringAClient({ available }: Backend, shared: () => TestServer): void {
  describe('registering a client', () => {
    let server: TestServer;
    beforeAll(async () => {
      if (available) server = shared();
    });

    it.skipIf(!available)('a registered client is pending and says so; its first secret is shown once (docs/rules.md#client-states; docs/rules.md#client-secrets)', async () => {
      const { user, browser } = await loggedIn(server);
      const posted = await submit(browser, NEW, LIST, valid);
      expect(posted.status).toBe(303);
      const created = await browser.follow(posted);
      expect(created.status).toBe(200);
      expect(created.headers.get('cache-control')).toBe('no-store');
      expect(textOf(created.body, 'flash')).toMatch(/^Registered\. The client is pending/);
      const text = visibleText(created.body);
      expect(textOf(created.body, 'client-title')).toBe('Calendar Sync');
      expect(text).toContain('Pending review');
      expect(textOf(created.body, 'state-note')).toMatch(/Waiting for review by a platform admin/);
      const secret = /<input id="new-secret-value" type="text" readonly value="(gcs_[^"]+)"/.exec(created.body)?.[1];
      expect(secret).toMatch(/^gcs_/);
      expect(textOf(created.body, 'new-secret')).toMatch(/Copy it now: it will not be shown again/);
      const clientId = textOf(created.body, 'client-id')!;
      expect(textOf(created.body, 'authorize-url')).toBe(`${server.url}/auth/oauth2/authorize`);
      expect(textOf(created.body, 'token-url')).toBe(`${server.url}/v2/auth/oauth2/token`);
      expect(textOf(created.body, 'refresh-url')).toBe(`${server.url}/v2/auth/oauth2/token`);
      // Issue 40 item 4: what discovery needs, and how the secret may be sent (both ways work).
      expect(textOf(created.body, 'issuer')).toBe(server.url);
      expect(textOf(created.body, 'metadata-url')).toBe(`${server.url}/.well-known/oauth-authorization-server`);
      const metadata = (await (await fetch(`${server.url}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
      expect(metadata.issuer).toBe(server.url);
      expect(textOf(created.body, 'token-endpoint-auth-method')).toBe(
        'client_secret_basic or client_secret_post: the secret in an HTTP Basic header, or client_id and client_secret in the request body',
      );
      expect(textOf(created.body, 'scopes')).toContain('Read the authorized user\'s profile.');

      // The client page afterwards shows the secret only by its last four characters.
      const page = await open(browser, `${LIST}/${clientId}`);
      expect(page.body).not.toContain(secret!);
      expect(visibleText(page.body)).toContain(`…${secret!.slice(-4)}`);
      expect(textOf(page.body, 'redirect-uris')).toBe('https://sync.example.com/cb http://localhost:8080/cb');

      const list = await open(browser, LIST);
      expect(textOf(list.body, 'client-title')).toBeNull();
      expect(visibleText(list.body)).toMatch(/Calendar Sync Pending review confidential/);
      const [row] = await listClients(server.services, { ownerId: user.id });
      expect(row).toMatchObject({ clientId, state: 'pending', scopes: ['BOOKING_READ', 'PROFILE_READ'] });
      const events = await server.services.stores.auditLog.list({ clientId });
      expect(events.map((e) => e.type).sort()).toEqual(['client.created', 'secret.created']);
      expect(events.every((e) => e.actorId === user.id)).toBe(true);
    });

    it.skipIf(!available)('a public client has no secret and the page says it uses PKCE (docs/rules.md#client-record)', async () => {
      const { browser } = await loggedIn(server);
      const created = await browser.follow(await submit(browser, NEW, LIST, { ...valid, kind: 'public' }));
      expect(created.status).toBe(200);
      expect(created.body).not.toContain('new-secret-value');
      expect(textOf(created.body, 'secrets')).toMatch(/A public client has no secret: it proves itself with PKCE/);
    });

    it.skipIf(!available)('client authentication: a confidential client registers private_key_jwt with its public keys and the page says so; a public client choosing it is told beside the field (docs/rules.md#client-authentication)', async () => {
      const { browser } = await loggedIn(server);
      const key = await clientKey('PS256');
      const created = await browser.follow(await submit(browser, NEW, LIST, { ...valid, token_endpoint_auth_method: 'private_key_jwt', jwks: JSON.stringify(key.jwks) }));
      expect(created.status).toBe(200);
      expect(textOf(created.body, 'token-endpoint-auth-method')).toBe('private_key_jwt (1 public key registered)');
      const refused = await submit(browser, NEW, LIST, { ...valid, kind: 'public', token_endpoint_auth_method: 'private_key_jwt', jwks: JSON.stringify(key.jwks) });
      expect(refused.status).toBe(400);
      expect(fieldError(refused.body, 'token_endpoint_auth_method')).toMatch(/^A public client has no credentials: token_endpoint_auth_method must be none/);
    });

    it.skipIf(!available)('OIDC Registration 2: the form registers the identity scopes, the ID token algorithm and post-logout redirect URIs; one on another origin is told beside its field', async () => {
      const { user, browser } = await loggedIn(server);
      const fields = { ...valid, name: 'Sign-in Sync', scopes: ['openid', 'email'], id_token_signed_response_alg: 'ES256', post_logout_redirect_uris: 'https://sync.example.com/bye' };
      expect((await submit(browser, NEW, LIST, fields)).status).toBe(303);
      const [stored] = (await listClients(server.services, { ownerId: user.id })).filter((c) => c.name === 'Sign-in Sync');
      expect(stored).toMatchObject({ scopes: ['openid', 'email'], idTokenSignedResponseAlg: 'ES256', postLogoutRedirectUris: ['https://sync.example.com/bye'] });
      const refused = await submit(browser, NEW, LIST, { ...fields, post_logout_redirect_uris: 'https://elsewhere.example.org/bye' });
      expect(refused.status).toBe(400);
      expect(fieldError(refused.body, 'post_logout_redirect_uris')).toMatch(/must be on the origin of one of the client's redirect URIs/);
      const page = visibleText((await open(browser, NEW)).body);
      expect(page).toMatch(/Who you are \(identity scopes\)[\s\S]*Your account \(personal scopes\)/);
    });

    it.skipIf(!available)('the form offers every scope grouped by family, in plain words, with a label for every input', async () => {
      const { browser } = await loggedIn(server);
      const page = await open(browser, NEW);
      const text = visibleText(page.body);
      expect(text).toMatch(/Your account \(personal scopes\)[\s\S]*Your teams \(team scopes\)[\s\S]*Your organization \(organization scopes\)/);
      expect(text).toContain('ORG_WEBHOOK_WRITE Create, change, delete organization webhooks.');
      const ids = [...page.body.matchAll(/<(?:input|textarea)(?![^>]*type="hidden")[^>]*\bid="([^"]+)"/g)].map((m) => m[1]!);
      expect(ids.length).toBeGreaterThan(45);
      for (const id of ids) expect(page.body, `label for ${id}`).toContain(`<label for="${id}">`);
    });

    const invalidCases: Array<[string, Record<string, string | string[]>, string, RegExp]> = [
      ['an http redirect URI that is not loopback', { redirect_uris: 'http://sync.example.com/cb' }, 'redirect_uris', /must use https \(http is allowed only for localhost and 127\.0\.0\.1\)/],
      ['a redirect URI with a fragment', { redirect_uris: 'https://sync.example.com/cb#x' }, 'redirect_uris', /must not contain a fragment/],
      ['a relative redirect URI', { redirect_uris: '/cb' }, 'redirect_uris', /"\/cb" is not an absolute URI/],
      ['a duplicated redirect URI', { redirect_uris: 'https://a.example/cb\nhttps://a.example/cb' }, 'redirect_uris', /is listed twice/],
      ['eleven redirect URIs', { redirect_uris: Array.from({ length: 11 }, (_, i) => `https://a.example/cb${i}`).join('\n') }, 'redirect_uris', /At most 10 redirect URIs per client \(got 11\)/],
      ['no redirect URI', { redirect_uris: '' }, 'redirect_uris', /At least one redirect URI is required/],
      ['no scope', { scopes: [] }, 'scopes', /Choose at least one scope/],
      ['an unknown scope', { scopes: ['PROFILE_READ', 'EVERYTHING'] }, 'scopes', /Unknown scope: EVERYTHING/],
      ['an empty name', { name: '   ' }, 'name', /Name is required/],
      ['a name of 101 characters', { name: 'x'.repeat(101) }, 'name', /at most 100 characters/],
      ['a name with a bidi override (SECURITY.md)', { name: 'Calendar \u202Emoc.elgoog' }, 'name', /Name must not contain invisible formatting characters .*U\+202E/],
      ['a description of 1001 characters', { description: 'x'.repeat(1001) }, 'description', /at most 1000 characters/],
      ['a logo URL over http', { logo_url: 'http://sync.example.com/logo.png' }, 'logo_url', /Logo URL must use https/],
      ['a homepage that is not a URL', { homepage_url: 'sync dot example' }, 'homepage_url', /Homepage URL must be an absolute URL/],
      ['an unknown kind', { kind: 'secretive' }, 'kind', /confidential or public/],
    ];

    // One developer submits every bad form; none of them may register anything.
    let invalidSubmitter: Awaited<ReturnType<typeof loggedIn>> | undefined;

    it.skipIf(!available).each(invalidCases)('%s → 400, the message next to its field, nothing registered (docs/rules.md#client-record)', async (_label, change, field, message) => {
      invalidSubmitter ??= await loggedIn(server);
      const { user, browser } = invalidSubmitter;
      const res = await submit(browser, NEW, LIST, { ...valid, ...change });
      expect(res.status).toBe(400);
      expect(fieldError(res.body, field)).toMatch(message);
      expect(res.body).toMatch(new RegExp(`aria-describedby="${field}-error"`));
      // The summary links to the field, and what was typed is kept.
      expect(res.body).toContain(`href="#${field}"`);
      if (field !== 'name') expect(res.body).toContain(`value="${valid.name}"`);
      expect(await listClients(server.services, { ownerId: user.id })).toEqual([]);
    });

    it.skipIf(!available)('every faulty field is reported at once, each URI by name', async () => {
      const { browser } = await loggedIn(server);
      const res = await submit(browser, NEW, LIST, { ...valid, name: '', logo_url: 'http://x.example/l.png', redirect_uris: 'http://a.example/cb\nhttps://b.example/cb#f', scopes: [] });
      expect(res.status).toBe(400);
      expect(visibleText(res.body)).toContain('There are 4 problems');
      expect(fieldError(res.body, 'name')).toMatch(/Name is required/);
      expect(fieldError(res.body, 'logo_url')).toMatch(/https/);
      expect(fieldError(res.body, 'redirect_uris')).toMatch(/"http:\/\/a\.example\/cb" must use https.*"https:\/\/b\.example\/cb#f" must not contain a fragment/);
      expect(fieldError(res.body, 'scopes')).toMatch(/Choose at least one scope/);
    });

    it.skipIf(!available)('a form without its CSRF token, or with another session\'s, says it has expired and registers nothing (docs/rules.md#sessions-and-csrf)', async () => {
      const { user, browser } = await loggedIn(server);
      const { browser: other } = await loggedIn(server);
      const foreign = csrfOf((await open(other, NEW)).body);
      await open(browser, NEW);
      for (const token of [undefined, foreign, 'forged']) {
        const res = await postForm(browser, LIST, token === undefined ? valid : { _csrf: token, ...valid });
        expect(res.status).toBe(403);
        expect(visibleText(res.body)).toMatch(/This form has expired.*reload the page and submit it again/);
      }
      expect(await listClients(server.services, { ownerId: user.id })).toEqual([]);
    });

    it.skipIf(!available)('a page with a field error is still the one page frame: same stylesheet and navigation', async () => {
      const { browser } = await loggedIn(server);
      const res = await submit(browser, NEW, LIST, { ...valid, name: '' });
      const list = await open(browser, LIST);
      const style = (body: string) => /<link rel="stylesheet" href="([^"]+)">/.exec(body)![1];
      expect(style(res.body)).toBe(style(list.body));
      expect(res.body).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
      for (const link of ['/settings/authorized-apps', '/settings/developer/oauth-clients', '/logout']) expect(res.body).toContain(`<a href="${link}">`);
    });
  });
}

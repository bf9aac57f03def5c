// The admin review page points out risks: a public client asking for
// organization-wide writes, a homepage on another site than the redirect URIs, plain http
// redirect URIs. Activity names the application when it revoked its own token, and the error
// page for a bad redirect_uri names the application the link names, as unverified words.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Backend } from '../../helpers/backends.ts';
import { ADMIN_CLIENTS as ADMIN, loggedIn, open, textOf, visibleText } from '../../helpers/pages.ts';
import type { Browser } from '../../helpers/browser.ts';
import type { TestServer, TestUser } from '../../helpers/server.ts';

export function reviewRisks({ available }: Backend, shared: () => TestServer): void {
  describe('risks, the application as actor and the named sender', () => {
    let server: TestServer;
    let dev: TestUser;
    let admin: Browser;
    beforeAll(async () => {
      if (!available) return;
      server = shared();
      dev = await server.user({ name: 'Devon Dev' });
      admin = (await loggedIn(server, { admin: true })).browser;
    });

    it.skipIf(!available)('a public client asking for ORG_MEMBERSHIP_WRITE, with a homepage elsewhere and an http redirect URI, is flagged three times', async () => {
      const client = await server.client(dev, {
        name: 'Org Mover',
        kind: 'public',
        state: 'pending',
        homepageUrl: 'https://org-mover.example.com/',
        redirectUris: ['https://callback.elsewhere.example.net/cb', 'http://localhost:8080/cb'],
        scopes: ['PROFILE_READ', 'ORG_MEMBERSHIP_WRITE', 'ORG_BOOKING_WRITE'],
      });
      const page = await open(admin, `${ADMIN}/${client.clientId}`);
      expect(textOf(page.body, 'risk-public-org-write')).toBe(
        'A public client asks for organization-wide changes: ORG_BOOKING_WRITE, ORG_MEMBERSHIP_WRITE. It has no secret, so anyone who copies its client ID can start sign-ins as it; one admin who allows it lets it change a whole organization, including who belongs to it and with which role.',
      );
      expect(textOf(page.body, 'risk-homepage-domain')).toBe(
        'The homepage is on another site than the redirect URIs: users are shown org-mover.example.com, while codes go to callback.elsewhere.example.net. Check that both belong to the same developer.',
      );
      expect(textOf(page.body, 'risk-http-redirect')).toBe(
        'A redirect URI uses plain http: http://localhost:8080/cb. On a loopback address codes stay on the user’s computer, but any program listening on that port receives them: expected for a native or development app, not for a web application.',
      );
      // The risks stand above the decision.
      expect(page.body.indexOf('id="risks"')).toBeLessThan(page.body.indexOf('id="decide-title"'));

      // Registration refuses http elsewhere than loopback; a client stored with one (older data) is flagged all the same.
      await server.services.stores.clients.update(client.clientId, { redirectUris: ['http://callback.elsewhere.example.net/cb'] });
      const older = await open(admin, `${ADMIN}/${client.clientId}`);
      expect(textOf(older.body, 'risk-http-redirect')).toBe(
        'A redirect URI uses plain http: http://callback.elsewhere.example.net/cb. Codes would cross the network unencrypted, where anyone on the way can read and use them.',
      );
    });

    it.skipIf(!available)('a confidential client on its own https site shows no risk, and says what was checked', async () => {
      const client = await server.client(dev, {
        name: 'Quiet App',
        state: 'pending',
        homepageUrl: 'https://www.quiet.example.org/',
        redirectUris: ['https://app.quiet.example.org/cb'],
        scopes: ['PROFILE_READ', 'ORG_MEMBERSHIP_WRITE'],
      });
      const page = await open(admin, `${ADMIN}/${client.clientId}`);
      expect(textOf(page.body, 'no-risks')).toMatch(/^The automatic checks found none \(organization-wide writes by a public client, a homepage on another site than the redirect URIs, plain http redirect URIs\)\./);
      expect(page.body).not.toContain('id="risk-');
    });

    it.skipIf(!available)('Activity says the application revoked a token itself, not "unknown"', async () => {
      const client = await server.client(dev, { name: 'Self Revoker' });
      const user = await server.user();
      const tokens = await server.exchange(client, await server.code(client, user));
      const revoked = await server.post(
        '/v2/auth/oauth2/revoke',
        new URLSearchParams({ token: tokens.body.access_token as string, client_id: client.clientId, client_secret: client.secret! }).toString(),
        { 'content-type': 'application/x-www-form-urlencoded' },
      );
      expect(revoked.status).toBe(200);
      const page = await open(admin, `${ADMIN}/${client.clientId}`);
      const row = /<tr data-event="token.revoked">([\s\S]*?)<\/tr>/.exec(page.body)![1]!;
      expect(/<td data-label="Who">(.*?)<\/td>/.exec(row)![1]).toBe('the application');
      expect(visibleText(page.body)).not.toMatch(/A token was revoked token\.revoked unknown/);
    });

    it.skipIf(!available)('the error page for a bad redirect_uri names the application, marked as its developer’s unverified words', async () => {
      const client = await server.client(dev, { name: 'Named Sender', redirectUris: ['https://sender.example.com/cb'] });
      const { browser } = await loggedIn(server);
      const query = new URLSearchParams({ client_id: client.clientId, redirect_uri: 'https://evil.example/steal', response_type: 'code', scope: 'PROFILE_READ', state: 's' });
      const res = await browser.get(`/auth/oauth2/authorize?${query}`);
      expect(res.status).toBe(400);
      expect(textOf(res.body, 'error-application')).toBe(
        'The link names the application registered here as “Named Sender”. That is the name its developer chose, not checked by Gatehouse, and whoever made this link may not be that application.',
      );
      expect(textOf(res.body, 'error-details')).toBe('Technical details: invalid_request: redirect_uri "https://evil.example/steal" is not registered for this application');
      // An unknown client_id names nothing.
      const unknown = await browser.get('/auth/oauth2/authorize?client_id=nobody&response_type=code&redirect_uri=https%3A%2F%2Fevil.example%2F');
      expect(unknown.status).toBe(400);
      expect(textOf(unknown.body, 'error-application')).toBeNull();
    });
  });
}

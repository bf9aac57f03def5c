// End to end with simple-oauth2 v5, the usual Node OAuth client of a confidential web
// application: authorization code, refresh and revocation, once with the client
// credentials in an HTTP Basic header and once in the body (RFC 6749 §2.3.1,
// docs/rules.md#client-authentication). When simple-oauth2 refuses a response here, the server is what is wrong.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.ts';
import type { Browser } from '../helpers/browser.ts';
import { useSignedInServer, type TestServer, type TestUser } from '../helpers/server.ts';

// simple-oauth2 ships no type declarations: the part used here, typed.
interface SimpleAccessToken {
  token: Record<string, unknown> & { access_token: string; refresh_token: string; expires_at: Date; scope: string };
  expired(windowSeconds?: number): boolean;
  refresh(params?: Record<string, unknown>): Promise<SimpleAccessToken>;
  revoke(tokenType: 'access_token' | 'refresh_token'): Promise<unknown>;
  revokeAll(): Promise<void>;
}
interface SimpleAuthorizationCode {
  authorizeURL(params: { redirect_uri: string; scope?: string | string[]; state?: string }): string;
  getToken(params: { code: string; redirect_uri: string }): Promise<SimpleAccessToken>;
}
type AuthorizationCodeClass = new (config: {
  client: { id: string; secret: string };
  auth: { tokenHost: string; tokenPath: string; authorizePath: string; revokePath: string };
  options?: { authorizationMethod?: 'header' | 'body' };
}) => SimpleAuthorizationCode;
const { AuthorizationCode } = createRequire(import.meta.url)('simple-oauth2') as { AuthorizationCode: AuthorizationCodeClass };

const methods = ['header', 'body'] as const;

describe.each(backends)('simple-oauth2 v5 against Gatehouse on $name', ({ name, available }) => {
  let server: TestServer;
  let user: TestUser;
  let browser: Browser;

  useSignedInServer(name, available, 'Simple User', (signedIn) => ({ server, user, browser } = signedIn));

  it.skipIf(!available).each(methods)(
    'completes authorization code → /v2/me → refresh → revoke with authorization.method %s (RFC 6749 §2.3.1, §4.1, §6; RFC 7009)',
    async (method) => {
      const registered = await server.client(user);
      const oauth = new AuthorizationCode({
        client: { id: registered.clientId, secret: registered.secret! },
        auth: { tokenHost: server.url, tokenPath: '/v2/auth/oauth2/token', authorizePath: '/auth/oauth2/authorize', revokePath: '/v2/auth/oauth2/revoke' },
        options: { authorizationMethod: method },
      });

      const state = `st-${method}`;
      const authorizeUrl = new URL(oauth.authorizeURL({ redirect_uri: registered.redirectUri, scope: ['PROFILE_READ', 'BOOKING_READ'], state }));
      expect(authorizeUrl.origin).toBe(server.url);
      const callback = await server.authorize(browser, Object.fromEntries(authorizeUrl.searchParams));
      expect(callback.searchParams.get('state')).toBe(state);
      expect(callback.searchParams.get('iss')).toBe(server.url);

      const token = await oauth.getToken({ code: callback.searchParams.get('code')!, redirect_uri: registered.redirectUri });
      expect(token.token.scope).toBe('BOOKING_READ PROFILE_READ');
      expect(token.expired()).toBe(false);
      expect(token.token.expires_at.getTime()).toBeGreaterThan(Date.now() + 1700_000);
      const me = await server.api('GET', '/v2/me', token.token.access_token);
      expect(me.status).toBe(200);
      expect(me.body.data.email).toBe(user.email);

      const refreshed = await token.refresh();
      expect(refreshed.token.access_token).not.toBe(token.token.access_token);
      expect(refreshed.token.refresh_token).not.toBe(token.token.refresh_token);
      expect(refreshed.token.scope).toBe('BOOKING_READ PROFILE_READ');
      expect((await server.api('GET', '/v2/me', refreshed.token.access_token)).status).toBe(200);

      // The spent refresh token, presented again within the window, gets the same pair (docs/rules.md#refresh-rotation).
      const replay = await token.refresh();
      expect(replay.token.access_token).toBe(refreshed.token.access_token);

      await refreshed.revokeAll();
      expect((await server.api('GET', '/v2/me', refreshed.token.access_token)).status).toBe(401);
      await expect(refreshed.refresh()).rejects.toMatchObject({ data: { payload: { error: 'invalid_grant' } } });
    },
  );

  it.skipIf(!available).each(methods)('surfaces invalid_client with the RFC 6749 §5.2 body for a wrong secret (authorization.method %s)', async (method) => {
    const registered = await server.client(user);
    const callback = await server.authorize(browser, { client_id: registered.clientId, redirect_uri: registered.redirectUri, response_type: 'code', scope: 'PROFILE_READ', state: 's' });
    const oauth = new AuthorizationCode({
      client: { id: registered.clientId, secret: `${registered.secret!.slice(0, -6)}AAAAAA` },
      auth: { tokenHost: server.url, tokenPath: '/v2/auth/oauth2/token', authorizePath: '/auth/oauth2/authorize', revokePath: '/v2/auth/oauth2/revoke' },
      options: { authorizationMethod: method },
    });
    const error = await oauth.getToken({ code: callback.searchParams.get('code')!, redirect_uri: registered.redirectUri }).catch((e: unknown) => e);
    expect(error).toMatchObject({ output: { statusCode: 401 }, data: { payload: { error: 'invalid_client' } } });
  });
});

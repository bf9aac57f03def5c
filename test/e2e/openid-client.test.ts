// End to end with openid-client v6 (panva), a strict certified client: RFC 8414 discovery,
// authorization code with PKCE (validating state and the RFC 9207 iss), a protected
// resource call, refresh, introspection (RFC 7662) and revocation (RFC 7009), with
// client_secret_post, client_secret_basic and a public client. When openid-client refuses
// something here, the server is what is wrong.
import * as client from 'openid-client';
import { describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.ts';
import type { Browser } from '../helpers/browser.ts';
import { useSignedInServer, type TestClient, type TestServer, type TestUser } from '../helpers/server.ts';

describe.each(backends)('openid-client v6 against Gatehouse on $name', ({ name, available }) => {
  let server: TestServer;
  let user: TestUser;
  let browser: Browser;

  useSignedInServer(name, available, 'Panva Fan', (signedIn) => ({ server, user, browser } = signedIn));

  function discover(registered: TestClient, auth: client.ClientAuth) {
    return client.discovery(new URL(server.url), registered.clientId, registered.secret ?? undefined, auth, {
      algorithm: 'oauth2',
      execute: [client.allowInsecureRequests],
    });
  }

  /** Authorization with PKCE through the library's URL; returns the callback and the checks. */
  async function authorize(config: client.Configuration, registered: TestClient, scope = 'PROFILE_READ BOOKING_READ') {
    const pkceCodeVerifier = client.randomPKCECodeVerifier();
    const expectedState = client.randomState();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: registered.redirectUri,
      scope,
      state: expectedState,
      code_challenge: await client.calculatePKCECodeChallenge(pkceCodeVerifier),
      code_challenge_method: 'S256',
    });
    expect(url.href.startsWith(`${server.url}/auth/oauth2/authorize?`)).toBe(true);
    const callback = await server.authorize(browser, Object.fromEntries(url.searchParams));
    return { callback, pkceCodeVerifier, expectedState };
  }

  it.skipIf(!available).each([
    ['client_secret_post', (secret: string) => client.ClientSecretPost(secret)],
    ['client_secret_basic', (secret: string) => client.ClientSecretBasic(secret)],
  ] as const)(
    'discovers, runs the code flow with PKCE, refreshes, introspects and revokes with %s (RFC 8414, RFC 7636, RFC 6749 §6, RFC 7662, RFC 7009)',
    async (_method, auth) => {
      const registered = await server.client(user);
      const config = await discover(registered, auth(registered.secret!));
      const { callback, pkceCodeVerifier, expectedState } = await authorize(config, registered);

      // openid-client checks state and, as the metadata promises it, iss (RFC 9207).
      const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier, expectedState });
      expect(tokens.token_type.toLowerCase()).toBe('bearer');
      expect(tokens.scope).toBe('BOOKING_READ PROFILE_READ');
      expect(tokens.expiresIn()).toBeGreaterThan(1790);
      expect(tokens.refresh_token).toMatch(/^grt_/);

      const me = await client.fetchProtectedResource(config, tokens.access_token, new URL(`${server.url}/v2/me`), 'GET');
      expect(me.status).toBe(200);
      expect(((await me.json()) as { data: { email: string } }).data.email).toBe(user.email);

      const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
      expect(refreshed.access_token).not.toBe(tokens.access_token);
      expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
      expect(refreshed.scope).toBe('BOOKING_READ PROFILE_READ');

      const active = await client.tokenIntrospection(config, refreshed.access_token);
      expect(active).toMatchObject({ active: true, client_id: registered.clientId, sub: user.id, scope: 'BOOKING_READ PROFILE_READ' });
      expect(active.exp! - active.iat!).toBe(1800);
      expect((await client.tokenIntrospection(config, tokens.refresh_token!)).active).toBe(false); // spent

      await client.tokenRevocation(config, refreshed.refresh_token!, { token_type_hint: 'refresh_token' });
      expect((await client.tokenIntrospection(config, refreshed.refresh_token!)).active).toBe(false);
      expect((await client.tokenIntrospection(config, refreshed.access_token)).active).toBe(false);
      await expect(client.refreshTokenGrant(config, refreshed.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
      // Revoking what is already revoked is still a success (RFC 7009 §2.2).
      await client.tokenRevocation(config, refreshed.refresh_token!);
    },
  );

  it.skipIf(!available)('lets a public client (auth method none) run the code flow with PKCE and revoke its token (RFC 7636, RFC 7009)', async () => {
    const registered = await server.client(user, { kind: 'public' });
    expect(registered.secret).toBeNull();
    const config = await discover(registered, client.None());
    const { callback, pkceCodeVerifier, expectedState } = await authorize(config, registered, 'PROFILE_READ');
    const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier, expectedState });
    expect(tokens.scope).toBe('PROFILE_READ');
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
    await client.tokenRevocation(config, refreshed.access_token, { token_type_hint: 'access_token' });
    expect((await server.api('GET', '/v2/me', refreshed.access_token)).status).toBe(401);
  });

  it.skipIf(!available)('surfaces invalid_grant for a wrong PKCE verifier (RFC 7636 §4.6)', async () => {
    const registered = await server.client(user);
    const config = await discover(registered, client.ClientSecretPost(registered.secret!));
    const { callback, expectedState } = await authorize(config, registered);
    await expect(client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: client.randomPKCECodeVerifier(), expectedState })).rejects.toMatchObject({
      error: 'invalid_grant',
      status: 400,
    });
  });

  it.skipIf(!available)('refuses a wrong secret at introspection with 401, a Basic challenge and invalid_client (RFC 7662 §2.3, RFC 6749 §5.2)', async () => {
    const registered = await server.client(user);
    const config = await discover(registered, client.ClientSecretBasic(`${registered.secret!.slice(0, -6)}AAAAAA`));
    const error = await client.tokenIntrospection(config, 'gat_anything').catch((e: unknown) => e);
    // openid-client reports a 401 that carries WWW-Authenticate as the challenge it is.
    expect(error).toBeInstanceOf(client.WWWAuthenticateChallengeError);
    const challenge = error as client.WWWAuthenticateChallengeError;
    expect(challenge.status).toBe(401);
    expect(challenge.cause[0]!.scheme).toBe('basic');
    expect(await challenge.response.json()).toMatchObject({ error: 'invalid_client' });
  });
});

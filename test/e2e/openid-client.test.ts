// End to end with openid-client v6 (panva), a strict certified client: RFC 8414 discovery,
// authorization code with PKCE (validating state and the RFC 9207 iss), a protected
// resource call, refresh, introspection (RFC 7662) and revocation (RFC 7009), with
// client_secret_post, client_secret_basic and a public client; and Sign in with Gatehouse
// (OpenID Connect), below. When openid-client refuses something here, the server is what is wrong.
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import * as oauth from 'oauth4webapi';
import * as client from 'openid-client';
import { describe, expect, it } from 'vitest';
import { updateClient } from '../../src/services/clients/changes.ts';
import { backends } from '../helpers/backends.ts';
import type { Browser } from '../helpers/browser.ts';
import { useSignedInServer, type TestClient, type TestServer, type TestUser } from '../helpers/server.ts';

describe.each(backends)('openid-client v6 against Gatehouse on $name', ({ name, available }) => {
  let server: TestServer;
  let user: TestUser;
  let browser: Browser;

  useSignedInServer(name, available, 'Grace Hopper', (signedIn) => ({ server, user, browser } = signedIn));

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

  // Sign in with Gatehouse (docs/integrating.md#sign-in-with-gatehouse) as strict certified
  // libraries run it: openid-client's discovery with no option but allowInsecureRequests (the
  // server is on http here), the code flow with PKCE and a nonce, fetchUserInfo; oauth4webapi's
  // OpenID processing beside it; and every ID token's signature checked with jose against jwks_uri.
  describe('Sign in with Gatehouse (OpenID Connect)', () => {
    const discover = (registered: TestClient) =>
      client.discovery(new URL(server.url), registered.clientId, registered.secret ?? undefined, undefined, { execute: [client.allowInsecureRequests] });

    it.skipIf(!available)('OIDC Core 3.1: openid-client discovers, runs the code flow with a nonce, validates the ID token and fetches UserInfo', async () => {
      const registered = await server.client(user, { scopes: ['openid', 'profile', 'email', 'BOOKING_READ'] });
      const config = await discover(registered);
      expect(config.serverMetadata().issuer).toBe(server.url);

      const pkceCodeVerifier = client.randomPKCECodeVerifier();
      const nonce = client.randomNonce();
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: registered.redirectUri,
        scope: 'openid profile email offline_access BOOKING_READ',
        nonce,
        code_challenge: await client.calculatePKCECodeChallenge(pkceCodeVerifier),
        code_challenge_method: 'S256',
      });
      const callback = await server.authorize(browser, Object.fromEntries(url.searchParams));
      // openid-client checks the ID token: iss, aud, exp, iat, nonce, and its signature against jwks_uri.
      const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier, expectedNonce: nonce, idTokenExpected: true });
      // offline_access changes nothing: it is neither granted nor needed for the refresh token.
      expect(tokens.scope).toBe('openid profile email BOOKING_READ');
      expect(tokens.refresh_token).toMatch(/^grt_/);
      const claims = tokens.claims()!;
      expect(claims).toMatchObject({ iss: server.url, sub: user.id, aud: registered.clientId, nonce, name: 'Grace Hopper', email: user.email, email_verified: false });
      expect(typeof claims.auth_time).toBe('number');
      expect(typeof claims.at_hash).toBe('string');

      const info = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
      expect(info).toEqual({ sub: user.id, name: 'Grace Hopper', email: user.email, email_verified: false });

      // jose, against jwks_uri as discovery names it: RS256 by default (OIDC Core 3.1.3.7).
      const jwks = createRemoteJWKSet(new URL(config.serverMetadata().jwks_uri!));
      const verified = await jwtVerify(tokens.id_token!, jwks, { issuer: server.url, audience: registered.clientId, algorithms: ['RS256'] });
      expect(verified.protectedHeader.kid).toBeTruthy();
      expect(verified.payload.sub).toBe(user.id);

      // OIDC RP-Initiated Logout: the library's end-session URL ends the session and comes back.
      await updateClient(server.services, registered.clientId, user.id, { postLogoutRedirectUris: ['https://app.example.com/bye'] });
      const end = client.buildEndSessionUrl(config, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: 'https://app.example.com/bye', state: 'bye' });
      const out = await browser.get(end.pathname + end.search);
      expect(out.location).toBe('https://app.example.com/bye?state=bye');
      expect((await browser.login(user.email, user.password)).status).toBe(303);
    });

    it.skipIf(!available)('OIDC Core 3.1.3.3: oauth4webapi processes the code response as OpenID and validates the ID token', async () => {
      const registered = await server.client(user, { scopes: ['openid', 'email'] });
      const as = await oauth.processDiscoveryResponse(new URL(server.url), await oauth.discoveryRequest(new URL(server.url), { algorithm: 'oidc', [oauth.allowInsecureRequests]: true }));
      const oauthClient: oauth.Client = { client_id: registered.clientId };
      const auth = oauth.ClientSecretPost(registered.secret!);
      const verifier = oauth.generateRandomCodeVerifier();
      const nonce = oauth.generateRandomNonce();
      const callback = await server.authorize(browser, {
        client_id: registered.clientId,
        redirect_uri: registered.redirectUri,
        response_type: 'code',
        scope: 'openid email',
        nonce,
        code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
      });
      const params = oauth.validateAuthResponse(as, oauthClient, callback);
      const response = await oauth.authorizationCodeGrantRequest(as, oauthClient, auth, params, registered.redirectUri, verifier, { [oauth.allowInsecureRequests]: true });
      const result = await oauth.processAuthorizationCodeResponse(as, oauthClient, response, { expectedNonce: nonce, requireIdToken: true });
      const claims = oauth.getValidatedIdTokenClaims(result)!;
      expect(claims).toMatchObject({ sub: user.id, aud: registered.clientId, email: user.email });
      // Only the granted scopes' claims: no name without profile.
      expect(claims).not.toHaveProperty('name');
      const info = await oauth.processUserInfoResponse(as, oauthClient, claims.sub, await oauth.userInfoRequest(as, oauthClient, result.access_token, { [oauth.allowInsecureRequests]: true }));
      expect(info).toEqual({ sub: user.id, email: user.email, email_verified: false });
      expect(decodeProtectedHeader(result.id_token!).alg).toBe('RS256');
    });
  });
});

// End to end with a real, strict client library: oauth4webapi (v3) discovers Gatehouse
// from its RFC 8414 metadata, builds the authorization URL, validates the authorization
// response (state and RFC 9207 `iss`), redeems the code, refreshes and calls /v2/me.
// When oauth4webapi refuses something here, the server is what is wrong.
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateClient } from '../../src/services/clients/changes.ts';
import { backends } from '../helpers/backends.ts';
import { clientKey } from '../helpers/client-keys.ts';
import { startTestServer, type TestClient, type TestServer, type TestUser } from '../helpers/server.ts';

const insecure = { [oauth.allowInsecureRequests]: true } as const;
// Requested out of registry order; granted scopes come back in registry order (docs/rules.md#scope-syntax).
const SCOPES = 'PROFILE_READ BOOKING_READ';
const GRANTED = 'BOOKING_READ PROFILE_READ';

describe.each(backends)('oauth4webapi against Gatehouse on $name', ({ name, available }) => {
  let server: TestServer;
  let as: oauth.AuthorizationServer;
  let developer: TestUser;

  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer(name);
    developer = await server.user();
    const issuer = new URL(server.url);
    const response = await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure });
    as = await oauth.processDiscoveryResponse(issuer, response);
  });
  afterAll(async () => server?.close());

  /** A user logged in through the real login form, ready to meet the consent page. */
  async function loggedIn(): Promise<{ user: TestUser; browser: ReturnType<TestServer['browser']> }> {
    const user = await server.user({ name: 'Grace Hopper' });
    const browser = server.browser();
    const login = await browser.login(user.email, user.password);
    expect(login.status).toBe(303);
    return { user, browser };
  }

  /**
   * Builds the authorization URL with oauth4webapi, walks the consent page as the user
   * (Allow), and returns the callback parameters as validated by validateAuthResponse.
   */
  async function authorizeWithLibrary(
    registered: TestClient,
    client: oauth.Client,
    browser: ReturnType<TestServer['browser']>,
    pkce: { challenge: string } | null,
  ): Promise<{ callback: URL; params: URLSearchParams; state: string }> {
    const state = oauth.generateRandomState();
    const authorizationUrl = new URL(as.authorization_endpoint!);
    authorizationUrl.searchParams.set('client_id', client.client_id);
    authorizationUrl.searchParams.set('redirect_uri', registered.redirectUri);
    authorizationUrl.searchParams.set('response_type', 'code');
    authorizationUrl.searchParams.set('scope', SCOPES);
    authorizationUrl.searchParams.set('state', state);
    if (pkce) {
      authorizationUrl.searchParams.set('code_challenge', pkce.challenge);
      authorizationUrl.searchParams.set('code_challenge_method', 'S256');
    }
    // The harness browser drives the page at the same origin the metadata advertises.
    expect(`${authorizationUrl.origin}${authorizationUrl.pathname}`).toBe(`${server.url}/auth/oauth2/authorize`);
    const callback = await server.authorize(browser, Object.fromEntries(authorizationUrl.searchParams));
    expect(`${callback.origin}${callback.pathname}`).toBe(registered.redirectUri);
    const params = oauth.validateAuthResponse(as, client, callback, state);
    return { callback, params, state };
  }

  async function getMe(accessToken: string): Promise<Response> {
    return oauth.protectedResourceRequest(accessToken, 'GET', new URL(`${server.url}/v2/me`), undefined, undefined, insecure);
  }

  it.skipIf(!available)('discovery: the metadata issuer is the base URL and advertises the endpoints, S256 and iss (RFC 8414, docs/rules.md#authorize-errors)', () => {
    expect(as.issuer).toBe(server.url);
    expect(as.token_endpoint).toBe(`${server.url}/v2/auth/oauth2/token`);
    expect(as.authorization_endpoint).toBe(`${server.url}/auth/oauth2/authorize`);
    expect(as.code_challenge_methods_supported).toEqual(['S256']);
    expect(as.authorization_response_iss_parameter_supported).toBe(true);
    expect(as.token_endpoint_auth_methods_supported).toEqual(
      expect.arrayContaining(['client_secret_post', 'client_secret_basic', 'private_key_jwt', 'none']),
    );
    expect(as.scopes_supported).toHaveLength(50); // the registry's 49 and offline_access
  });

  /** The library's client authentication for `method`; private_key_jwt registers a key first (RFC 7523 §2.2). */
  async function authenticationFor(registered: TestClient, method: 'client_secret_post' | 'client_secret_basic' | 'private_key_jwt'): Promise<oauth.ClientAuth> {
    if (method === 'client_secret_post') return oauth.ClientSecretPost(registered.secret!);
    if (method === 'client_secret_basic') return oauth.ClientSecretBasic(registered.secret!);
    const key = await clientKey('EdDSA');
    await updateClient(server.services, registered.clientId, null, { tokenEndpointAuthMethod: 'private_key_jwt', jwks: key.jwks });
    return oauth.PrivateKeyJwt({ key: key.privateKey, kid: key.kid });
  }

  for (const method of ['client_secret_post', 'client_secret_basic', 'private_key_jwt'] as const) {
    it.skipIf(!available)(
      `confidential client with ${method}: authorize → validateAuthResponse (state, iss) → code exchange → /v2/me → refresh → /v2/me (docs/rules.md#token-endpoint, docs/rules.md#client-authentication)`,
      async () => {
        const registered = await server.client(developer, { kind: 'confidential', scopes: ['PROFILE_READ', 'BOOKING_READ', 'SCHEDULE_READ'] });
        const client: oauth.Client = { client_id: registered.clientId, token_endpoint_auth_method: method };
        const auth = await authenticationFor(registered, method);
        const { user, browser } = await loggedIn();

        // PKCE is optional for confidential clients: the Basic run goes without it.
        const verifier = method !== 'client_secret_basic' ? oauth.generateRandomCodeVerifier() : null;
        const pkce = verifier ? { challenge: await oauth.calculatePKCECodeChallenge(verifier) } : null;
        const { callback, params, state } = await authorizeWithLibrary(registered, client, browser, pkce);
        expect(callback.searchParams.get('iss')).toBe(server.url);
        expect(callback.searchParams.get('state')).toBe(state);
        expect(params.get('code')).toMatch(/^gac_[0-9A-Za-z]{49}$/);

        const codeResponse = await oauth.authorizationCodeGrantRequest(
          as,
          client,
          auth,
          params,
          registered.redirectUri,
          verifier ?? oauth.nopkce,
          insecure,
        );
        expect(codeResponse.headers.get('cache-control')).toBe('no-store');
        const tokens = await oauth.processAuthorizationCodeResponse(as, client, codeResponse);
        expect(tokens.token_type).toBe('bearer');
        expect(tokens.expires_in).toBe(1800);
        expect(tokens.scope).toBe(GRANTED);
        expect(tokens.access_token).toMatch(/^gat_/);
        expect(tokens.refresh_token).toMatch(/^grt_/);

        const me = await getMe(tokens.access_token);
        expect(me.status).toBe(200);
        const profile = (await me.json()) as { status: string; data: { email: string; name: string } };
        expect(profile).toMatchObject({ status: 'success', data: { email: user.email, name: 'Grace Hopper' } });

        const refreshResponse = await oauth.refreshTokenGrantRequest(as, client, auth, tokens.refresh_token!, insecure);
        const refreshed = await oauth.processRefreshTokenResponse(as, client, refreshResponse);
        expect(refreshed.scope).toBe(GRANTED);
        expect(refreshed.expires_in).toBe(1800);
        expect(refreshed.access_token).not.toBe(tokens.access_token);
        expect(refreshed.refresh_token).toMatch(/^grt_/);
        expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);

        const meAgain = await getMe(refreshed.access_token);
        expect(meAgain.status).toBe(200);
        expect(((await meAgain.json()) as { data: { email: string } }).data.email).toBe(user.email);
      },
    );
  }

  it.skipIf(!available)('public client: PKCE S256 with no client secret (None) → code exchange → /v2/me → refresh (docs/rules.md#client-authentication, docs/rules.md#pkce)', async () => {
    const registered = await server.client(developer, { kind: 'public', scopes: ['PROFILE_READ', 'BOOKING_READ'], redirectUris: ['http://127.0.0.1:8765/callback'] });
    expect(registered.secret).toBeNull();
    const client: oauth.Client = { client_id: registered.clientId, token_endpoint_auth_method: 'none' };
    const { user, browser } = await loggedIn();

    const verifier = oauth.generateRandomCodeVerifier();
    const challenge = await oauth.calculatePKCECodeChallenge(verifier);
    const { params } = await authorizeWithLibrary(registered, client, browser, { challenge });

    const response = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, registered.redirectUri, verifier, insecure);
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, response);
    expect(tokens).toMatchObject({ token_type: 'bearer', expires_in: 1800, scope: GRANTED });

    const me = await getMe(tokens.access_token);
    expect(me.status).toBe(200);
    expect(((await me.json()) as { data: { email: string } }).data.email).toBe(user.email);

    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token!, insecure),
    );
    expect(refreshed.scope).toBe(GRANTED);
    expect((await getMe(refreshed.access_token)).status).toBe(200);
  });

  it.skipIf(!available)('public client: a wrong code_verifier surfaces in the library as invalid_grant (docs/rules.md#pkce, docs/rules.md#token-errors)', async () => {
    const registered = await server.client(developer, { kind: 'public', scopes: ['PROFILE_READ'], redirectUris: ['http://localhost:8765/cb'] });
    const client: oauth.Client = { client_id: registered.clientId, token_endpoint_auth_method: 'none' };
    const { browser } = await loggedIn();
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const callback = await server.authorize(browser, {
      client_id: registered.clientId,
      redirect_uri: registered.redirectUri,
      response_type: 'code',
      scope: 'PROFILE_READ',
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    const params = oauth.validateAuthResponse(as, client, callback, state);
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.None(),
      params,
      registered.redirectUri,
      oauth.generateRandomCodeVerifier(),
      insecure,
    );
    const failure = await oauth.processAuthorizationCodeResponse(as, client, response).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(oauth.ResponseBodyError);
    expect((failure as oauth.ResponseBodyError).status).toBe(400);
    expect((failure as oauth.ResponseBodyError).error).toBe('invalid_grant');
  });

  it.skipIf(!available)('a denied consent reaches the library as access_denied with state and iss (docs/rules.md#authorize-errors)', async () => {
    const registered = await server.client(developer, { kind: 'confidential', scopes: ['PROFILE_READ'] });
    const client: oauth.Client = { client_id: registered.clientId };
    const { browser } = await loggedIn();
    const state = oauth.generateRandomState();
    const callback = await server.authorize(
      browser,
      { client_id: registered.clientId, redirect_uri: registered.redirectUri, response_type: 'code', scope: 'PROFILE_READ', state },
      'deny',
    );
    let failure: unknown;
    try {
      oauth.validateAuthResponse(as, client, callback, state);
    } catch (error) {
      failure = error;
    }
    // The library only reaches the error check after accepting iss and state.
    expect(failure).toBeInstanceOf(oauth.AuthorizationResponseError);
    expect((failure as oauth.AuthorizationResponseError).error).toBe('access_denied');
  });

  it.skipIf(!available)('a replayed code and an expired access token are reported in forms the library parses (RFC 6749 §5.2, RFC 6750 §3)', async () => {
    const registered = await server.client(developer, { kind: 'confidential', scopes: ['PROFILE_READ', 'BOOKING_READ'] });
    const client: oauth.Client = { client_id: registered.clientId };
    const auth = oauth.ClientSecretBasic(registered.secret!);
    const { browser } = await loggedIn();
    const { params } = await authorizeWithLibrary(registered, client, browser, null);
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, auth, params, registered.redirectUri, oauth.nopkce, insecure),
    );

    const replay = await oauth.authorizationCodeGrantRequest(as, client, auth, params, registered.redirectUri, oauth.nopkce, insecure);
    const replayError = await oauth.processAuthorizationCodeResponse(as, client, replay).catch((e: unknown) => e);
    expect(replayError).toBeInstanceOf(oauth.ResponseBodyError);
    expect((replayError as oauth.ResponseBodyError).error).toBe('invalid_grant');

    // The replay revoked the tokens of that code (docs/rules.md#code-replay): the library sees a
    // Bearer challenge with error="invalid_token".
    const revoked = await getMe(tokens.access_token).catch((e: unknown) => e);
    expect(revoked).toBeInstanceOf(oauth.WWWAuthenticateChallengeError);
    const [challenge] = (revoked as oauth.WWWAuthenticateChallengeError).cause;
    expect(challenge!.scheme).toBe('bearer');
    expect(challenge!.parameters.error).toBe('invalid_token');
    expect(challenge!.parameters.realm).toBe('gatehouse');
  });

  it.skipIf(!available)('introspection and revocation from the metadata endpoints: active, then revoked with its grant (RFC 7662, RFC 7009)', async () => {
    expect(as.introspection_endpoint).toBe(`${server.url}/v2/auth/oauth2/introspect`);
    expect(as.revocation_endpoint).toBe(`${server.url}/v2/auth/oauth2/revoke`);
    const registered = await server.client(developer, { kind: 'confidential', scopes: ['PROFILE_READ', 'BOOKING_READ'] });
    const client: oauth.Client = { client_id: registered.clientId };
    const auth = oauth.ClientSecretBasic(registered.secret!);
    const { user, browser } = await loggedIn();
    const { params } = await authorizeWithLibrary(registered, client, browser, null);
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, auth, params, registered.redirectUri, oauth.nopkce, insecure),
    );

    const introspect = async (token: string) =>
      oauth.processIntrospectionResponse(as, client, await oauth.introspectionRequest(as, client, auth, token, insecure));
    expect(await introspect(tokens.access_token)).toMatchObject({
      active: true,
      client_id: registered.clientId,
      scope: GRANTED,
      sub: user.id,
      iss: server.url,
    });

    await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, auth, tokens.refresh_token!, insecure));
    expect(await introspect(tokens.refresh_token!)).toEqual({ active: false });
    expect(await introspect(tokens.access_token)).toEqual({ active: false });
    expect(await getMe(tokens.access_token).catch((e: unknown) => e)).toBeInstanceOf(oauth.WWWAuthenticateChallengeError);
    const refresh = await oauth
      .processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, auth, tokens.refresh_token!, insecure))
      .catch((e: unknown) => e);
    expect(refresh).toBeInstanceOf(oauth.ResponseBodyError);
    expect((refresh as oauth.ResponseBodyError).error).toBe('invalid_grant');
  });

  it.skipIf(!available)('after 30 minutes the access token is refused and a refresh gets a working one (docs/rules.md#lifetimes)', async () => {
    const registered = await server.client(developer, { kind: 'confidential', scopes: ['PROFILE_READ', 'BOOKING_READ'] });
    const client: oauth.Client = { client_id: registered.clientId };
    const auth = oauth.ClientSecretPost(registered.secret!);
    const { browser } = await loggedIn();
    const { params } = await authorizeWithLibrary(registered, client, browser, null);
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, auth, params, registered.redirectUri, oauth.nopkce, insecure),
    );
    expect((await getMe(tokens.access_token)).status).toBe(200);

    server.advance(1801);
    const expired = await getMe(tokens.access_token).catch((e: unknown) => e);
    expect(expired).toBeInstanceOf(oauth.WWWAuthenticateChallengeError);
    expect((expired as oauth.WWWAuthenticateChallengeError).cause[0]!.parameters.error).toBe('invalid_token');

    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, auth, tokens.refresh_token!, insecure),
    );
    expect(refreshed.scope).toBe(GRANTED);
    expect((await getMe(refreshed.access_token)).status).toBe(200);
  });
});

// End to end with two strict client libraries that speak RFC 9126: oauth4webapi
// (pushedAuthorizationRequest) and openid-client (buildAuthorizationUrlWithPAR) find the
// PAR endpoint in the RFC 8414 metadata, push the request, send the browser with
// client_id and request_uri only, and redeem the code. A client that requires PAR is used,
// so a request that was not pushed could not have succeeded (docs/rules.md#pushed-authorization).
import * as oauth from 'oauth4webapi';
import * as client from 'openid-client';
import { describe, expect, it } from 'vitest';
import { updateClient } from '../../src/services/clients/changes.ts';
import { backends } from '../helpers/backends.ts';
import type { Browser } from '../helpers/browser.ts';
import { useSignedInServer, type TestClient, type TestServer, type TestUser } from '../helpers/server.ts';

const insecure = { [oauth.allowInsecureRequests]: true } as const;

describe.each(backends)('PAR with real clients against Gatehouse on $name', ({ name, available }) => {
  let server: TestServer;
  let user: TestUser;
  let browser: Browser;

  useSignedInServer(name, available, 'Pushed Pat', (signedIn) => ({ server, user, browser } = signedIn));

  async function parOnlyClient(kind: 'confidential' | 'public'): Promise<TestClient> {
    const registered = await server.client(user, { kind });
    await updateClient(server.services, registered.clientId, null, { requirePushedAuthorizationRequests: true });
    return registered;
  }

  /** The browser at the authorization URL the library built; only client_id and request_uri are in it (RFC 9126 §4). */
  async function consent(url: URL): Promise<URL> {
    expect(`${url.origin}${url.pathname}`).toBe(`${server.url}/auth/oauth2/authorize`);
    expect([...url.searchParams.keys()].sort()).toEqual(['client_id', 'request_uri']);
    return server.authorize(browser, Object.fromEntries(url.searchParams));
  }

  it.skipIf(!available)('oauth4webapi pushes with client_secret_basic, completes the code flow with PKCE and calls /v2/me (RFC 9126 §2, §4)', async () => {
    const registered = await parOnlyClient('confidential');
    const issuer = new URL(server.url);
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
    expect(as.pushed_authorization_request_endpoint).toBe(`${server.url}/v2/auth/oauth2/par`);
    const c: oauth.Client = { client_id: registered.clientId };
    const auth = oauth.ClientSecretBasic(registered.secret!);
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const pushed = await oauth.processPushedAuthorizationResponse(
      as,
      c,
      await oauth.pushedAuthorizationRequest(
        as,
        c,
        auth,
        {
          redirect_uri: registered.redirectUri,
          response_type: 'code',
          scope: 'PROFILE_READ',
          state,
          code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
          code_challenge_method: 'S256',
        },
        insecure,
      ),
    );
    expect(pushed.expires_in).toBe(60);
    const url = new URL(as.authorization_endpoint!);
    url.searchParams.set('client_id', c.client_id);
    url.searchParams.set('request_uri', pushed.request_uri);
    const callback = await consent(url);
    const params = oauth.validateAuthResponse(as, c, callback, state);
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      c,
      await oauth.authorizationCodeGrantRequest(as, c, auth, params, registered.redirectUri, verifier, insecure),
    );
    expect(tokens.scope).toBe('PROFILE_READ');
    const me = await oauth.protectedResourceRequest(tokens.access_token, 'GET', new URL(`${server.url}/v2/me`), undefined, undefined, insecure);
    expect(me.status).toBe(200);
  });

  it.skipIf(!available).each([
    ['a confidential client with client_secret_post', 'confidential'],
    ['a public client', 'public'],
  ] as const)('openid-client builds the URL with PAR for %s and redeems the code (RFC 9126 §2, §4)', async (_label, kind) => {
    const registered = await parOnlyClient(kind);
    const auth = kind === 'public' ? client.None() : client.ClientSecretPost(registered.secret!);
    const config = await client.discovery(new URL(server.url), registered.clientId, registered.secret ?? undefined, auth, {
      algorithm: 'oauth2',
      execute: [client.allowInsecureRequests],
    });
    const pkceCodeVerifier = client.randomPKCECodeVerifier();
    const expectedState = client.randomState();
    const url = await client.buildAuthorizationUrlWithPAR(config, {
      redirect_uri: registered.redirectUri,
      scope: 'PROFILE_READ BOOKING_READ',
      state: expectedState,
      code_challenge: await client.calculatePKCECodeChallenge(pkceCodeVerifier),
      code_challenge_method: 'S256',
    });
    const callback = await consent(url);
    const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier, expectedState });
    expect(tokens.scope).toBe('BOOKING_READ PROFILE_READ');
    const me = await client.fetchProtectedResource(config, tokens.access_token, new URL(`${server.url}/v2/me`), 'GET');
    expect(me.status).toBe(200);
  });
});

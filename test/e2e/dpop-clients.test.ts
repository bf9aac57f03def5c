// End to end with DPoP (RFC 9449; docs/rules.md#dpop) through two real, strict client
// libraries: oauth4webapi's DPoP() handle and openid-client's getDPoPHandle, each with a key
// pair of its own, run the code flow (meeting the token endpoint's nonce, §8), refresh and
// call /v2/me under the DPoP scheme. When a library refuses something here, the server is
// what is wrong.
import * as oauth from 'oauth4webapi';
import * as client from 'openid-client';
import { describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.ts';
import type { Browser } from '../helpers/browser.ts';
import { useSignedInServer, type TestServer, type TestUser } from '../helpers/server.ts';

const insecure = { [oauth.allowInsecureRequests]: true } as const;

describe.each(backends)('DPoP clients against Gatehouse on $name', ({ name, available }) => {
  let server: TestServer;
  let user: TestUser;
  let browser: Browser;

  useSignedInServer(name, available, 'Key Holder', (signedIn) => ({ server, user, browser } = signedIn));

  /** Runs a library request, and once more when the server asks for its nonce (RFC 9449 §8). */
  async function withNonce<T>(attempt: () => Promise<T>): Promise<T> {
    try {
      return await attempt();
    } catch (error) {
      if (!oauth.isDPoPNonceError(error)) throw error;
      return attempt();
    }
  }

  // oauth4webapi signs with an Ed25519 key as alg Ed25519 (RFC 9864), not EdDSA.
  for (const alg of ['ES256', 'Ed25519'] as const) {
    it.skipIf(!available)(`oauth4webapi DPoP() with an ${alg} key: a public client with PKCE gets DPoP tokens, calls /v2/me with proofs, refreshes with its key (RFC 9449 §5, §7)`, async () => {
      const registered = await server.client(user, { kind: 'public', scopes: ['PROFILE_READ'], redirectUris: ['http://127.0.0.1:8765/callback'] });
      const issuer = new URL(server.url);
      const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
      expect(as.dpop_signing_alg_values_supported).toEqual(['ES256', 'EdDSA', 'Ed25519', 'RS256', 'PS256']);
      const c: oauth.Client = { client_id: registered.clientId, token_endpoint_auth_method: 'none' };
      const DPoP = oauth.DPoP(c, await oauth.generateKeyPair(alg));

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
      const params = oauth.validateAuthResponse(as, c, callback, state);
      const tokens = await withNonce(async () =>
        oauth.processAuthorizationCodeResponse(as, c, await oauth.authorizationCodeGrantRequest(as, c, oauth.None(), params, registered.redirectUri, verifier, { DPoP, ...insecure })),
      );
      expect(tokens.token_type).toBe('dpop');

      const me = await oauth.protectedResourceRequest(tokens.access_token, 'GET', new URL(`${server.url}/v2/me`), undefined, undefined, { DPoP, ...insecure });
      expect(me.status).toBe(200);
      expect(((await me.json()) as { data: { email: string } }).data.email).toBe(user.email);

      const refreshed = await withNonce(async () =>
        oauth.processRefreshTokenResponse(as, c, await oauth.refreshTokenGrantRequest(as, c, oauth.None(), tokens.refresh_token!, { DPoP, ...insecure })),
      );
      expect(refreshed.token_type).toBe('dpop');
      const again = await oauth.protectedResourceRequest(refreshed.access_token, 'GET', new URL(`${server.url}/v2/me`), undefined, undefined, { DPoP, ...insecure });
      expect(again.status).toBe(200);
    });
  }

  it.skipIf(!available)('openid-client getDPoPHandle: a confidential client runs the code flow, refreshes and fetches /v2/me with DPoP (RFC 9449 §5, §7)', async () => {
    const registered = await server.client(user);
    const config = await client.discovery(new URL(server.url), registered.clientId, registered.secret!, client.ClientSecretPost(registered.secret!), {
      algorithm: 'oauth2',
      execute: [client.allowInsecureRequests],
    });
    const DPoP = client.getDPoPHandle(config, await client.randomDPoPKeyPair('ES256'));
    const pkceCodeVerifier = client.randomPKCECodeVerifier();
    const expectedState = client.randomState();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: registered.redirectUri,
      scope: 'PROFILE_READ',
      state: expectedState,
      code_challenge: await client.calculatePKCECodeChallenge(pkceCodeVerifier),
      code_challenge_method: 'S256',
    });
    const callback = await server.authorize(browser, Object.fromEntries(url.searchParams));
    // openid-client retries once by itself when the server asks for its nonce (RFC 9449 §8).
    const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier, expectedState }, undefined, { DPoP });
    expect(tokens.token_type.toLowerCase()).toBe('dpop');

    const me = await client.fetchProtectedResource(config, tokens.access_token, new URL(`${server.url}/v2/me`), 'GET', undefined, undefined, { DPoP });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { data: { email: string } }).data.email).toBe(user.email);

    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!, undefined, { DPoP });
    expect(refreshed.token_type.toLowerCase()).toBe('dpop');
    const again = await client.fetchProtectedResource(config, refreshed.access_token, new URL(`${server.url}/v2/me`), 'GET', undefined, undefined, { DPoP });
    expect(again.status).toBe(200);
  });
});

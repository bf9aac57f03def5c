// The sender-constrained, pushed and high-security flows end to end, through real, strict client
// libraries over real HTTP, on one signed-in server per database. When a library refuses
// something here, the server is what is wrong.
// - PAR (RFC 9126; docs/rules.md#pushed-authorization): oauth4webapi (pushedAuthorizationRequest)
//   and openid-client (buildAuthorizationUrlWithPAR) find the PAR endpoint in the RFC 8414
//   metadata, push the request, send the browser with client_id and request_uri only, and redeem
//   the code. A client that requires PAR is used, so a request that was not pushed could not have
//   succeeded.
// - DPoP (RFC 9449; docs/rules.md#dpop): oauth4webapi's DPoP() handle and openid-client's
//   getDPoPHandle, each with a key pair of its own, run the code flow (meeting the token
//   endpoint's nonce, §8), refresh and call /v2/me under the DPoP scheme.
// - The FAPI 2.0 Security Profile per client (docs/rules.md#fapi2): each of the profile's
//   authorization-server rules that Gatehouse enforces for a client that opts in is refused when
//   broken, and openid-client — a certified FAPI 2.0 relying party library — completes the
//   profile's flow (PAR, PKCE S256, DPoP, private_key_jwt) unchanged.
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import * as oauth from 'oauth4webapi';
import * as client from 'openid-client';
import { describe, expect, it } from 'vitest';
import { updateClient } from '../../src/services/clients/changes.ts';
import { createClient } from '../../src/services/clients/registration.ts';
import { backends } from '../helpers/backends.ts';
import { codeOf, storesOver } from '../helpers/stores.ts';
import type { Browser } from '../helpers/browser.ts';
import { startTestServer, useSignedInServer, type TestClient, type TestServer, type TestUser } from '../helpers/server.ts';
import { assertionFields, clientKey, signAssertion, type ClientKey } from '../helpers/client-keys.ts';

const insecure = { [oauth.allowInsecureRequests]: true } as const;

describe.each(backends)('pushed, sender-constrained and FAPI 2.0 clients against Gatehouse on $name', ({ name, available }) => {
  let server: TestServer;
  let user: TestUser;
  let browser: Browser;

  useSignedInServer(name, available, 'High Value', (signedIn) => ({ server, user, browser } = signedIn));

  describe('PAR (RFC 9126) through oauth4webapi and openid-client', () => {
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

  describe('DPoP (RFC 9449) through oauth4webapi and openid-client', () => {
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

  describe('the FAPI 2.0 Security Profile', () => {
    /** FAPI 2.0 §5.3.2.1: a client of the profile authenticates by private_key_jwt, so it registers its key. */
    const keys = new Map<string, ClientKey>();
    async function fapiClient(alg = 'ES256', scopes?: string[]): Promise<TestClient> {
      const registered = await server.client(user, scopes === undefined ? {} : { scopes });
      const key = await clientKey(alg);
      keys.set(registered.clientId, key);
      await updateClient(server.services, registered.clientId, null, { fapi2: true, tokenEndpointAuthMethod: 'private_key_jwt', jwks: key.jwks });
      return registered;
    }

    const authentication = async (c: TestClient) => assertionFields(await signAssertion(keys.get(c.clientId)!, c.clientId, server.url));
    const push = async (c: TestClient, params: Record<string, string>) =>
      fetch(`${server.url}/v2/auth/oauth2/par`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ client_id: c.clientId, response_type: 'code', redirect_uri: c.redirectUri, scope: 'PROFILE_READ', state: 's', ...(await authentication(c)), ...params }),
      });
    const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

    it.skipIf(!available)('FAPI 2.0 §5.3.2.2: an authorization request not pushed is refused, invalid_request, sent back to the client', async () => {
      const c = await fapiClient();
      const res = await browser.get(`/auth/oauth2/authorize?${new URLSearchParams({ client_id: c.clientId, redirect_uri: c.redirectUri, response_type: 'code', scope: 'PROFILE_READ', state: 's', code_challenge: challenge, code_challenge_method: 'S256' })}`);
      expect(res.status).toBe(303);
      const back = new URL(res.headers.get('location')!);
      expect(back.searchParams.get('error')).toBe('invalid_request');
      expect(back.searchParams.get('error_description')).toMatch(/pushed authorization requests/);
    });

    it.skipIf(!available)('FAPI 2.0 §5.3.2.2: a pushed request of the confidential client without PKCE S256 is refused, naming the profile', async () => {
      const c = await fapiClient();
      const res = await push(c, {});
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: 'invalid_request', error_description: expect.stringContaining('FAPI 2.0') });
      // The same client without the profile may push without PKCE: the rule is the profile's.
      await updateClient(server.services, c.clientId, null, { fapi2: false });
      expect((await push(c, {})).status).toBe(201);
    });

    it.skipIf(!available)('FAPI 2.0 §5.3.2.1: a token request without a DPoP proof is refused, so no bearer token is ever issued to the client', async () => {
      const c = await fapiClient();
      const pushed = await push(c, { code_challenge: challenge, code_challenge_method: 'S256' });
      expect(pushed.status).toBe(201);
      const { request_uri } = (await pushed.json()) as { request_uri: string };
      const callback = await server.authorize(browser, { client_id: c.clientId, request_uri });
      const res = await server.token({
        grant_type: 'authorization_code',
        code: callback.searchParams.get('code')!,
        redirect_uri: c.redirectUri,
        client_id: c.clientId,
        ...(await authentication(c)),
        code_verifier: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk',
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'invalid_request', error_description: expect.stringContaining('FAPI 2.0') });
    });

    it.skipIf(!available)('FAPI 2.0 §5.3.2.1: the code of a client of the profile lives at most 60 s, even where AUTH_CODE_TTL_SECONDS allows more', async () => {
      const longer = await startTestServer(name, { AUTH_CODE_TTL_SECONDS: '300' }, server);
      try {
        const c = await fapiClient();
        const plain = await server.client(user);
        const pushed = await push(c, { code_challenge: challenge, code_challenge_method: 'S256' });
        const { request_uri } = (await pushed.json()) as { request_uri: string };
        const longerBrowser = longer.browser();
        expect((await longerBrowser.login(user.email, user.password)).status).toBe(303);
        const fapiCode = (await longer.authorize(longerBrowser, { client_id: c.clientId, request_uri })).searchParams.get('code')!;
        const plainCode = (await longer.authorize(longerBrowser, { client_id: plain.clientId, redirect_uri: plain.redirectUri, response_type: 'code', scope: 'PROFILE_READ', state: 's' })).searchParams.get('code')!;
        const lifetime = async (code: string) => {
          const stored = await codeOf(storesOver(longer.database.handle.db), code);
          return (stored!.expiresAt - stored!.createdAt) / 1000;
        };
        expect(await lifetime(fapiCode)).toBe(60);
        expect(await lifetime(plainCode)).toBe(300);
      } finally {
        await longer.close();
      }
    });

    it.skipIf(!available)('FAPI 2.0 §5.3.2.1: a client of the profile authenticates by private_key_jwt: its secret is refused, and opting in without keys is refused naming the field', async () => {
      const c = await fapiClient();
      const res = await server.token({ grant_type: 'refresh_token', refresh_token: 'grt_unknown', client_id: c.clientId, client_secret: c.secret! });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ error: 'invalid_client', error_description: expect.stringContaining('private_key_jwt') });
      const plain = await server.client(user);
      await expect(updateClient(server.services, plain.clientId, null, { fapi2: true })).rejects.toMatchObject({ field: 'fapi2', message: expect.stringContaining('requires private_key_jwt') });
      await expect(createClient(server.services, { ownerId: user.id, name: 'Secret FAPI', kind: 'confidential', redirectUris: ['https://app.example.com/cb'], scopes: ['PROFILE_READ'], fapi2: true })).rejects.toMatchObject({ field: 'fapi2' });
    });

    it.skipIf(!available)('FAPI 2.0 §5.3.2.1: only a confidential client may follow the profile; a public one is refused, naming the field', async () => {
      const publicClient = await server.client(user, { kind: 'public', redirectUris: ['http://127.0.0.1:8765/callback'] });
      await expect(updateClient(server.services, publicClient.clientId, null, { fapi2: true })).rejects.toMatchObject({ field: 'fapi2', message: expect.stringContaining('confidential') });
      await expect(createClient(server.services, { ownerId: user.id, name: 'Public FAPI', kind: 'public', redirectUris: ['http://127.0.0.1:8765/cb'], scopes: ['PROFILE_READ'], fapi2: true })).rejects.toMatchObject({ field: 'fapi2' });
      expect((await server.services.stores.clients.find(publicClient.clientId))?.fapi2).toBe(false);
    });

    it.skipIf(!available)('FAPI 2.0 5.4.1, OIDC Core 3.1.3.7: a client of the profile signs in with OpenID Connect and gets a PS256 ID token, never RS256, that verifies against jwks_uri; DPoP-bound UserInfo answers it', async () => {
      const c = await fapiClient('ES256', ['openid', 'email', 'PROFILE_READ']);
      const key = keys.get(c.clientId)!;
      // OpenID Connect discovery, with no algorithm option.
      const config = await client.discovery(new URL(server.url), c.clientId, undefined, client.PrivateKeyJwt({ key: key.privateKey, kid: key.kid }), { execute: [client.allowInsecureRequests] });
      const DPoP = client.getDPoPHandle(config, await client.randomDPoPKeyPair('ES256'));
      const pkceCodeVerifier = client.randomPKCECodeVerifier();
      const nonce = client.randomNonce();
      const url = await client.buildAuthorizationUrlWithPAR(
        config,
        { redirect_uri: c.redirectUri, scope: 'openid email', nonce, code_challenge: await client.calculatePKCECodeChallenge(pkceCodeVerifier), code_challenge_method: 'S256' },
        { DPoP },
      );
      const callback = await server.authorize(browser, Object.fromEntries(url.searchParams));
      const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier, expectedNonce: nonce, idTokenExpected: true }, undefined, { DPoP });
      expect(decodeProtectedHeader(tokens.id_token!).alg).toBe('PS256');
      const jwks = createRemoteJWKSet(new URL(config.serverMetadata().jwks_uri!));
      const { payload } = await jwtVerify(tokens.id_token!, jwks, { issuer: server.url, audience: c.clientId, algorithms: ['PS256'] });
      expect(payload).toMatchObject({ sub: user.id, nonce, email: user.email });
      const info = await client.fetchUserInfo(config, tokens.access_token, user.id, { DPoP });
      expect(info).toEqual({ sub: user.id, email: user.email, email_verified: false });
    });

    it.skipIf(!available)('openid-client completes the profile: PAR with DPoP and private_key_jwt, PKCE S256, code exchange through the nonce, a DPoP-bound call to /v2/me, refreshes that keep the refresh token', async () => {
      const c = await fapiClient('PS256');
      const key = keys.get(c.clientId)!;
      const config = await client.discovery(new URL(server.url), c.clientId, undefined, client.PrivateKeyJwt({ key: key.privateKey, kid: key.kid }), { algorithm: 'oauth2', execute: [client.allowInsecureRequests] });
      const DPoP = client.getDPoPHandle(config, await client.randomDPoPKeyPair('ES256'));
      const pkceCodeVerifier = client.randomPKCECodeVerifier();
      const expectedState = client.randomState();
      const url = await client.buildAuthorizationUrlWithPAR(
        config,
        { redirect_uri: c.redirectUri, scope: 'PROFILE_READ', state: expectedState, code_challenge: await client.calculatePKCECodeChallenge(pkceCodeVerifier), code_challenge_method: 'S256' },
        { DPoP },
      );
      expect([...url.searchParams.keys()].sort()).toEqual(['client_id', 'request_uri']);
      const callback = await server.authorize(browser, Object.fromEntries(url.searchParams));
      expect(callback.searchParams.get('iss')).toBe(server.url);
      const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier, expectedState }, undefined, { DPoP });
      expect(tokens.token_type.toLowerCase()).toBe('dpop');
      const me = await client.fetchProtectedResource(config, tokens.access_token, new URL(`${server.url}/v2/me`), 'GET', undefined, undefined, { DPoP });
      expect(me.status).toBe(200);
      // The same token without its key is worth nothing.
      expect((await server.api('GET', '/v2/me', tokens.access_token)).status).toBe(401);

      // FAPI 2.0 §5.3.2.1: no rotation. A refresh answers a new DPoP-bound access token and the
      // same refresh token, which keeps working; a lost answer is simply asked for again.
      const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!, undefined, { DPoP });
      expect(refreshed.token_type.toLowerCase()).toBe('dpop');
      expect(refreshed.refresh_token).toBe(tokens.refresh_token);
      expect(refreshed.access_token).not.toBe(tokens.access_token);
      const again = await client.refreshTokenGrant(config, tokens.refresh_token!, undefined, { DPoP });
      expect(again.refresh_token).toBe(tokens.refresh_token);
      expect((await client.fetchProtectedResource(config, again.access_token, new URL(`${server.url}/v2/me`), 'GET', undefined, undefined, { DPoP })).status).toBe(200);
      // The grant is still one: revoking the refresh token ends it.
      const revoke = await fetch(`${server.url}/v2/auth/oauth2/revoke`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token: tokens.refresh_token!, client_id: c.clientId, ...(await authentication(c)) }) });
      expect(revoke.status).toBe(200);
      await expect(client.refreshTokenGrant(config, tokens.refresh_token!, undefined, { DPoP })).rejects.toMatchObject({ error: 'invalid_grant' });
    });
  });
});

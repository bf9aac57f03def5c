// Sign in with Gatehouse (docs/integrating.md#sign-in-with-gatehouse) as strict certified
// libraries run it: openid-client v6's discovery with no option but allowInsecureRequests (the
// server is on http here), the code flow with PKCE and a nonce, fetchUserInfo; oauth4webapi's
// OpenID processing; and every ID token's signature checked with jose against jwks_uri.
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import * as oauth from 'oauth4webapi';
import * as client from 'openid-client';
import { describe, expect, it } from 'vitest';
import { updateClient } from '../../src/services/clients/changes.ts';
import { backends } from '../helpers/backends.ts';
import type { Browser } from '../helpers/browser.ts';
import { useSignedInServer, type TestClient, type TestServer, type TestUser } from '../helpers/server.ts';

describe.each(backends)('Sign in with Gatehouse on $name', ({ name, available }) => {
  let server: TestServer;
  let user: TestUser;
  let browser: Browser;

  useSignedInServer(name, available, 'Grace Hopper', (signedIn) => ({ server, user, browser } = signedIn));

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

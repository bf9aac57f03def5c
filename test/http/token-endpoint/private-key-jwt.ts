// private_key_jwt client authentication (RFC 7523 §2.2, §3; OpenID Connect Core §9; FAPI 2.0
// §5.3.2.1; docs/rules.md#client-authentication) over real HTTP, on every backend: a client that
// registered its public keys authenticates at the token, PAR, revocation and introspection
// endpoints with a signed assertion, and each way an attacker would forge, replay, retarget or
// mix an assertion is refused with invalid_client saying what to fix, never echoing it. Keys
// replaced by the operator's command apply at once, and leave issued tokens alone.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { updateClient } from '../../../src/services/clients/changes.ts';
import type { Backend } from '../../helpers/backends.ts';
import { runCli } from '../../helpers/cli.ts';
import { assertionFields, CLIENT_ASSERTION_TYPE, clientKey, signAssertion, type AssertionClaims, type ClientKey } from '../../helpers/client-keys.ts';
import type { TestClient, TestServer } from '../../helpers/server.ts';
import { basic, expectOAuthError, expectTokens, FORM, pkcePair, TOKEN, type Reply, type TokenEndpoint } from './setup.ts';

const PAR = '/v2/auth/oauth2/par';
const REVOKE = '/v2/auth/oauth2/revoke';
const INTROSPECT = '/v2/auth/oauth2/introspect';

export function privateKeyJwtOverHttp({ available }: Backend, t: TokenEndpoint): void {
  describe('private_key_jwt client authentication (RFC 7523)', () => {
    let server: TestServer;
    let issuer: string;
    beforeAll(() => {
      if (!available) return;
      server = t.server;
      issuer = server.url;
    });

    async function post(path: string, body: Record<string, string>, headers: Record<string, string> = {}): Promise<Reply> {
      const res = await server.post(path, new URLSearchParams(body).toString(), { ...FORM, ...headers });
      return { status: res.status, headers: res.headers, body: res.body };
    }

    /** An approved confidential client registered for private_key_jwt with one key. */
    async function keyClient(alg = 'ES256', extra: { fapi2?: boolean } = {}): Promise<{ client: TestClient; key: ClientKey }> {
      const client = await t.approvedClient();
      const key = await clientKey(alg);
      await updateClient(server.services, client.clientId, null, { tokenEndpointAuthMethod: 'private_key_jwt', jwks: key.jwks, ...extra });
      return { client, key };
    }

    const assertion = (key: ClientKey, client: TestClient, claims: AssertionClaims = {}, header: Record<string, unknown> = {}) =>
      signAssertion(key, client.clientId, issuer, claims, header);

    /** A code exchange authenticated by `fields` (no secret), with PKCE. */
    async function exchange(client: TestClient, fields: Record<string, string>): Promise<Reply> {
      const pkce = pkcePair();
      const code = await t.code(client, { code_challenge: pkce.challenge, code_challenge_method: 'S256' });
      return post(TOKEN, { grant_type: 'authorization_code', code, redirect_uri: client.redirectUri, code_verifier: pkce.verifier, ...fields });
    }

    /** A refresh-token request authenticated by an assertion: the cheapest request that authenticates the client. */
    const refreshWith = (fields: Record<string, string>) => post(TOKEN, { grant_type: 'refresh_token', refresh_token: 'grt_unknown', ...fields });

    function expectRefused(reply: Reply, description: RegExp | string, sent?: string): void {
      expectOAuthError(reply, 401, 'invalid_client', description);
      if (sent !== undefined) expect(JSON.stringify(reply.body)).not.toContain(sent);
    }

    it.skipIf(!available)('RFC 7523 §2.2: an assertion signed with the registered key authenticates a code exchange, a refresh, a pushed request, a revocation and an introspection', async () => {
      for (const alg of ['ES256', 'PS256', 'EdDSA', 'Ed25519', 'RS256']) {
        const { client, key } = await keyClient(alg);
        const tokens = await exchange(client, { client_id: client.clientId, ...assertionFields(await assertion(key, client)) });
        expect(tokens.status, alg).toBe(200);
        expect(tokens.body, alg).toMatchObject({ token_type: 'bearer', expires_in: 1800, access_token: expect.any(String), refresh_token: expect.any(String) });
        const refresh = tokens.body!.refresh_token as string;
        const refreshed = await post(TOKEN, { grant_type: 'refresh_token', refresh_token: refresh, ...assertionFields(await assertion(key, client)) });
        expect(refreshed.status, alg).toBe(200);
        const pushed = await post(PAR, { response_type: 'code', redirect_uri: client.redirectUri, scope: 'PROFILE_READ', ...assertionFields(await assertion(key, client)) });
        expect(pushed.status, alg).toBe(201);
        const access = refreshed.body!.access_token as string;
        const introspected = await post(INTROSPECT, { token: access, ...assertionFields(await assertion(key, client)) });
        expect(introspected.body, alg).toMatchObject({ active: true, client_id: client.clientId });
        const revoked = await post(REVOKE, { token: refreshed.body!.refresh_token as string, ...assertionFields(await assertion(key, client)) });
        expect(revoked.status, alg).toBe(200);
        expect((await t.me(access)).status, alg).toBe(401);
      }
    });

    it.skipIf(!available)('RFC 7523 §3 point 3: aud must be the issuer identifier alone: another audience, the token endpoint URL, or the issuer beside another is refused; the issuer in a one-element array is accepted', async () => {
      const { client, key } = await keyClient();
      const evil = await assertion(key, client, { aud: 'https://evil.example' });
      expectRefused(await refreshWith(assertionFields(evil)), `aud must be the issuer identifier ${issuer} alone`, evil);
      expectRefused(await refreshWith(assertionFields(await assertion(key, client, { aud: `${issuer}${TOKEN}` }))), /not the token endpoint URL/);
      expectRefused(await refreshWith(assertionFields(await assertion(key, client, { aud: [issuer, 'https://evil.example'] }))), /alone/);
      const single = await refreshWith(assertionFields(await assertion(key, client, { aud: [issuer] })));
      expectOAuthError(single, 400, 'invalid_grant'); // authenticated: the refresh token is what is wrong
    });

    it.skipIf(!available)('RFC 7523 §3 points 4, 5, 6: an expired assertion, one without exp, one valid for hours, one not yet valid are refused', async () => {
      const { client, key } = await keyClient();
      expectRefused(await refreshWith(assertionFields(await assertion(key, client, { expIn: -120, iat: Math.floor(Date.now() / 1000) - 180 }))), /expired/);
      expectRefused(await refreshWith(assertionFields(await assertion(key, client, { expIn: null }))), /must carry exp/);
      expectRefused(await refreshWith(assertionFields(await assertion(key, client, { expIn: 3 * 3600 }))), /more than 300 seconds ahead/);
      expectRefused(await refreshWith(assertionFields(await assertion(key, client, { nbf: Math.floor(Date.now() / 1000) + 600 }))), /nbf is in the future/);
      expectRefused(await refreshWith(assertionFields(await assertion(key, client, { iat: Math.floor(Date.now() / 1000) + 600 }))), /iat is in the future/);
    });

    it.skipIf(!available)('RFC 7523 §3 point 7: a replayed assertion is refused, at the same or another endpoint; one without jti is refused', async () => {
      const { client, key } = await keyClient();
      const once = await assertion(key, client);
      const first = await exchange(client, assertionFields(once));
      expect(first.status).toBe(200);
      expectRefused(await exchange(client, assertionFields(once)), /already used: make a new one, with a new jti/, once);
      expectRefused(await post(INTROSPECT, { token: first.body!.access_token as string, ...assertionFields(once) }), /already used/);
      expectRefused(await refreshWith(assertionFields(await assertion(key, client, { jti: null }))), /must carry a jti/);
      // A jti is spent per client: another client may use the same value.
      const other = await keyClient();
      expectOAuthError(await refreshWith(assertionFields(await assertion(other.key, other.client, { jti: 'shared-jti' }))), 400, 'invalid_grant');
      expectOAuthError(await refreshWith(assertionFields(await assertion(key, client, { jti: 'shared-jti' }))), 400, 'invalid_grant');
    });

    it.skipIf(!available)('RFC 7523 §3 point 9: an assertion signed with another key, with alg none, or with HS256 keyed by the client secret is refused', async () => {
      const { client, key } = await keyClient();
      const stranger = await clientKey();
      expectRefused(await refreshWith(assertionFields(await signAssertion({ ...stranger, kid: key.kid }, client.clientId, issuer))), /signature does not verify with the keys registered/);
      expectRefused(await refreshWith(assertionFields(await signAssertion(stranger, client.clientId, issuer))), /none of the keys registered for this client matches/);
      const claims = { iss: client.clientId, sub: client.clientId, aud: issuer, exp: Math.floor(Date.now() / 1000) + 60, jti: 'x' };
      const b64 = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');
      const none = `${b64({ alg: 'none' })}.${b64(claims)}.`;
      expectRefused(await refreshWith(assertionFields(none)), /sign it with one of PS256, ES256, EdDSA, Ed25519, RS256/);
      const hs = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(client.secret!));
      expectRefused(await refreshWith(assertionFields(hs)), /never none or a shared secret/, client.secret!);
    });

    it.skipIf(!available)('RFC 7523 §3 points 1, 2: iss and sub must both be the client_id; an assertion for client A sent with client_id B is refused', async () => {
      const a = await keyClient();
      const b = await keyClient();
      expectRefused(await refreshWith({ client_id: b.client.clientId, ...assertionFields(await assertion(a.key, a.client)) }), /client_id differs from the sub of the client_assertion/);
      // B's keys do not check A's sub: signing with B's key but claiming A is A's keys' business.
      expectRefused(await refreshWith(assertionFields(await signAssertion(b.key, a.client.clientId, issuer))), /none of the keys registered for this client matches/);
      expectRefused(await refreshWith(assertionFields(await assertion(a.key, a.client, { iss: b.client.clientId }))), /iss must be the client_id/);
    });

    it.skipIf(!available)('docs/rules.md#client-authentication: a private_key_jwt client cannot use its secret; a secret client cannot use an assertion', async () => {
      const { client } = await keyClient();
      expectRefused(await refreshWith({ client_id: client.clientId, client_secret: client.secret! }), /registered for private_key_jwt: authenticate with a client_assertion/);
      const basicReply = await post(TOKEN, { grant_type: 'refresh_token', refresh_token: 'grt_unknown' }, { authorization: basic(client.clientId, client.secret!) });
      expectRefused(basicReply, /registered for private_key_jwt/);
      const secretClient = await t.approvedClient();
      const stray = await clientKey();
      expectRefused(await refreshWith(assertionFields(await signAssertion(stray, secretClient.clientId, issuer))), /not registered for private_key_jwt: register its public keys/);
    });

    it.skipIf(!available)('RFC 6749 §2.3: an assertion with a secret, or with HTTP Basic, is invalid_request; a half-sent assertion is invalid_request; an unknown assertion type is invalid_client', async () => {
      const { client, key } = await keyClient();
      const both = await refreshWith({ client_secret: client.secret!, ...assertionFields(await assertion(key, client)) });
      expectOAuthError(both, 400, 'invalid_request', /use one client authentication method/);
      expect(JSON.stringify(both.body)).not.toContain(client.secret!);
      const withBasic = await post(TOKEN, { grant_type: 'refresh_token', refresh_token: 'grt_unknown', ...assertionFields(await assertion(key, client)) }, { authorization: basic(client.clientId, client.secret!) });
      expectOAuthError(withBasic, 400, 'invalid_request', /not both/);
      expectOAuthError(await refreshWith({ client_assertion: await assertion(key, client) }), 400, 'invalid_request', `client_assertion_type=${CLIENT_ASSERTION_TYPE}`);
      expectOAuthError(await refreshWith({ client_assertion_type: CLIENT_ASSERTION_TYPE }), 400, 'invalid_request', /without client_assertion/);
      expectRefused(await refreshWith({ client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:saml2-bearer', client_assertion: await assertion(key, client) }), /client_assertion_type must be/);
      expectRefused(await refreshWith(assertionFields('not-a-jwt')), /must be a JWT whose sub is the client_id/);
    });

    it.skipIf(!available)('docs/rules.md#client-authentication: keys replaced with `gatehouse clients update --jwks-file` apply at once: the old key\'s assertion is invalid_client, the new key\'s authenticates, and the tokens issued before keep working, refreshed with the new key', async () => {
      const gatehouse = (...args: string[]) => runCli(args, { env: { DATABASE_URL: server.database.url, ...server.database.env } });
      const client = await t.approvedClient();
      const oldKey = await clientKey();
      const newKey = await clientKey();
      const dir = mkdtempSync(join(tmpdir(), 'gatehouse-jwks-'));
      try {
        const jwksFile = join(dir, 'jwks.json');
        writeFileSync(jwksFile, JSON.stringify(oldKey.jwks));
        const registered = await gatehouse('clients', 'update', client.clientId, '--auth-method', 'private_key_jwt', '--jwks-file', jwksFile, '--json');
        expect(registered.code, registered.stderr).toBe(0);
        const issued = expectTokens(await exchange(client, assertionFields(await assertion(oldKey, client))), 'PROFILE_READ');
        expect((await t.me(issued.access)).status).toBe(200);

        // The operator replaces the key set: the new key alone.
        writeFileSync(jwksFile, JSON.stringify(newKey.jwks));
        const replaced = await gatehouse('clients', 'update', client.clientId, '--jwks-file', jwksFile, '--json');
        expect(replaced.code, replaced.stderr).toBe(0);
        expect(JSON.parse(replaced.stdout)).toMatchObject({ client_id: client.clientId, token_endpoint_auth_method: 'private_key_jwt', jwks: newKey.jwks });

        // The old key is refused at once, by its own kid or by the new key's.
        expectRefused(await post(TOKEN, { grant_type: 'refresh_token', refresh_token: issued.refresh, ...assertionFields(await assertion(oldKey, client)) }), /none of the keys registered for this client matches/);
        expectRefused(await post(INTROSPECT, { token: issued.access, ...assertionFields(await signAssertion({ ...oldKey, kid: newKey.kid }, client.clientId, issuer)) }), /signature does not verify with the keys registered/);
        expectRefused(await exchange(client, assertionFields(await assertion(oldKey, client))), /none of the keys registered/);

        // What was issued with the old key stays valid: the access token reaches the API, and
        // the refresh token the refused request carried was not spent.
        const me = await t.me(issued.access);
        expect(me.status).toBe(200);
        expect(me.body.data.email).toBe(t.user.email);
        const introspected = await post(INTROSPECT, { token: issued.access, ...assertionFields(await assertion(newKey, client)) });
        expect(introspected.body).toMatchObject({ active: true, client_id: client.clientId });
        const refreshed = expectTokens(await post(TOKEN, { grant_type: 'refresh_token', refresh_token: issued.refresh, ...assertionFields(await assertion(newKey, client)) }), 'PROFILE_READ');
        expect((await t.me(refreshed.access)).status).toBe(200);
        const fresh = await exchange(client, assertionFields(await assertion(newKey, client)));
        expect(fresh.status).toBe(200);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it.skipIf(!available)('FAPI 2.0 §5.4.1: a client of the profile may not sign with RS256; FAPI 2.0 §5.3.2.1: a profile client of before keys is told to register them when it sends its secret', async () => {
      const { client, key } = await keyClient('RS256', { fapi2: true });
      expectRefused(await refreshWith(assertionFields(await assertion(key, client))), /sign it with one of PS256, ES256, EdDSA, Ed25519 \(/);
      const old = await t.approvedClient();
      // As a client that opted in before private_key_jwt existed was left by the upgrade.
      await server.services.stores.clients.update(old.clientId, { fapi2: true, updatedAt: Date.now() });
      expectRefused(await refreshWith({ client_id: old.clientId, client_secret: old.secret! }), /FAPI 2.0 Security Profile, which requires private_key_jwt: register its public keys/);
    });
  });
}

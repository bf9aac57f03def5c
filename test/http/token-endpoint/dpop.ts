// DPoP (RFC 9449; docs/rules.md#dpop) over real HTTP, on every backend: proofs at the token
// endpoint (§5) with its nonces (§8), the code bound by dpop_jkt (§10), refresh tokens of
// public clients (§5), the resource servers /v2 and /mcp (§7), and each way an attacker
// would replay, move or mint a proof. Proofs are made with jose, as a client would make them.
import { createHash, randomUUID } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { updateClient } from '../../../src/services/clients/changes.ts';
import type { Backend } from '../../helpers/backends.ts';
import { startTestServer, type TestClient, type TestServer } from '../../helpers/server.ts';
import { expectOAuthError, FORM, pkcePair, TOKEN, type Reply, type TokenEndpoint } from './setup.ts';

interface DpopKey {
  alg: string;
  privateKey: CryptoKey;
  jwk: JWK;
  jkt: string;
}

async function dpopKey(alg = 'ES256'): Promise<DpopKey> {
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
  const jwk = await exportJWK(publicKey);
  return { alg, privateKey, jwk, jkt: await calculateJwkThumbprint(jwk) };
}

interface ProofClaims {
  htm?: string;
  htu: string;
  nonce?: string;
  accessToken?: string;
  iat?: number;
  jti?: string;
}

async function proof(key: DpopKey, claims: ProofClaims, header: Record<string, unknown> = {}): Promise<string> {
  const payload: Record<string, unknown> = {
    htm: claims.htm ?? 'POST',
    htu: claims.htu,
    jti: claims.jti ?? randomUUID(),
    iat: claims.iat ?? Math.floor(Date.now() / 1000),
  };
  if (claims.nonce !== undefined) payload.nonce = claims.nonce;
  if (claims.accessToken !== undefined) payload.ath = createHash('sha256').update(claims.accessToken).digest('base64url');
  return new SignJWT(payload).setProtectedHeader({ alg: key.alg, typ: 'dpop+jwt', jwk: key.jwk, ...header }).sign(key.privateKey);
}

export function dpopOverHttp({ name, available }: Backend, t: TokenEndpoint): void {
  describe('DPoP (RFC 9449)', () => {
    let server: TestServer;
    let tokenUrl: string;
    beforeAll(() => {
      if (!available) return;
      server = t.server;
      tokenUrl = `${server.url}${TOKEN}`;
    });

    async function post(path: string, body: Record<string, string>, headers: Record<string, string> = {}): Promise<Reply> {
      const res = await server.post(path, new URLSearchParams(body).toString(), { ...FORM, ...headers });
      return { status: res.status, headers: res.headers, body: res.body };
    }

    /** A nonce the token endpoint hands out (§8): the first proof without one gets it. */
    async function nonce(): Promise<string> {
      const key = await dpopKey();
      const res = await post(TOKEN, { grant_type: 'refresh_token', refresh_token: 'x', client_id: 'x' }, { dpop: await proof(key, { htu: tokenUrl }) });
      return res.headers.get('dpop-nonce')!;
    }

    function exchangeBody(client: TestClient, code: string, extra: Record<string, string> = {}): Record<string, string> {
      return { grant_type: 'authorization_code', code, redirect_uri: client.redirectUri, client_id: client.clientId, ...(client.secret ? { client_secret: client.secret } : {}), ...extra };
    }

    /** A code exchanged with a proof of `key` carrying a fresh nonce. */
    async function boundTokens(key: DpopKey, options: Parameters<TestServer['client']>[1] = {}) {
      const client = await t.approvedClient(options);
      const pkce = pkcePair();
      const code = await t.code(client, { code_challenge: pkce.challenge });
      const res = await post(TOKEN, exchangeBody(client, code, { code_verifier: pkce.verifier }), { dpop: await proof(key, { htu: tokenUrl, nonce: await nonce() }) });
      expect(res.status).toBe(200);
      return { client, access: res.body!.access_token as string, refresh: res.body!.refresh_token as string, res };
    }

    async function me(access: string, headers: Record<string, string>) {
      const res = await fetch(`${server.url}/v2/me`, { headers: { authorization: `DPoP ${access}`, ...headers } });
      return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, any> };
    }

    const meProof = (key: DpopKey, access: string, claims: Partial<ProofClaims> = {}) => proof(key, { htm: 'GET', htu: `${server.url}/v2/me`, accessToken: access, ...claims });

    // ------------------------------------------------------------ the token endpoint

    it.skipIf(!available)('RFC 9449 §5.1: the server metadata announces dpop_signing_alg_values_supported', async () => {
      const res = await fetch(`${server.url}/.well-known/oauth-authorization-server`);
      expect(((await res.json()) as Record<string, unknown>).dpop_signing_alg_values_supported).toEqual(['ES256', 'EdDSA', 'Ed25519', 'RS256', 'PS256']);
    });

    it.skipIf(!available)('RFC 9449 §8: a proof without the server nonce is 400 use_dpop_nonce with DPoP-Nonce; the same request with it gets a DPoP token and a fresh nonce', async () => {
      const key = await dpopKey();
      const client = await t.approvedClient();
      const code = await t.code(client);
      const first = await post(TOKEN, exchangeBody(client, code), { dpop: await proof(key, { htu: tokenUrl }) });
      expectOAuthError(first, 400, 'use_dpop_nonce', 'DPoP-Nonce');
      const given = first.headers.get('dpop-nonce');
      expect(given).toMatch(/^\d+\.[A-Za-z0-9_-]{43}$/);
      // The code was not spent by the refused request: the proof never reached the grant.
      const second = await post(TOKEN, exchangeBody(client, code), { dpop: await proof(key, { htu: tokenUrl, nonce: given! }) });
      expect(second.status).toBe(200);
      expect(second.body).toMatchObject({ token_type: 'DPoP', expires_in: 1800, scope: 'PROFILE_READ' });
      expect(second.headers.get('dpop-nonce')).toMatch(/^\d+\.[A-Za-z0-9_-]{43}$/);
      // RFC 9449 §6.2: introspection names the key the token is bound to.
      const introspected = await post('/v2/auth/oauth2/introspect', { token: second.body!.access_token as string, client_id: client.clientId, client_secret: client.secret! });
      expect(introspected.body).toMatchObject({ active: true, token_type: 'DPoP', cnf: { jkt: key.jkt } });
    });

    it.skipIf(!available)('RFC 9449 §8: a nonce the server did not make is use_dpop_nonce', async () => {
      const key = await dpopKey();
      const client = await t.approvedClient();
      const res = await post(TOKEN, exchangeBody(client, await t.code(client)), { dpop: await proof(key, { htu: tokenUrl, nonce: `${Math.floor(Date.now() / 300000)}.${'A'.repeat(43)}` }) });
      expectOAuthError(res, 400, 'use_dpop_nonce');
    });

    it.skipIf(!available)('RFC 9449 §4.2: each of ES256, EdDSA (also by its RFC 9864 name Ed25519), RS256 and PS256 is accepted', async () => {
      for (const alg of ['ES256', 'EdDSA', 'Ed25519', 'RS256', 'PS256']) {
        const key = await dpopKey(alg);
        const { res } = await boundTokens(key);
        expect(res.body!.token_type).toBe('DPoP');
      }
    });

    it.skipIf(!available)('RFC 9449 §4.3 point 5: an algorithm not announced (ES384) is 400 invalid_dpop_proof naming the algorithms', async () => {
      const client = await t.approvedClient();
      const res = await post(TOKEN, exchangeBody(client, await t.code(client)), { dpop: await proof(await dpopKey('ES384'), { htu: tokenUrl, nonce: await nonce() }) });
      expectOAuthError(res, 400, 'invalid_dpop_proof', 'ES256, EdDSA, Ed25519, RS256, PS256');
    });

    it.skipIf(!available)('RFC 9449 §4.3 point 7: a jwk header holding the private key is invalid_dpop_proof', async () => {
      const key = await dpopKey();
      const privateJwk = await exportJWK(key.privateKey);
      const client = await t.approvedClient();
      const res = await post(TOKEN, exchangeBody(client, await t.code(client)), { dpop: await proof(key, { htu: tokenUrl, nonce: await nonce() }, { jwk: privateJwk }) });
      expectOAuthError(res, 400, 'invalid_dpop_proof', 'public key');
    });

    it.skipIf(!available)('RFC 9449 §4.3 point 4: a proof whose typ is not dpop+jwt is invalid_dpop_proof', async () => {
      const client = await t.approvedClient();
      const res = await post(TOKEN, exchangeBody(client, await t.code(client)), { dpop: await proof(await dpopKey(), { htu: tokenUrl, nonce: await nonce() }, { typ: 'JWT' }) });
      expectOAuthError(res, 400, 'invalid_dpop_proof', 'dpop+jwt');
    });

    it.skipIf(!available)('RFC 9449 §4.3 point 9: a proof for another URI (wrong htu) is invalid_dpop_proof; query and fragment are ignored', async () => {
      const key = await dpopKey();
      const client = await t.approvedClient();
      const code = await t.code(client);
      const wrong = await post(TOKEN, exchangeBody(client, code), { dpop: await proof(key, { htu: `${server.url}/v2/auth/oauth2/revoke`, nonce: await nonce() }) });
      expectOAuthError(wrong, 400, 'invalid_dpop_proof', 'htu');
      const normalised = tokenUrl.replace('http://', 'HTTP://') + '?x=1#y';
      const right = await post(TOKEN, exchangeBody(client, code), { dpop: await proof(key, { htu: normalised, nonce: await nonce() }) });
      expect(right.status).toBe(200);
    });

    it.skipIf(!available)('RFC 9449 §4.3 point 8: a proof for another method (wrong htm) is invalid_dpop_proof', async () => {
      const client = await t.approvedClient();
      const res = await post(TOKEN, exchangeBody(client, await t.code(client)), { dpop: await proof(await dpopKey(), { htm: 'GET', htu: tokenUrl, nonce: await nonce() }) });
      expectOAuthError(res, 400, 'invalid_dpop_proof', 'htm');
    });

    it.skipIf(!available)('RFC 9449 §4.3 point 11: a proof made more than 60 s before or after the server time (stale iat) is invalid_dpop_proof', async () => {
      const client = await t.approvedClient();
      const code = await t.code(client);
      for (const iat of [Math.floor(Date.now() / 1000) - 120, Math.floor(Date.now() / 1000) + 120]) {
        const res = await post(TOKEN, exchangeBody(client, code), { dpop: await proof(await dpopKey(), { htu: tokenUrl, iat, nonce: await nonce() }) });
        expectOAuthError(res, 400, 'invalid_dpop_proof', 'iat');
      }
    });

    it.skipIf(!available)('RFC 9449 §11.1: a replayed proof is refused at the token endpoint (invalid_dpop_proof)', async () => {
      const key = await dpopKey();
      const client = await t.approvedClient();
      const once = await proof(key, { htu: tokenUrl, nonce: await nonce() });
      expect((await post(TOKEN, exchangeBody(client, await t.code(client)), { dpop: once })).status).toBe(200);
      const again = await post(TOKEN, exchangeBody(client, await t.code(client)), { dpop: once });
      expectOAuthError(again, 400, 'invalid_dpop_proof', 'already used');
    });

    it.skipIf(!available)('RFC 9449 §4.3 point 1: two DPoP headers are invalid_dpop_proof', async () => {
      const key = await dpopKey();
      const client = await t.approvedClient();
      const headers = new Headers(FORM);
      const n = await nonce();
      headers.append('dpop', await proof(key, { htu: tokenUrl, nonce: n }));
      headers.append('dpop', await proof(key, { htu: tokenUrl, nonce: n }));
      const res = await fetch(tokenUrl, { method: 'POST', headers, body: new URLSearchParams(exchangeBody(client, await t.code(client))).toString() });
      // fetch joins repeated headers with a comma: one value that is no JWT.
      expect(res.status).toBe(400);
      expect(((await res.json()) as Record<string, unknown>).error).toBe('invalid_dpop_proof');
    });

    // ------------------------------------------------------------ dpop_jkt and refresh

    it.skipIf(!available)('RFC 9449 §10: a code bound by dpop_jkt is exchanged only with a proof of that key (invalid_grant otherwise)', async () => {
      const key = await dpopKey();
      const other = await dpopKey();
      const client = await t.approvedClient();
      const mismatched = await post(TOKEN, exchangeBody(client, await t.code(client, { dpop_jkt: key.jkt })), { dpop: await proof(other, { htu: tokenUrl, nonce: await nonce() }) });
      expectOAuthError(mismatched, 400, 'invalid_grant', 'dpop_jkt');
      const without = await post(TOKEN, exchangeBody(client, await t.code(client, { dpop_jkt: key.jkt })));
      expectOAuthError(without, 400, 'invalid_grant', 'dpop_jkt');
      const matched = await post(TOKEN, exchangeBody(client, await t.code(client, { dpop_jkt: key.jkt })), { dpop: await proof(key, { htu: tokenUrl, nonce: await nonce() }) });
      expect(matched.body).toMatchObject({ token_type: 'DPoP' });
    });

    it.skipIf(!available)('RFC 9449 §10: a dpop_jkt that is no thumbprint goes back to the application as invalid_request', async () => {
      const client = await t.approvedClient();
      const back = await server.authorize(t.userBrowser, { client_id: client.clientId, redirect_uri: client.redirectUri, response_type: 'code', scope: 'PROFILE_READ', state: 's', dpop_jkt: 'short' });
      expect(back.searchParams.get('error')).toBe('invalid_request');
      expect(back.searchParams.get('error_description')).toContain('dpop_jkt');
    });

    it.skipIf(!available)('RFC 9449 §5: a public client\'s refresh token is bound: refreshing with another key\'s proof, or none, is invalid_grant; with its key, a new DPoP pair', async () => {
      const key = await dpopKey();
      const { client, refresh } = await boundTokens(key, { kind: 'public' });
      const refreshBody = { grant_type: 'refresh_token', refresh_token: refresh, client_id: client.clientId };
      expectOAuthError(await post(TOKEN, refreshBody, { dpop: await proof(await dpopKey(), { htu: tokenUrl, nonce: await nonce() }) }), 400, 'invalid_grant', 'another DPoP key');
      expectOAuthError(await post(TOKEN, refreshBody), 400, 'invalid_grant', 'DPoP proof');
      const ok = await post(TOKEN, refreshBody, { dpop: await proof(key, { htu: tokenUrl, nonce: await nonce() }) });
      expect(ok.status).toBe(200);
      expect(ok.body!.token_type).toBe('DPoP');
      // docs/rules.md#refresh-rotation: a retry within the window gets the same pair, still DPoP.
      const retried = await post(TOKEN, refreshBody, { dpop: await proof(key, { htu: tokenUrl, nonce: await nonce() }) });
      expect(retried.body).toEqual(ok.body);
    });

    it.skipIf(!available)('RFC 9449 §5: a confidential client\'s refresh token is not bound; the new access token is bound to the refresh request\'s key', async () => {
      const { client, refresh } = await boundTokens(await dpopKey());
      const plain = await t.refresh(client, refresh);
      expect(plain.body).toMatchObject({ token_type: 'bearer' });
      const next = await dpopKey();
      const bound = await post(TOKEN, { grant_type: 'refresh_token', refresh_token: plain.body.refresh_token as string, client_id: client.clientId, client_secret: client.secret! }, { dpop: await proof(next, { htu: tokenUrl, nonce: await nonce() }) });
      expect(bound.body).toMatchObject({ token_type: 'DPoP' });
      const access = bound.body!.access_token as string;
      expect((await me(access, { dpop: await meProof(next, access) })).status).toBe(200);
    });

    it.skipIf(!available)('RFC 9449 §5.2: a client registered with dpop_bound_access_tokens is refused a token request without a proof (invalid_request)', async () => {
      const client = await t.approvedClient();
      await updateClient(server.services, client.clientId, t.dev.id, { dpopBoundAccessTokens: true });
      expectOAuthError(await post(TOKEN, exchangeBody(client, await t.code(client))), 400, 'invalid_request', 'dpop_bound_access_tokens');
      const res = await post(TOKEN, exchangeBody(client, await t.code(client)), { dpop: await proof(await dpopKey(), { htu: tokenUrl, nonce: await nonce() }) });
      expect(res.body).toMatchObject({ token_type: 'DPoP' });
    });

    // ------------------------------------------------------------ the resource servers

    it.skipIf(!available)('RFC 9449 §7.1: /v2/me answers a DPoP-bound token under the DPoP scheme with a proof hashing it in ath', async () => {
      const key = await dpopKey();
      const { access } = await boundTokens(key);
      const res = await me(access, { dpop: await meProof(key, access) });
      expect(res.status).toBe(200);
      expect(res.body.data.email).toBe(t.user.email);
    });

    it.skipIf(!available)('RFC 9449 §7.2: a DPoP-bound token presented as a Bearer token is 401 with a DPoP invalid_token challenge naming the algorithms', async () => {
      const { access } = await boundTokens(await dpopKey());
      const res = await t.me(access);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^DPoP error="invalid_token", algs="ES256 EdDSA Ed25519 RS256 PS256"/);
      expect(res.body.error.message).toContain('bound to a DPoP key');
    });

    it.skipIf(!available)('RFC 9449 §7.1: a proof of another key than the token\'s is 401 invalid_dpop_proof', async () => {
      const { access } = await boundTokens(await dpopKey());
      const res = await me(access, { dpop: await meProof(await dpopKey(), access) });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^DPoP error="invalid_dpop_proof", algs="ES256 EdDSA Ed25519 RS256 PS256"/);
    });

    it.skipIf(!available)('RFC 9449 §4.3 points 8, 9, 11, 12 at the resource: wrong htm, wrong htu, stale iat, missing or wrong ath, and no proof at all are 401 invalid_dpop_proof', async () => {
      const key = await dpopKey();
      const { access } = await boundTokens(key);
      const proofs = [
        await meProof(key, access, { htm: 'POST' }),
        await meProof(key, access, { htu: `${server.url}/v2/bookings` }),
        await meProof(key, access, { iat: Math.floor(Date.now() / 1000) - 300 }),
        await proof(key, { htm: 'GET', htu: `${server.url}/v2/me` }),
        await meProof(key, access, { accessToken: `${access}x` }),
      ];
      for (const dpop of proofs) {
        const res = await me(access, { dpop });
        expect(res.status).toBe(401);
        expect(res.headers.get('www-authenticate')).toContain('DPoP error="invalid_dpop_proof"');
      }
      const none = await me(access, {});
      expect(none.status).toBe(401);
      expect(none.headers.get('www-authenticate')).toContain('DPoP error="invalid_dpop_proof"');
      // Nothing spent the token: a good proof still works.
      expect((await me(access, { dpop: await meProof(key, access) })).status).toBe(200);
    });

    it.skipIf(!available)('RFC 9449 §11.1: a proof replayed at the resource, on this instance or another over the same database, is 401 invalid_dpop_proof', async () => {
      const key = await dpopKey();
      const { access } = await boundTokens(key);
      const once = await meProof(key, access);
      expect((await me(access, { dpop: once })).status).toBe(200);
      const replayed = await me(access, { dpop: once });
      expect(replayed.status).toBe(401);
      expect(replayed.body.error.message).toContain('already used');
      const second = await startTestServer(name, { BASE_URL: server.url, APP_URL: server.url }, server);
      try {
        const fresh = await meProof(key, access);
        expect((await fetch(`${second.url}/v2/me`, { headers: { authorization: `DPoP ${access}`, dpop: fresh } })).status).toBe(200);
        expect((await me(access, { dpop: fresh })).status).toBe(401);
      } finally {
        await second.close();
      }
    });

    it.skipIf(!available)('RFC 9449 §9: a stale nonce in a resource proof is 401 use_dpop_nonce with a DPoP-Nonce to use', async () => {
      const key = await dpopKey();
      const { access } = await boundTokens(key);
      const res = await me(access, { dpop: await meProof(key, access, { nonce: `1.${'A'.repeat(43)}` }) });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toContain('DPoP error="use_dpop_nonce"');
      const given = res.headers.get('dpop-nonce')!;
      expect((await me(access, { dpop: await meProof(key, access, { nonce: given }) })).status).toBe(200);
    });

    it.skipIf(!available)('RFC 6750: a bearer token works as Bearer exactly as before, and is refused under the DPoP scheme', async () => {
      const { access } = await t.issued();
      expect((await t.me(access)).status).toBe(200);
      const res = await me(access, { dpop: await meProof(await dpopKey(), access) });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toContain('DPoP error="invalid_token"');
    });

    it.skipIf(!available)('RFC 9449 §7.1 at /mcp: a DPoP-bound token connects with a proof, and is refused as Bearer', async () => {
      const key = await dpopKey();
      const client = await t.approvedClient();
      const mcp = `${server.url}/mcp`;
      const code = await t.code(client, { resource: mcp });
      const res = await post(TOKEN, exchangeBody(client, code, { resource: mcp }), { dpop: await proof(key, { htu: tokenUrl, nonce: await nonce() }) });
      const access = res.body!.access_token as string;
      const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
      const call = async (headers: Record<string, string>) =>
        fetch(mcp, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(list) });
      const asBearer = await call({ authorization: `Bearer ${access}` });
      expect(asBearer.status).toBe(401);
      expect(asBearer.headers.get('www-authenticate')).toContain('DPoP error="invalid_token"');
      const withProof = await call({ authorization: `DPoP ${access}`, dpop: await proof(key, { htu: mcp, accessToken: access }) });
      expect(withProof.status).toBe(200);
      expect(((await withProof.json()) as { result: { tools: unknown[] } }).result.tools.length).toBeGreaterThan(0);
    });
  });
}

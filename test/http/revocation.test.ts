// RFC 7009 token revocation at POST /v2/auth/oauth2/revoke, on every backend: the client
// authenticates as at the token endpoint (docs/rules.md#client-authentication, docs/rules.md#rate-limits); an access or refresh
// token is revoked with or without token_type_hint; revoking a refresh token ends the
// access tokens of its grant; an unknown, malformed or foreign token answers 200 and
// changes nothing.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateToken } from '../../src/oauth/token-format.ts';
import { backends } from '../helpers/backends.ts';
import type { Browser } from '../helpers/browser.ts';
import { startTestServer, type TestClient, type TestServer, type TestUser } from '../helpers/server.ts';
import { accessTokenOf, auditEvents, refreshTokenOf } from '../helpers/stores.ts';

const REVOKE = '/v2/auth/oauth2/revoke';

describe.each(backends)('token revocation (RFC 7009) on $name', ({ name, available }) => {
  let server: TestServer;
  let dev: TestUser;
  let user: TestUser;
  let browser: Browser;
  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer(name);
    dev = await server.user();
    user = await server.user();
    browser = server.browser();
    expect((await browser.login(user.email, user.password)).status).toBe(303);
  });
  afterAll(async () => server?.close());

  /** The front channel as the logged-in user who clicks Allow; returns the code. */
  async function code(client: TestClient, extra: Record<string, string> = {}) {
    const back = await server.authorize(browser, {
      client_id: client.clientId,
      redirect_uri: client.redirectUri,
      response_type: 'code',
      scope: 'PROFILE_READ',
      state: 'xyz',
      ...extra,
    });
    return back.searchParams.get('code')!;
  }

  /** A new approved confidential client and a fresh token pair of the user for it. */
  async function issued() {
    const client = await server.client(dev);
    const res = await server.exchange(client, await code(client));
    expect(res.status).toBe(200);
    return { client, user, access: res.body.access_token as string, refresh: res.body.refresh_token as string };
  }

  function revoke(client: TestClient, fields: Record<string, string>, options: { basic?: boolean; json?: boolean } = {}) {
    const headers: Record<string, string> = { 'content-type': options.json ? 'application/json' : 'application/x-www-form-urlencoded' };
    const body: Record<string, string> = { ...fields };
    if (options.basic) {
      headers.authorization = `Basic ${Buffer.from(`${client.clientId}:${client.secret}`).toString('base64')}`;
    } else {
      body.client_id = client.clientId;
      if (client.secret) body.client_secret = client.secret;
    }
    return server.post(REVOKE, options.json ? JSON.stringify(body) : new URLSearchParams(body).toString(), headers);
  }

  const accessRow = async (token: string) => (await accessTokenOf(server, token))!;
  const refreshRow = async (token: string) => (await refreshTokenOf(server, token))!;
  async function refresh(client: TestClient, refreshToken: string) {
    return server.token({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: client.clientId, client_secret: client.secret! });
  }

  it.skipIf(!available)('revokes an access token named by token_type_hint=access_token: 200 with nothing in the body, and the API refuses it (RFC 7009 §2.1, §2.2)', async () => {
    const t = await issued();
    expect((await server.api('GET', '/v2/me', t.access)).status).toBe(200);
    const res = await revoke(t.client, { token: t.access, token_type_hint: 'access_token' });
    expect(res.status).toBe(200);
    // The body carries nothing (§2.2: the client ignores it); JSON, so JSON-only clients cope.
    expect(res.body).toEqual({});
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const me = await server.api('GET', '/v2/me', t.access);
    expect(me.status).toBe(401);
    expect(me.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect((await accessRow(t.access)).revokedAt).not.toBeNull();
  });

  it.skipIf(!available)('revokes an access token sent without token_type_hint (RFC 7009 §2.1: the hint is optional)', async () => {
    const t = await issued();
    const res = await revoke(t.client, { token: t.access });
    expect(res.status).toBe(200);
    expect((await server.api('GET', '/v2/me', t.access)).status).toBe(401);
    expect((await accessRow(t.access)).revokedAt).not.toBeNull();
  });

  it.skipIf(!available)('revoking a refresh token ends it and every access token of its grant (RFC 7009 §2.1)', async () => {
    const t = await issued();
    // A second access token of the same grant, from a refresh.
    const rotated = await refresh(t.client, t.refresh);
    expect(rotated.status).toBe(200);
    const access2 = rotated.body.access_token as string;
    const refresh2 = rotated.body.refresh_token as string;
    expect((await server.api('GET', '/v2/me', access2)).status).toBe(200);

    const res = await revoke(t.client, { token: refresh2, token_type_hint: 'refresh_token' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    const again = await refresh(t.client, refresh2);
    expect(again.status).toBe(400);
    expect(again.body.error).toBe('invalid_grant');
    expect((await server.api('GET', '/v2/me', t.access)).status).toBe(401);
    expect((await server.api('GET', '/v2/me', access2)).status).toBe(401);
    expect((await refreshRow(refresh2)).revokedAt).not.toBeNull();
    // Both access tokens the grant has, the first and the rotated one, are revoked in storage.
    const grantId = (await refreshRow(refresh2)).grantId;
    for (const access of [t.access, access2]) expect(await accessRow(access)).toMatchObject({ grantId, revokedAt: expect.any(Number) });
  });

  it.skipIf(!available)('revokes a refresh token sent without a hint, and one sent with the wrong hint (RFC 7009 §2.1: the server extends its search)', async () => {
    const a = await issued();
    expect((await revoke(a.client, { token: a.refresh })).status).toBe(200);
    expect((await refresh(a.client, a.refresh)).body.error).toBe('invalid_grant');
    expect((await server.api('GET', '/v2/me', a.access)).status).toBe(401);

    const b = await issued();
    expect((await revoke(b.client, { token: b.refresh, token_type_hint: 'access_token' })).status).toBe(200);
    expect((await refresh(b.client, b.refresh)).body.error).toBe('invalid_grant');

    const c = await issued();
    expect((await revoke(c.client, { token: c.access, token_type_hint: 'refresh_token' })).status).toBe(200);
    expect((await server.api('GET', '/v2/me', c.access)).status).toBe(401);
  });

  it.skipIf(!available)('accepts client_secret_basic and a JSON body like the token endpoint (docs/rules.md#client-authentication, docs/rules.md#token-endpoint, docs/rules.md#rate-limits)', async () => {
    const a = await issued();
    expect((await revoke(a.client, { token: a.access }, { basic: true })).status).toBe(200);
    expect((await server.api('GET', '/v2/me', a.access)).status).toBe(401);
    const b = await issued();
    expect((await revoke(b.client, { token: b.access }, { json: true })).status).toBe(200);
    expect((await server.api('GET', '/v2/me', b.access)).status).toBe(401);
  });

  it.skipIf(!available)('lets a public client revoke its own token with client_id alone (RFC 7009 §2.1, auth method none)', async () => {
    const client = await server.client(dev, { kind: 'public' });
    const verifier = 'v'.repeat(64);
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const tokens = await server.exchange(client, await code(client, { code_challenge: challenge, code_challenge_method: 'S256' }), { code_verifier: verifier });
    expect(tokens.status).toBe(200);
    const res = await revoke(client, { token: tokens.body.refresh_token as string });
    expect(res.status).toBe(200);
    expect((await server.api('GET', '/v2/me', tokens.body.access_token as string)).status).toBe(401);
  });

  it.skipIf(!available)('lets a public client revoke with HTTP Basic client_id and an empty password, as some libraries send it (docs/rules.md#client-authentication, docs/rules.md#introspection)', async () => {
    const client = await server.client(dev, { kind: 'public' });
    const verifier = 'w'.repeat(64);
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const tokens = await server.exchange(client, await code(client, { code_challenge: challenge }), { code_verifier: verifier });
    expect(tokens.status).toBe(200);
    const res = await server.post(REVOKE, new URLSearchParams({ token: tokens.body.refresh_token as string }).toString(), {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${client.clientId}:`).toString('base64')}`,
    });
    expect(res.status).toBe(200);
    expect((await server.api('GET', '/v2/me', tokens.body.access_token as string)).status).toBe(401);
  });

  it.skipIf(!available)('refuses a JSON body that names a key twice with 400 invalid_request and revokes nothing (docs/rules.md#request-parameters)', async () => {
    const t = await issued();
    const body = `{"token":"${t.access}","client_id":"${t.client.clientId}","client_secret":"${generateToken('clientSecret')}","client_secret":"${t.client.secret}"}`;
    const res = await server.post(REVOKE, body, { 'content-type': 'application/json' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'invalid_request', error_description: 'client_secret was sent more than once' });
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect((await server.api('GET', '/v2/me', t.access)).status).toBe(200);
  });

  it.skipIf(!available)("answers 200 and changes nothing for another client's access or refresh token (RFC 7009 §2.1, §2.2)", async () => {
    const victim = await issued();
    const other = await issued();
    const a = await revoke(other.client, { token: victim.access, token_type_hint: 'access_token' });
    const r = await revoke(other.client, { token: victim.refresh, token_type_hint: 'refresh_token' });
    expect([a.status, a.body, r.status, r.body]).toEqual([200, {}, 200, {}]);
    expect((await server.api('GET', '/v2/me', victim.access)).status).toBe(200);
    expect((await accessRow(victim.access)).revokedAt).toBeNull();
    expect((await refreshRow(victim.refresh)).revokedAt).toBeNull();
    expect((await refresh(victim.client, victim.refresh)).status).toBe(200);
  });

  it.skipIf(!available)('answers 200 and changes nothing for unknown, malformed and already revoked tokens (RFC 7009 §2.2)', async () => {
    const t = await issued();
    // A revocation is stored with its token.revoked event, in one transaction (oauth/revocation.ts).
    const revokedBefore = async () => (await auditEvents(server, { type: 'token.revoked' })).length;
    const before = await revokedBefore();
    // Well-formed tokens this server never issued, a token with a broken checksum, and
    // strings that are no token at all.
    for (const token of [
      generateToken('accessToken'),
      generateToken('refreshToken'),
      `${t.access.slice(0, -3)}abc`,
      'not-a-token',
      'gat_',
      'x'.repeat(4000),
    ]) {
      const res = await revoke(t.client, { token });
      expect({ token: token.slice(0, 20), status: res.status, body: res.body }).toEqual({ token: token.slice(0, 20), status: 200, body: {} });
    }
    expect(await revokedBefore()).toBe(before);
    expect((await server.api('GET', '/v2/me', t.access)).status).toBe(200);
    expect((await refreshRow(t.refresh)).revokedAt).toBeNull();
    // Revoking twice is fine too.
    expect((await revoke(t.client, { token: t.access })).status).toBe(200);
    expect((await revoke(t.client, { token: t.access })).status).toBe(200);
  });

  it.skipIf(!available)('refuses a request without token as invalid_request (RFC 7009 §2.1: token is REQUIRED)', async () => {
    const t = await issued();
    const res = await revoke(t.client, {});
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'invalid_request' });
    expect(res.body!.error_description).toContain('token');
  });

  it.skipIf(!available)('refuses a wrong secret with 401 invalid_client and revokes nothing; Basic gets a Basic challenge (RFC 7009 §2.1, RFC 6749 §5.2)', async () => {
    const t = await issued();
    // A well-formed secret that is not this client's.
    const wrong = { ...t.client, secret: generateToken('clientSecret') };
    const post = await revoke(wrong, { token: t.access });
    expect(post.status).toBe(401);
    expect(post.body).toMatchObject({ error: 'invalid_client' });
    const basic = await revoke(wrong, { token: t.access }, { basic: true });
    expect(basic.status).toBe(401);
    expect(basic.headers.get('www-authenticate')).toMatch(/^Basic /);
    const none = await server.post(REVOKE, new URLSearchParams({ token: t.access }).toString(), { 'content-type': 'application/x-www-form-urlencoded' });
    expect(none.status).toBe(401);
    expect(none.body).toMatchObject({ error: 'invalid_client' });
    expect((await server.api('GET', '/v2/me', t.access)).status).toBe(200);
    expect((await accessRow(t.access)).revokedAt).toBeNull();
  });

  it.skipIf(!available)('records token.revoked in the audit log with client and user (docs/rules.md#audit-events)', async () => {
    const t = await issued();
    await revoke(t.client, { token: t.refresh });
    const events = await auditEvents(server, { clientId: t.client.clientId, type: 'token.revoked' });
    expect(events).toHaveLength(1);
    expect(events[0]!.userId).toBe(t.user.id);
    // Revoking the same token again records nothing more: nothing changed.
    await revoke(t.client, { token: t.refresh });
    const after = await auditEvents(server, { clientId: t.client.clientId, type: 'token.revoked' });
    expect(after).toHaveLength(1);
  });
});

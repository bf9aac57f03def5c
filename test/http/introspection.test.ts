// RFC 7662 token introspection at POST /v2/auth/oauth2/introspect, on every backend: the
// caller authenticates as at the token endpoint; an active token is described by active,
// scope, client_id, sub, exp, iat and token_type; an expired, revoked, spent, malformed
// token, or one of a suspended client, is {"active": false}; a client sees only its own
// tokens unless an admin marked it a resource server (docs/rules.md#introspection, oauth_clients.is_resource_server).
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reviewClient, setResourceServer } from '../../src/services/clients/review.ts';
import { generateToken } from '../../src/oauth/token-format.ts';
import { backends } from '../helpers/backends.ts';
import type { Browser } from '../helpers/browser.ts';
import { startTestServer, type TestClient, type TestServer, type TestUser } from '../helpers/server.ts';

const INTROSPECT = '/v2/auth/oauth2/introspect';

describe.each(backends)('token introspection (RFC 7662) on $name', ({ name, available }) => {
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

  async function issued(scope = 'PROFILE_READ') {
    const client = await server.client(dev);
    const back = await server.authorize(browser, {
      client_id: client.clientId,
      redirect_uri: client.redirectUri,
      response_type: 'code',
      scope,
      state: 's',
    });
    const res = await server.exchange(client, back.searchParams.get('code')!);
    expect(res.status).toBe(200);
    return { client, access: res.body.access_token as string, refresh: res.body.refresh_token as string };
  }

  function introspect(client: TestClient, fields: Record<string, string>, options: { basic?: boolean; json?: boolean } = {}) {
    const headers: Record<string, string> = { 'content-type': options.json ? 'application/json' : 'application/x-www-form-urlencoded' };
    const body: Record<string, string> = { ...fields };
    if (options.basic) {
      headers.authorization = `Basic ${Buffer.from(`${client.clientId}:${client.secret}`).toString('base64')}`;
    } else {
      body.client_id = client.clientId;
      if (client.secret) body.client_secret = client.secret;
    }
    return server.post(INTROSPECT, options.json ? JSON.stringify(body) : new URLSearchParams(body).toString(), headers);
  }

  async function resourceServer(): Promise<TestClient> {
    const rs = await server.client(dev, { name: 'Calendar resource server' });
    // The admin action behind `gatehouse clients resource-server ID`.
    await setResourceServer(server.services, rs.clientId, true, null);
    return rs;
  }

  it.skipIf(!available)('describes an active access token: active, scope, client_id, sub, exp, iat, token_type (RFC 7662 §2.2)', async () => {
    const before = Math.floor(server.clock() / 1000);
    const t = await issued('PROFILE_READ BOOKING_READ');
    const res = await introspect(t.client, { token: t.access, token_type_hint: 'access_token' });
    const after = Math.ceil(server.clock() / 1000);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = res.body!;
    expect(body).toMatchObject({ active: true, scope: 'BOOKING_READ PROFILE_READ', client_id: t.client.clientId, sub: user.id });
    expect(body.token_type).toMatch(/^bearer$/i);
    const iat = body.iat as number;
    expect(Number.isInteger(iat)).toBe(true);
    expect(iat).toBeGreaterThanOrEqual(before);
    expect(iat).toBeLessThanOrEqual(after);
    expect(body.exp).toBe(iat + 1800);
  });

  it.skipIf(!available)('describes an active refresh token without a hint, with the grant scopes and owner (RFC 7662 §2.1, §2.2)', async () => {
    const t = await issued();
    const res = await introspect(t.client, { token: t.refresh });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ active: true, scope: 'PROFILE_READ', client_id: t.client.clientId, sub: user.id });
    expect(res.body!.token_type).not.toMatch(/^bearer$/i);
    expect(res.body!.exp as number).toBeGreaterThan(res.body!.iat as number);
  });

  it.skipIf(!available)('accepts client_secret_basic and a JSON body (docs/rules.md#client-authentication, docs/rules.md#token-endpoint, docs/rules.md#rate-limits)', async () => {
    const t = await issued();
    expect((await introspect(t.client, { token: t.access }, { basic: true })).body).toMatchObject({ active: true });
    expect((await introspect(t.client, { token: t.access }, { json: true })).body).toMatchObject({ active: true });
  });

  it.skipIf(!available)('answers active:false for an expired access token (RFC 7662 §2.2)', async () => {
    const t = await issued();
    expect((await introspect(t.client, { token: t.access })).body).toMatchObject({ active: true });
    server.advance(1801);
    const res = await introspect(t.client, { token: t.access });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ active: false });
    // The refresh token outlives it.
    expect((await introspect(t.client, { token: t.refresh })).body).toMatchObject({ active: true });
  });

  it.skipIf(!available)('answers active:false for revoked access and refresh tokens (RFC 7662 §2.2, RFC 7009)', async () => {
    const a = await issued();
    const revoke = (token: string) =>
      server.post('/v2/auth/oauth2/revoke', new URLSearchParams({ token, client_id: a.client.clientId, client_secret: a.client.secret! }).toString(), {
        'content-type': 'application/x-www-form-urlencoded',
      });
    expect((await revoke(a.access)).status).toBe(200);
    expect((await introspect(a.client, { token: a.access })).body).toEqual({ active: false });
    expect((await introspect(a.client, { token: a.refresh })).body).toMatchObject({ active: true });
    expect((await revoke(a.refresh)).status).toBe(200);
    expect((await introspect(a.client, { token: a.refresh })).body).toEqual({ active: false });
  });

  it.skipIf(!available)('answers active:false for a spent refresh token and true for its successor (RFC 7662 §2.2, docs/rules.md#refresh-rotation)', async () => {
    const t = await issued();
    const rotated = await server.token({ grant_type: 'refresh_token', refresh_token: t.refresh, client_id: t.client.clientId, client_secret: t.client.secret! });
    expect(rotated.status).toBe(200);
    expect((await introspect(t.client, { token: t.refresh })).body).toEqual({ active: false });
    expect((await introspect(t.client, { token: rotated.body.refresh_token as string })).body).toMatchObject({ active: true });
    expect((await introspect(t.client, { token: rotated.body.access_token as string })).body).toMatchObject({ active: true });
  });

  it.skipIf(!available)('answers active:false for malformed and unknown tokens, with no other member (RFC 7662 §2.2)', async () => {
    const t = await issued();
    for (const token of ['garbage', 'gat_', `${t.access.slice(0, -2)}zz`, generateToken('accessToken'), generateToken('refreshToken'), generateToken('authorizationCode'), t.client.secret!]) {
      const res = await introspect(t.client, { token });
      expect({ token: token.slice(0, 12), status: res.status, body: res.body }).toEqual({ token: token.slice(0, 12), status: 200, body: { active: false } });
    }
  });

  it.skipIf(!available)("answers active:false for another client's tokens (docs/rules.md#introspection: a client introspects only its own)", async () => {
    const victim = await issued();
    const other = await issued();
    expect((await introspect(other.client, { token: victim.access })).body).toEqual({ active: false });
    expect((await introspect(other.client, { token: victim.refresh })).body).toEqual({ active: false });
    // ...and that did not harm the token.
    expect((await introspect(victim.client, { token: victim.access })).body).toMatchObject({ active: true });
  });

  it.skipIf(!available)("lets a resource server (is_resource_server = 1) introspect any client's tokens (docs/rules.md#introspection)", async () => {
    const t = await issued('PROFILE_READ BOOKING_READ');
    const rs = await resourceServer();
    const res = await introspect(rs, { token: t.access });
    expect(res.body).toMatchObject({ active: true, client_id: t.client.clientId, sub: user.id, scope: 'BOOKING_READ PROFILE_READ' });
    expect((await introspect(rs, { token: t.refresh })).body).toMatchObject({ active: true, client_id: t.client.clientId });
    // Being a resource server does not make dead tokens alive.
    server.advance(1801);
    expect((await introspect(rs, { token: t.access })).body).toEqual({ active: false });
  });

  it.skipIf(!available)('answers active:false for tokens of a suspended client, and active again once re-approved (docs/rules.md#client-states)', async () => {
    const t = await issued();
    const rs = await resourceServer();
    await reviewClient(server.services, t.client.clientId, 'suspend', null);
    expect((await introspect(rs, { token: t.access })).body).toEqual({ active: false });
    expect((await introspect(rs, { token: t.refresh })).body).toEqual({ active: false });
    // The suspended client itself may not use the endpoint at all.
    const own = await introspect(t.client, { token: t.access });
    expect(own.status).toBe(400);
    expect(own.body).toMatchObject({ error: 'unauthorized_client' });
    await reviewClient(server.services, t.client.clientId, 'approve', null);
    expect((await introspect(rs, { token: t.access })).body).toMatchObject({ active: true });
    expect((await introspect(rs, { token: t.refresh })).body).toMatchObject({ active: true });
  });

  it.skipIf(!available)('refuses a public client, even about its own token, with 401 invalid_client: it cannot authenticate (docs/rules.md#introspection, RFC 7662 §2.1)', async () => {
    const client = await server.client(dev, { kind: 'public' });
    const verifier = 'v'.repeat(64);
    const back = await server.authorize(browser, {
      client_id: client.clientId,
      redirect_uri: client.redirectUri,
      response_type: 'code',
      scope: 'PROFILE_READ',
      state: 's',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    });
    const tokens = await server.exchange(client, back.searchParams.get('code')!, { code_verifier: verifier });
    expect(tokens.status).toBe(200);
    const viaBody = await introspect(client, { token: tokens.body.access_token as string });
    expect(viaBody.status).toBe(401);
    expect(viaBody.body).toEqual({ error: 'invalid_client', error_description: expect.stringMatching(/public/) });
    expect(viaBody.headers.get('cache-control')).toBe('no-store');
    // HTTP Basic with its client_id and an empty password (docs/rules.md#client-authentication) identifies it no better.
    const viaBasic = await server.post(INTROSPECT, new URLSearchParams({ token: tokens.body.access_token as string }).toString(), {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${client.clientId}:`).toString('base64')}`,
    });
    expect(viaBasic.status).toBe(401);
    expect(viaBasic.body).toMatchObject({ error: 'invalid_client' });
    expect(viaBasic.headers.get('www-authenticate')).toMatch(/^Basic /);
    expect(viaBasic.text).not.toContain('active');
  });

  it.skipIf(!available)('refuses a JSON body that names a key twice with 400 invalid_request, whichever value is right (docs/rules.md#request-parameters)', async () => {
    const t = await issued();
    const wrong = generateToken('clientSecret');
    const bodies = [
      `{"token":"${t.access}","client_id":"${t.client.clientId}","client_secret":"${wrong}","client_secret":"${t.client.secret}"}`,
      `{"token":"${t.access}","client_id":"${t.client.clientId}","client_secret":"${wrong}","client\\u005fsecret":"${t.client.secret}"}`,
    ];
    for (const body of bodies) {
      const res = await server.post(INTROSPECT, body, { 'content-type': 'application/json' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'invalid_request', error_description: 'client_secret was sent more than once' });
    }
  });

  it.skipIf(!available)('refuses an unauthenticated caller with 401 invalid_client and a missing token with 400 invalid_request (RFC 7662 §2.1, §2.3)', async () => {
    const t = await issued();
    const anonymous = await server.post(INTROSPECT, new URLSearchParams({ token: t.access }).toString(), { 'content-type': 'application/x-www-form-urlencoded' });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ error: 'invalid_client' });
    expect(anonymous.text).not.toContain('active');
    const wrong = await introspect({ ...t.client, secret: generateToken('clientSecret') }, { token: t.access }, { basic: true });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toMatch(/^Basic /);
    expect(wrong.body).toMatchObject({ error: 'invalid_client' });
    const missing = await introspect(t.client, {});
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ error: 'invalid_request' });
  });
});

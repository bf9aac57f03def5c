// RFC 7662 token introspection at POST /v2/auth/oauth2/introspect and RFC 7009 token revocation
// at POST /v2/auth/oauth2/revoke over real HTTP, on every backend, sharing one server per
// database: what only HTTP shows (the encodings they read, HTTP Basic, the status, body and
// headers of their answers, and that the API refuses a revoked token). Which token is active,
// to whom, who may ask, what a revocation ends and that anything else changes nothing are
// decided by the core and tested in process (test/oauth/introspection.test.ts,
// test/oauth/revocation.test.ts); real client libraries introspect and revoke in test/e2e
// (openid-client, simple-oauth2, oauth4webapi); arbitrary bodies in
// test/fuzz/oauth-endpoints.test.ts (docs/rules.md#introspection,
// docs/rules.md#client-authentication, docs/rules.md#rate-limits).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateToken } from '../../src/oauth/token-format.ts';
import { backends } from '../helpers/backends.ts';
import type { Browser } from '../helpers/browser.ts';
import { startTestServer, type TestClient, type TestServer, type TestUser } from '../helpers/server.ts';
import { accessTokenOf } from '../helpers/stores.ts';

const INTROSPECT = '/v2/auth/oauth2/introspect';
const REVOKE = '/v2/auth/oauth2/revoke';

interface ClientPostOptions {
  /** The client's credentials in HTTP Basic (RFC 6749 §2.3.1), not in the body. */
  basic?: boolean;
  /** A JSON body instead of the form RFC 7662 §2.1 and RFC 7009 §2.1 name (docs/rules.md#token-endpoint: both are read). */
  json?: boolean;
}

/** A client's POST to `path` with `fields`, authenticated in the body or with HTTP Basic. */
function clientPost(server: TestServer, path: string, client: TestClient, fields: Record<string, string>, options: ClientPostOptions) {
  const headers: Record<string, string> = { 'content-type': options.json ? 'application/json' : 'application/x-www-form-urlencoded' };
  const body: Record<string, string> = { ...fields };
  if (options.basic) {
    headers.authorization = `Basic ${Buffer.from(`${client.clientId}:${client.secret}`).toString('base64')}`;
  } else {
    body.client_id = client.clientId;
    if (client.secret) body.client_secret = client.secret;
  }
  return server.post(path, options.json ? JSON.stringify(body) : new URLSearchParams(body).toString(), headers);
}

describe.each(backends)('introspection and revocation on $name', ({ name, available }) => {
  let shared: TestServer;
  beforeAll(async () => {
    if (available) shared = await startTestServer(name);
  });
  afterAll(async () => shared?.close());

  /** A developer and a signed-in user of the developer's clients: each block makes its own. */
  async function developerAndSignedInUser(): Promise<{ dev: TestUser; user: TestUser; browser: Browser }> {
    const dev = await shared.user();
    const user = await shared.user();
    const browser = shared.browser();
    expect((await browser.login(user.email, user.password)).status).toBe(303);
    return { dev, user, browser };
  }

  describe('token introspection (RFC 7662)', () => {
    let server: TestServer;
    let dev: TestUser;
    let user: TestUser;
    let browser: Browser;
    beforeAll(async () => {
      if (!available) return;
      server = shared;
      ({ dev, user, browser } = await developerAndSignedInUser());
    });

    async function issued(scope = 'PROFILE_READ') {
      const client = await server.client(dev);
      const res = await server.exchange(client, await server.codeFor(browser, client, { scope }));
      expect(res.status).toBe(200);
      return { client, access: res.body.access_token as string, refresh: res.body.refresh_token as string };
    }

    const introspect = (client: TestClient, fields: Record<string, string>, options: ClientPostOptions = {}) => clientPost(server, INTROSPECT, client, fields, options);

    it.skipIf(!available)('RFC 7662 §2.2: a form request is answered 200 in JSON with Cache-Control: no-store, describing the active token', async () => {
      const t = await issued('PROFILE_READ BOOKING_READ');
      const res = await introspect(t.client, { token: t.access, token_type_hint: 'access_token' });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.body).toMatchObject({ active: true, scope: 'BOOKING_READ PROFILE_READ', client_id: t.client.clientId, sub: user.id });
      const inactive = await introspect(t.client, { token: generateToken('accessToken') });
      expect([inactive.status, inactive.body, inactive.headers.get('cache-control')]).toEqual([200, { active: false }, 'no-store']);
    });

    it.skipIf(!available)('accepts client_secret_basic and a JSON body (docs/rules.md#client-authentication, docs/rules.md#token-endpoint, docs/rules.md#rate-limits)', async () => {
      const t = await issued();
      expect((await introspect(t.client, { token: t.access }, { basic: true })).body).toMatchObject({ active: true });
      expect((await introspect(t.client, { token: t.access }, { json: true })).body).toMatchObject({ active: true });
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

    it.skipIf(!available)('RFC 7662 §2.1, RFC 6749 §5.2: a caller that does not authenticate gets 401 invalid_client with no-store and nothing of the token, a Basic challenge when it used Basic; a missing token is 400 invalid_request', async () => {
      const t = await issued();
      const form = { 'content-type': 'application/x-www-form-urlencoded' };
      const anonymous = await server.post(INTROSPECT, new URLSearchParams({ token: t.access }).toString(), form);
      const wrongInBody = await introspect({ ...t.client, secret: generateToken('clientSecret') }, { token: t.access });
      for (const res of [anonymous, wrongInBody]) {
        expect(res.status).toBe(401);
        expect(res.body).toMatchObject({ error: 'invalid_client' });
        expect(res.headers.get('cache-control')).toBe('no-store');
        expect(res.headers.get('www-authenticate')).toBeNull();
        expect(Object.keys(res.body!).sort()).toEqual(['error', 'error_description']);
      }
      // A public client, with its client_id and an empty password as some libraries send it (docs/rules.md#client-authentication), and a wrong secret, both with Basic.
      const publicClient = await server.client(dev, { kind: 'public' });
      const viaBasic = [
        await server.post(INTROSPECT, new URLSearchParams({ token: t.access }).toString(), { ...form, authorization: `Basic ${Buffer.from(`${publicClient.clientId}:`).toString('base64')}` }),
        await introspect({ ...t.client, secret: generateToken('clientSecret') }, { token: t.access }, { basic: true }),
      ];
      for (const res of viaBasic) {
        expect(res.status).toBe(401);
        expect(res.body).toMatchObject({ error: 'invalid_client' });
        expect(res.headers.get('www-authenticate')).toMatch(/^Basic /);
        expect(Object.keys(res.body!).sort()).toEqual(['error', 'error_description']);
      }
      const missing = await introspect(t.client, {});
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({ error: 'invalid_request', error_description: 'token is required' });
    });
  });

  describe('token revocation (RFC 7009)', () => {
    let server: TestServer;
    let dev: TestUser;
    let user: TestUser;
    let browser: Browser;
    beforeAll(async () => {
      if (!available) return;
      server = shared;
      ({ dev, user, browser } = await developerAndSignedInUser());
    });

    /** The front channel as the logged-in user who clicks Allow; returns the code. */
    const code = (client: TestClient, extra: Record<string, string> = {}) => server.codeFor(browser, client, extra);

    /** A new approved confidential client and a fresh token pair of the user for it. */
    async function issued() {
      const client = await server.client(dev);
      const res = await server.exchange(client, await code(client));
      expect(res.status).toBe(200);
      return { client, user, access: res.body.access_token as string, refresh: res.body.refresh_token as string };
    }

    const revoke = (client: TestClient, fields: Record<string, string>, options: ClientPostOptions = {}) => clientPost(server, REVOKE, client, fields, options);

    const accessRow = async (token: string) => (await accessTokenOf(server, token))!;

    it.skipIf(!available)('RFC 7009 §2.2: a revocation is answered 200 with an empty JSON body and no-store, whatever the token was, and the API refuses a revoked one (RFC 6750 §3.1)', async () => {
      const t = await issued();
      expect((await server.api('GET', '/v2/me', t.access)).status).toBe(200);
      const replies = [await revoke(t.client, { token: t.access, token_type_hint: 'access_token' }), await revoke(t.client, { token: generateToken('accessToken') })];
      for (const res of replies) {
        expect(res.status).toBe(200);
        // The body carries nothing (§2.2: the client ignores it); JSON, so JSON-only clients cope.
        expect(res.body).toEqual({});
        expect(res.headers.get('content-type')).toMatch(/^application\/json/);
        expect(res.headers.get('cache-control')).toBe('no-store');
      }
      const me = await server.api('GET', '/v2/me', t.access);
      expect(me.status).toBe(401);
      expect(me.headers.get('www-authenticate')).toContain('error="invalid_token"');
    });

    it.skipIf(!available)('accepts client_secret_basic and a JSON body like the token endpoint (docs/rules.md#client-authentication, docs/rules.md#token-endpoint, docs/rules.md#rate-limits)', async () => {
      const a = await issued();
      expect((await revoke(a.client, { token: a.access }, { basic: true })).status).toBe(200);
      expect((await accessRow(a.access)).revokedAt).not.toBeNull();
      const b = await issued();
      expect((await revoke(b.client, { token: b.access }, { json: true })).status).toBe(200);
      expect((await accessRow(b.access)).revokedAt).not.toBeNull();
    });

    it.skipIf(!available)('refuses a JSON body that names a key twice with 400 invalid_request and revokes nothing (docs/rules.md#request-parameters)', async () => {
      const t = await issued();
      const body = `{"token":"${t.access}","client_id":"${t.client.clientId}","client_secret":"${generateToken('clientSecret')}","client_secret":"${t.client.secret}"}`;
      const res = await server.post(REVOKE, body, { 'content-type': 'application/json' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'invalid_request', error_description: 'client_secret was sent more than once' });
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect((await accessRow(t.access)).revokedAt).toBeNull();
    });

    it.skipIf(!available)('RFC 7009 §2.1, RFC 6749 §5.2: a caller that does not authenticate gets 401 invalid_client with no-store, a Basic challenge when it used Basic; a missing token is 400 invalid_request', async () => {
      const t = await issued();
      // A well-formed secret that is not this client's.
      const wrong = { ...t.client, secret: generateToken('clientSecret') };
      const inBody = await revoke(wrong, { token: t.access });
      const none = await server.post(REVOKE, new URLSearchParams({ token: t.access }).toString(), { 'content-type': 'application/x-www-form-urlencoded' });
      for (const res of [inBody, none]) {
        expect(res.status).toBe(401);
        expect(res.body).toMatchObject({ error: 'invalid_client' });
        expect(res.headers.get('cache-control')).toBe('no-store');
        expect(res.headers.get('www-authenticate')).toBeNull();
      }
      const basic = await revoke(wrong, { token: t.access }, { basic: true });
      expect(basic.status).toBe(401);
      expect(basic.body).toMatchObject({ error: 'invalid_client' });
      expect(basic.headers.get('www-authenticate')).toMatch(/^Basic /);
      const missing = await revoke(t.client, {});
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({ error: 'invalid_request', error_description: 'token is required' });
      expect((await accessRow(t.access)).revokedAt).toBeNull();
    });
  });
});

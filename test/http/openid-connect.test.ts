// OpenID Connect over HTTP (docs/integrating.md#sign-in-with-gatehouse): what only HTTP shows
// of discovery, jwks_uri and UserInfo: the documents, their caching headers, the challenges,
// and the signing keys at rest, and their rotation across two instances over one database.
// The core's rules are test/oauth/id-token.test.ts's.
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.ts';
import type { Browser } from '../helpers/browser.ts';
import { textOf } from '../helpers/pages.ts';
import { signingKeyRows } from '../helpers/rows.ts';
import { runCli } from '../helpers/cli.ts';
import { startTestServer, useSignedInServer, TEST_SIGNING_KEYS_SECRET, type TestServer, type TestUser } from '../helpers/server.ts';

describe.each(backends)('OpenID Connect over HTTP on $name', ({ name, available }) => {
  let server: TestServer;
  let user: TestUser;
  let browser: Browser;

  // Its database is new, as at a first start: the start makes the first set of signing keys.
  useSignedInServer(name, available, 'Ada Lovelace', (signedIn) => ({ server, user, browser } = signedIn), { firstStart: true });

  async function signedIn(scope: string) {
    const registered = await server.client(user, { scopes: ['openid', 'profile', 'email', 'PROFILE_READ'] });
    const callback = await server.authorize(browser, { client_id: registered.clientId, redirect_uri: registered.redirectUri, response_type: 'code', scope });
    const tokens = await server.exchange(registered, callback.searchParams.get('code')!);
    expect(tokens.status).toBe(200);
    return tokens.body as { access_token: string; id_token?: string };
  }

  it.skipIf(!available)('OIDC Discovery 4: /.well-known/openid-configuration names the RFC 8414 issuer and endpoints, jwks_uri, userinfo_endpoint, end_session_endpoint and what is supported', async () => {
    const res = await fetch(`${server.url}/.well-known/openid-configuration`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control') ?? '').not.toMatch(/no-store/);
    const doc = (await res.json()) as Record<string, unknown>;
    const rfc8414 = (await (await fetch(`${server.url}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    for (const key of ['issuer', 'authorization_endpoint', 'token_endpoint', 'revocation_endpoint', 'introspection_endpoint', 'pushed_authorization_request_endpoint']) expect(doc[key], key).toBe(rfc8414[key]);
    expect(doc).toMatchObject({
      jwks_uri: `${server.url}/v2/auth/oauth2/jwks`,
      userinfo_endpoint: `${server.url}/v2/auth/oauth2/userinfo`,
      end_session_endpoint: `${server.url}/auth/oauth2/logout`,
      response_types_supported: ['code'],
      subject_types_supported: ['public'],
      claims_parameter_supported: false,
      claims_supported: expect.arrayContaining(['sub', 'auth_time', 'nonce', 'name', 'email', 'email_verified']),
      scopes_supported: expect.arrayContaining(['openid', 'profile', 'email', 'offline_access']),
    });
    expect(doc.id_token_signing_alg_values_supported).toContain('RS256');
    expect(doc.id_token_signing_alg_values_supported).not.toContain('none');
  });

  it.skipIf(!available)('OIDC Core 10.1.1: jwks_uri publishes the public parts only, each with a kid; a first set was made at the first start', async () => {
    const res = await fetch(`${server.url}/v2/auth/oauth2/jwks`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toMatch(/^public, max-age=\d+$/);
    const { keys } = (await res.json()) as { keys: Array<Record<string, unknown>> };
    expect(keys.map((k) => k.kty).sort()).toEqual(['EC', 'OKP', 'RSA']);
    for (const key of keys) {
      expect(key.kid).toEqual(expect.any(String));
      expect(key.use).toBe('sig');
      for (const secret of ['d', 'p', 'q', 'dp', 'dq', 'qi']) expect(key, secret).not.toHaveProperty(secret);
    }
  });

  it.skipIf(!available)('docs/operating.md#signing-keys: the private parts are sealed at rest, never in clear, and the secret appears nowhere', async () => {
    const rows = await signingKeyRows(server.db);
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      expect(row).not.toMatch(/\\"d\\":/);
      expect(row).not.toContain(TEST_SIGNING_KEYS_SECRET);
    }
    expect(server.logs.join('\n')).not.toContain(TEST_SIGNING_KEYS_SECRET);
  });

  it.skipIf(!available)('OIDC Core 3.1.2.4: the consent page says the application learns who the user is, with the name and e-mail only as asked', async () => {
    const registered = await server.client(user, { name: 'Sign-in App', scopes: ['openid', 'profile', 'email', 'PROFILE_READ'] });
    const consent = async (scope: string) => textOf((await browser.get(`/auth/oauth2/authorize?${new URLSearchParams({ client_id: registered.clientId, redirect_uri: registered.redirectUri, response_type: 'code', scope, state: 's' })}`)).body, 'requested-scopes') ?? '';
    const both = await consent('openid profile email');
    expect(both).toContain('Who you are');
    expect(both).toContain('The application learns who you are: your name and your email address.');
    expect(await consent('openid email')).toContain('The application learns who you are: your email address.');
    expect(await consent('openid')).toContain('The application learns who you are: your Gatehouse account, but not your name or email address.');
  });

  it.skipIf(!available)('OIDC Core 3.1.2.4: authorized apps say what an application that signs the user in learns of them', async () => {
    await signedIn('openid profile');
    const page = await browser.get('/settings/authorized-apps');
    expect(page.status).toBe(200);
    expect(page.body).toContain('The application learns who you are: your name.');
  });

  it.skipIf(!available)('OIDC Core 5.3.1: UserInfo answers GET and POST with a bearer token, Cache-Control: no-store', async () => {
    const { access_token } = await signedIn('openid profile');
    for (const method of ['GET', 'POST']) {
      const res = await fetch(`${server.url}/v2/auth/oauth2/userinfo`, { method, headers: { authorization: `Bearer ${access_token}` } });
      expect(res.status, method).toBe(200);
      expect(res.headers.get('cache-control'), method).toBe('no-store');
      expect(await res.json(), method).toEqual({ sub: user.id, name: 'Ada Lovelace' });
    }
  });

  it.skipIf(!available)('OIDC Core 5.3.3, RFC 6750 3: without openid, 403 with an insufficient_scope challenge; without a token, 401 with a bare one', async () => {
    const { access_token, id_token } = await signedIn('PROFILE_READ');
    expect(id_token).toBeUndefined();
    const refused = await fetch(`${server.url}/v2/auth/oauth2/userinfo`, { headers: { authorization: `Bearer ${access_token}` } });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="gatehouse", error="insufficient_scope", scope="openid"');
    expect(await refused.json()).toMatchObject({ error: 'insufficient_scope' });
    const none = await fetch(`${server.url}/v2/auth/oauth2/userinfo`);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="gatehouse"');
    expect(none.headers.get('cache-control')).toBe('no-store');
  });

  // docs/operating.md#signing-keys: `gatehouse keys list|rotate` against two running instances
  // over one database, the suite's server and a second one. After a rotation every instance
  // signs new ID tokens with the new key once its refresh period (SIGNING_KEYS_REFRESH_SECONDS,
  // 30 s by default) has passed on its clock, which the test moves instead of waiting; the
  // retired key stays at jwks_uri until every ID token it may have signed has expired, and the
  // tokens it signed keep verifying until then. It rotates the keys and moves the clock: last.
  describe('signing key rotation across two instances', () => {
    let first: TestServer;
    let second: TestServer;
    let user: TestUser;

    beforeAll(async () => {
      if (!available) return;
      first = server;
      second = await startTestServer(name, {}, first);
      user = await first.user();
    });
    afterAll(async () => second?.close());

    const keys = (args: string[]) => runCli(['keys', ...args], { env: { ...first.database.env, DATABASE_URL: first.database.url, SIGNING_KEYS_SECRET: TEST_SIGNING_KEYS_SECRET } });

    /** An ID token from `server`, through its own consent page and token endpoint. */
    async function idTokenFrom(server: TestServer): Promise<string> {
      const registered = await server.client(user, { scopes: ['openid'] });
      const browser = server.browser();
      expect((await browser.login(user.email, user.password)).status).toBe(303);
      const callback = await server.authorize(browser, { client_id: registered.clientId, redirect_uri: registered.redirectUri, response_type: 'code', scope: 'openid' });
      const tokens = await server.exchange(registered, callback.searchParams.get('code')!);
      expect(tokens.status).toBe(200);
      return (tokens.body as { id_token: string }).id_token;
    }

    async function published(server: TestServer): Promise<JSONWebKeySet> {
      return (await (await fetch(`${server.url}/v2/auth/oauth2/jwks`)).json()) as JSONWebKeySet;
    }

    /** Against `server`'s jwks_uri; `issuer`: the instance that signed it (each test instance has an address of its own). */
    async function verifies(server: TestServer, idToken: string, issuer = server.url): Promise<boolean> {
      const jwks = createLocalJWKSet(await published(server));
      return jwtVerify(idToken, jwks, { issuer, currentDate: new Date(server.clock()) }).then(
        () => true,
        () => false,
      );
    }

    const kidOf = (idToken: string) => decodeProtectedHeader(idToken).kid;

    it.skipIf(!available)('OIDC Core 10.1.1: a rotation reaches both instances within their refresh period; the retired key stays published until its tokens have expired', async () => {
      // Both instances started over one database made one first set between them.
      expect(await signingKeyRows(first.db)).toHaveLength(3);
      const before = await keys(['list', '--json']);
      expect(before.code, before.stderr).toBe(0);
      const listed = JSON.parse(before.stdout) as Array<{ kid: string; kty: string; status: string; generation: number }>;
      expect(listed.map((k) => [k.kty, k.status, k.generation]).sort()).toEqual([['EC', 'active', 1], ['OKP', 'active', 1], ['RSA', 'active', 1]]);
      const oldRsa = listed.find((k) => k.kty === 'RSA')!.kid;
      const oldToken = await idTokenFrom(second);
      expect(kidOf(await idTokenFrom(first))).toBe(oldRsa);
      expect(kidOf(oldToken)).toBe(oldRsa);

      const rotated = await keys(['rotate', '--json']);
      expect(rotated.code, rotated.stderr).toBe(0);
      const { created, retired } = JSON.parse(rotated.stdout) as { created: string[]; retired: string[] };
      expect(created).toHaveLength(3);
      expect([...retired].sort()).toEqual(listed.map((k) => k.kid).sort());
      expect(rotated.stdout).not.toContain(TEST_SIGNING_KEYS_SECRET);

      // SIGNING_KEYS_REFRESH_SECONDS (30 by default) later on each instance's clock: both sign with the new key.
      first.advance(30);
      second.advance(30);
      const newRsa = (JSON.parse((await keys(['list', '--json'])).stdout) as Array<{ kid: string; kty: string; status: string }>).find((k) => k.kty === 'RSA' && k.status === 'active')!.kid;
      expect(created).toContain(newRsa);
      for (const server of [first, second]) {
        const token = await idTokenFrom(server);
        expect(kidOf(token)).toBe(newRsa);
        expect(await verifies(server, token)).toBe(true);
        // The retired key is still published, and the token it signed still verifies.
        expect((await published(server)).keys.map((k) => k.kid)).toEqual(expect.arrayContaining([oldRsa, newRsa]));
        expect(await verifies(server, oldToken, second.url)).toBe(true);
      }
      const afterRotation = JSON.parse((await keys(['list', '--json'])).stdout) as Array<{ kid: string; status: string; published_until: string | null }>;
      expect(afterRotation.find((k) => k.kid === oldRsa)).toMatchObject({ status: 'published', published_until: expect.any(String) });

      // Past the refresh period and an ID token's lifetime (the access token's, 1800 s): gone.
      first.advance(1800);
      second.advance(1800);
      for (const server of [first, second]) expect((await published(server)).keys.map((k) => k.kid)).not.toContain(oldRsa);
    });
  });
});

// docs/operating.md#signing-keys: `gatehouse keys list|rotate` against two running instances over
// one database. After a rotation every instance signs new ID tokens with the new key once its
// refresh period (SIGNING_KEYS_REFRESH_SECONDS, 30 s by default) has passed on its clock, which
// the test moves instead of waiting; the retired key stays at jwks_uri until every ID token it
// may have signed has expired, and the tokens it signed keep verifying until then.
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.ts';
import { runCli } from '../helpers/cli.ts';
import { signingKeyRows } from '../helpers/rows.ts';
import { startTestServer, TEST_SIGNING_KEYS_SECRET, type TestServer, type TestUser } from '../helpers/server.ts';

describe.each(backends)('signing key rotation across two instances on $name', ({ name, available }) => {
  let first: TestServer;
  let second: TestServer;
  let user: TestUser;

  beforeAll(async () => {
    if (!available) return;
    first = await startTestServer(name);
    second = await startTestServer(name, {}, first);
    user = await first.user();
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

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

// Rate limits of docs/rules.md#rate-limits, with counters in memory and, when TEST_REDIS_URL is set,
// in Redis: token requests per client, failed client authentications per client and IP
// (shared by the token, revocation and introspection endpoints; a failed private_key_jwt
// assertion is one, docs/rules.md#client-authentication), failed logins per
// account and IP. Past a limit every request of that key is 429 with Retry-After, a
// correct secret or password too; OAuth endpoints answer with an RFC 6749 §5.2 body.
// Each test uses fresh clients and accounts, so its keys are its own (Redis persists).
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateClient } from '../../src/services/clients/changes.ts';
import { backends, redisUrl } from '../helpers/backends.ts';
import { formFields } from '../helpers/browser.ts';
import { assertionFields, clientKey, signAssertion, type AssertionClaims, type ClientKey } from '../helpers/client-keys.ts';
import { startTestServer, type TestClient, type TestServer, type TestUser } from '../helpers/server.ts';

const TOKEN = '/v2/auth/oauth2/token';
const REVOKE = '/v2/auth/oauth2/revoke';
const INTROSPECT = '/v2/auth/oauth2/introspect';

const stores = [
  { store: 'memory', available: true, env: {} as Record<string, string> },
  { store: 'redis', available: redisUrl !== undefined, env: redisUrl ? { REDIS_URL: redisUrl } : ({} as Record<string, string>) },
];

if (redisUrl === undefined) console.warn('Redis rate-limit suites skipped: set TEST_REDIS_URL=redis://... to run them.');

/** Stores on `to` the client `from` has, with its owner and its secrets (as hashes), through the stores. */
async function copyClient(from: TestServer, to: TestServer, clientId: string): Promise<void> {
  const client = (await from.services.stores.clients.find(clientId))!;
  await to.services.stores.users.insert((await from.services.stores.users.findById(client.ownerId))!);
  await to.services.stores.clients.insert(client);
  const shown = await from.services.stores.clients.listSecrets(clientId);
  for (const { id, hash } of (await from.oauth.findClientWithSecrets(clientId))!.secrets) {
    const { lastFour, createdAt } = shown.find((s) => s.id === id)!;
    await to.services.stores.clients.insertSecret({ id, clientId, hash, lastFour, createdAt });
  }
}

const form = { 'content-type': 'application/x-www-form-urlencoded' };

const post = (server: TestServer, path: string, fields: Record<string, string>, headers: Record<string, string> = form) =>
  server.post(path, new URLSearchParams(fields).toString(), headers);
const creds = (c: TestClient, secret = c.secret!) => ({ client_id: c.clientId, client_secret: secret });
const wrongSecret = (c: TestClient) => `gcs_${c.secret!.slice(4).split('').reverse().join('')}`;

/**
 * A caller's address as a trusting proxy reports it in X-Forwarded-For: in a random /64
 * (IPv6 callers are counted by their /64), so that counters a previous run left in Redis
 * are never this run's.
 */
const callerIp = () => `2001:db8:${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}::1`;
const via = (ip: string) => ({ 'x-forwarded-for': ip });
const basicHeader = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

/** How many of the answers have each status, e.g. { 401: 20, 429: 40 }. */
const tally = (statuses: number[]) => statuses.reduce<Record<number, number>>((t, s) => ({ ...t, [s]: (t[s] ?? 0) + 1 }), {});

/** Asserts a 429 the way an OAuth client sees it: Retry-After in seconds and an RFC 6749 §5.2 body. */
function expectOAuth429(res: { status: number; headers: Headers; body?: Record<string, unknown> }, windowSeconds: number) {
  expect(res.status).toBe(429);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(res.body).toEqual({ error: expect.stringMatching(/^[a-z_]+$/), error_description: expect.any(String) });
}

describe.each(stores)('rate limits with counters in $store', ({ available, env }) => {
  // One server per limit, so that one limit cannot make another limit's test pass.
  let tokenLimited: TestServer;
  let authLimited: TestServer;
  let loginLimited: TestServer;
  /** Behind a reverse proxy on loopback that it trusts (TRUST_PROXY), with every limit low. */
  let proxied: TestServer;
  let dev: TestUser;
  let tokenOwner: TestUser;
  let proxiedDev: TestUser;

  beforeAll(async () => {
    if (!available) return;
    // One after another: four servers starting at once on two busy cores can outlast
    // Fastify's plugin timeout.
    tokenLimited = await startTestServer('sqlite', { ...env, RATE_LIMIT_TOKEN_PER_MINUTE: '3' });
    authLimited = await startTestServer('sqlite', { ...env, RATE_LIMIT_CLIENT_AUTH_FAILURES_PER_MINUTE: '3' });
    loginLimited = await startTestServer('sqlite', { ...env, RATE_LIMIT_LOGIN_FAILURES_PER_15_MINUTES: '2' });
    proxied = await startTestServer('sqlite', {
      ...env,
      TRUST_PROXY: '127.0.0.1',
      RATE_LIMIT_TOKEN_PER_MINUTE: '3',
      RATE_LIMIT_CLIENT_AUTH_FAILURES_PER_MINUTE: '3',
      RATE_LIMIT_LOGIN_FAILURES_PER_15_MINUTES: '2',
      RATE_LIMIT_LOGIN_FAILURES_PER_IP_PER_15_MINUTES: '3',
    });
    [dev, tokenOwner, proxiedDev] = await Promise.all([authLimited.user(), tokenLimited.user(), proxied.user()]);
  });
  afterAll(async () => {
    await Promise.all([tokenLimited?.close(), authLimited?.close(), loginLimited?.close(), proxied?.close()]);
  });

  describe('token endpoint: requests per client per minute (RATE_LIMIT_TOKEN_PER_MINUTE, here 3)', () => {
    it.skipIf(!available)('answers 429 with Retry-After and an RFC 6749 §5.2 body once a client passes its limit (docs/rules.md#rate-limits)', async () => {
      const c = await tokenLimited.client(tokenOwner);
      const request = () => post(tokenLimited, TOKEN, { grant_type: 'refresh_token', refresh_token: 'grt_unknown', ...creds(c) });
      for (let i = 0; i < 3; i++) {
        const res = await request();
        expect(res.status, `request ${i + 1}`).toBe(400); // invalid_grant, but counted
      }
      const limited = await request();
      expectOAuth429(limited, 60);
      expect(limited.headers.get('cache-control')).toBe('no-store');
    });

    it.skipIf(!available)('counts each client separately: another client of the same address is unaffected (docs/rules.md#rate-limits: per client)', async () => {
      const a = await tokenLimited.client(tokenOwner);
      const b = await tokenLimited.client(tokenOwner);
      for (let i = 0; i < 4; i++) await post(tokenLimited, TOKEN, { grant_type: 'refresh_token', refresh_token: 'grt_x', ...creds(a) });
      expect((await post(tokenLimited, TOKEN, { grant_type: 'refresh_token', refresh_token: 'grt_x', ...creds(a) })).status).toBe(429);
      const other = await post(tokenLimited, TOKEN, { grant_type: 'refresh_token', refresh_token: 'grt_x', ...creds(b) });
      expect(other.status).toBe(400);
      expect(other.body).toMatchObject({ error: 'invalid_grant' });
    });

    it.skipIf(!available)('counts only requests in which the client authenticated: requests naming it without its secret do not spend its limit (docs/rules.md#rate-limits)', async () => {
      const victim = await tokenLimited.client(tokenOwner);
      const attacker = [
        { grant_type: 'refresh_token', refresh_token: 'grt_x', client_id: victim.clientId },
        { grant_type: 'refresh_token', refresh_token: 'grt_x', ...creds(victim, wrongSecret(victim)) },
      ];
      for (let i = 0; i < 6; i++) expect((await post(tokenLimited, TOKEN, attacker[i % 2]!)).status).toBe(401);
      const basicNoSecret = { ...form, authorization: basicHeader(victim.clientId, '') };
      expect((await post(tokenLimited, TOKEN, { grant_type: 'refresh_token', refresh_token: 'grt_x' }, basicNoSecret)).status).toBe(401);
      // The application's own requests still have their whole limit of three.
      for (let i = 0; i < 3; i++) {
        const res = await post(tokenLimited, TOKEN, { grant_type: 'refresh_token', refresh_token: 'grt_x', ...creds(victim) });
        expect(res.status, `request ${i + 1}`).toBe(400);
        expect(res.body).toMatchObject({ error: 'invalid_grant' });
      }
      expectOAuth429(await post(tokenLimited, TOKEN, { grant_type: 'refresh_token', refresh_token: 'grt_x', ...creds(victim) }), 60);
    });

    it.skipIf(!available)('keys the limit by the client of HTTP Basic as well as of the body (docs/rules.md#rate-limits)', async () => {
      const c = await tokenLimited.client(tokenOwner);
      const basic = { ...form, authorization: `Basic ${Buffer.from(`${c.clientId}:${c.secret}`).toString('base64')}` };
      await post(tokenLimited, TOKEN, { grant_type: 'refresh_token', refresh_token: 'grt_x' }, basic);
      await post(tokenLimited, TOKEN, { grant_type: 'refresh_token', refresh_token: 'grt_x', ...creds(c) });
      await post(tokenLimited, TOKEN, { grant_type: 'refresh_token', refresh_token: 'grt_x' }, basic);
      expectOAuth429(await post(tokenLimited, TOKEN, { grant_type: 'refresh_token', refresh_token: 'grt_x', ...creds(c) }), 60);
      expectOAuth429(await post(tokenLimited, TOKEN, { grant_type: 'refresh_token', refresh_token: 'grt_x' }, basic), 60);
    });

    it.skipIf(!available)('tells the client its count in X-RateLimit-Limit, -Remaining and -Reset on every answer it was counted in, the 429 too (docs/operating.md)', async () => {
      const c = await tokenLimited.client(tokenOwner);
      const counted = (res: { headers: Headers }) => ['limit', 'remaining', 'reset'].map((name) => res.headers.get(`x-ratelimit-${name}`));
      // Not authenticated: not counted, and told nothing of the client's limit.
      const stranger = await post(tokenLimited, TOKEN, { grant_type: 'refresh_token', refresh_token: 'grt_x', ...creds(c, wrongSecret(c)) });
      expect(stranger.status).toBe(401);
      expect(counted(stranger)).toEqual([null, null, null]);
      const answers = [];
      for (let i = 0; i < 3; i++) answers.push(await post(tokenLimited, TOKEN, { grant_type: 'refresh_token', refresh_token: 'grt_x', ...creds(c) }));
      expect(answers.map((res) => res.status)).toEqual([400, 400, 400]);
      expect(answers.map((res) => counted(res).slice(0, 2))).toEqual([['3', '2'], ['3', '1'], ['3', '0']]);
      for (const res of answers) expect(Number(res.headers.get('x-ratelimit-reset'))).toBeGreaterThanOrEqual(1);
      for (const res of answers) expect(Number(res.headers.get('x-ratelimit-reset'))).toBeLessThanOrEqual(60);
      expect(answers[0]!.headers.get('retry-after')).toBeNull();
      const limited = await post(tokenLimited, TOKEN, { grant_type: 'refresh_token', refresh_token: 'grt_x', ...creds(c) });
      expectOAuth429(limited, 60);
      expect(counted(limited)).toEqual(['3', '0', limited.headers.get('retry-after')]);
    });

    it.skipIf(!available)('counts a successful exchange as well and says so on the 200 (docs/operating.md)', async () => {
      const c = await tokenLimited.client(tokenOwner);
      const res = await tokenLimited.exchange(c, await tokenLimited.code(c, tokenOwner));
      expect(res.status).toBe(200);
      expect([res.headers.get('x-ratelimit-limit'), res.headers.get('x-ratelimit-remaining')]).toEqual(['3', '2']);
    });

    it.skipIf(!available)('a refused secret check says when to try again in Retry-After only: no request of the client was counted (docs/operating.md)', async () => {
      const c = await authLimited.client(dev);
      for (let i = 0; i < 3; i++) await post(authLimited, TOKEN, { grant_type: 'refresh_token', refresh_token: 'grt_x', ...creds(c, wrongSecret(c)) });
      const limited = await post(authLimited, TOKEN, { grant_type: 'refresh_token', refresh_token: 'grt_x', ...creds(c) });
      expectOAuth429(limited, 60);
      expect(limited.headers.get('x-ratelimit-limit')).toBeNull();
    });
  });

  describe('failed client authentications per client and IP (RATE_LIMIT_CLIENT_AUTH_FAILURES_PER_MINUTE, here 3)', () => {
    it.skipIf(!available)('refuses even the correct secret with 429 and Retry-After after the limit of failures (docs/rules.md#rate-limits)', async () => {
      const c = await authLimited.client(dev);
      for (let i = 0; i < 3; i++) {
        const res = await post(authLimited, TOKEN, { grant_type: 'refresh_token', refresh_token: 'grt_x', ...creds(c, wrongSecret(c)) });
        expect(res.status, `failure ${i + 1}`).toBe(401);
        expect(res.body).toMatchObject({ error: 'invalid_client' });
      }
      const correct = await post(authLimited, TOKEN, { grant_type: 'refresh_token', refresh_token: 'grt_x', ...creds(c) });
      expectOAuth429(correct, 60);
      expect(correct.headers.get('cache-control')).toBe('no-store');
    });

    it.skipIf(!available)('does not count successful authentications (docs/rules.md#rate-limits: failed ones only)', async () => {
      const c = await authLimited.client(dev);
      for (let i = 0; i < 6; i++) {
        const res = await post(authLimited, INTROSPECT, { token: 'gat_x', ...creds(c) });
        expect(res.status, `request ${i + 1}`).toBe(200);
      }
      // Two failures after six successes are still under the limit of three.
      for (let i = 0; i < 2; i++) expect((await post(authLimited, INTROSPECT, { token: 'gat_x', ...creds(c, wrongSecret(c)) })).status).toBe(401);
      expect((await post(authLimited, INTROSPECT, { token: 'gat_x', ...creds(c) })).body).toEqual({ active: false });
    });

    it.skipIf(!available)('shares one failure count across token, revocation and introspection, and blocks all three (docs/rules.md#rate-limits)', async () => {
      const c = await authLimited.client(dev);
      expect((await post(authLimited, TOKEN, { grant_type: 'refresh_token', refresh_token: 'grt_x', ...creds(c, wrongSecret(c)) })).status).toBe(401);
      expect((await post(authLimited, REVOKE, { token: 'gat_x', ...creds(c, wrongSecret(c)) })).status).toBe(401);
      expect((await post(authLimited, INTROSPECT, { token: 'gat_x', ...creds(c, wrongSecret(c)) })).status).toBe(401);
      expectOAuth429(await post(authLimited, REVOKE, { token: 'gat_x', ...creds(c) }), 60);
      expectOAuth429(await post(authLimited, INTROSPECT, { token: 'gat_x', ...creds(c) }), 60);
      expectOAuth429(await post(authLimited, TOKEN, { grant_type: 'refresh_token', refresh_token: 'grt_x', ...creds(c) }), 60);
    });

    it.skipIf(!available)('counts per client: failures of one client do not block another (docs/rules.md#rate-limits: per client and IP)', async () => {
      const a = await authLimited.client(dev);
      const b = await authLimited.client(dev);
      for (let i = 0; i < 3; i++) await post(authLimited, INTROSPECT, { token: 'gat_x', ...creds(a, wrongSecret(a)) });
      expect((await post(authLimited, INTROSPECT, { token: 'gat_x', ...creds(a) })).status).toBe(429);
      const res = await post(authLimited, INTROSPECT, { token: 'gat_x', ...creds(b) });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ active: false });
    });

    it.skipIf(!available)('counts failures sent with HTTP Basic under the Basic client_id (docs/rules.md#client-authentication, docs/rules.md#rate-limits)', async () => {
      const c = await authLimited.client(dev);
      const basic = (secret: string) => ({ ...form, authorization: `Basic ${Buffer.from(`${c.clientId}:${secret}`).toString('base64')}` });
      for (let i = 0; i < 3; i++) {
        const res = await post(authLimited, INTROSPECT, { token: 'gat_x' }, basic(wrongSecret(c)));
        expect(res.status).toBe(401);
      }
      expectOAuth429(await post(authLimited, INTROSPECT, { token: 'gat_x' }, basic(c.secret!)), 60);
      expectOAuth429(await post(authLimited, INTROSPECT, { token: 'gat_x', ...creds(c) }), 60);
    });

    it.skipIf(!available)('keys failures by the client_id as authentication decodes it: percent-encoding the Basic user name buys no fresh tries (docs/rules.md#rate-limits)', async () => {
      const c = await authLimited.client(dev);
      // RFC 6749 §2.3.1: the Basic user name is form-encoded, so %XX of any one character is
      // the same client to authentication. Each spelling below is a different raw string.
      const spelled = (i: number) =>
        `${c.clientId.slice(0, i)}%${c.clientId.charCodeAt(i).toString(16).toUpperCase()}${c.clientId.slice(i + 1)}`;
      for (let i = 0; i < 3; i++) {
        const res = await post(authLimited, INTROSPECT, { token: 'gat_x' }, { ...form, authorization: basicHeader(spelled(i), wrongSecret(c)) });
        expect(res.status, `failure ${i + 1}`).toBe(401);
      }
      expectOAuth429(await post(authLimited, INTROSPECT, { token: 'gat_x' }, { ...form, authorization: basicHeader(spelled(3), c.secret!) }), 60);
      expectOAuth429(await post(authLimited, INTROSPECT, { token: 'gat_x', ...creds(c) }), 60);
    });

    it.skipIf(!available)('serves a burst of 30 concurrent correct authentications of one client although the failure limit is 3 (docs/rules.md#rate-limits: failures only)', async () => {
      const c = await authLimited.client(dev);
      const results = await Promise.all(Array.from({ length: 30 }, () => post(authLimited, INTROSPECT, { token: 'gat_x', ...creds(c) })));
      expect(tally(results.map((r) => r.status))).toEqual({ 200: 30 });
    });

    it.skipIf(!available || !env.REDIS_URL)('shares the failure count with another server on the same Redis (docs/rules.md#rate-limits, docs/rules.md#scale-out) [redis only]', async () => {
      const twin = await startTestServer('sqlite', { ...env, RATE_LIMIT_CLIENT_AUTH_FAILURES_PER_MINUTE: '3' });
      try {
        // Same client id on both servers' databases: the key is client and IP, not a row.
        const c = await authLimited.client(dev);
        await copyClient(authLimited, twin, c.clientId);
        expect((await post(twin, INTROSPECT, { token: 'gat_x', ...creds(c) })).status).toBe(200);
        expect((await post(authLimited, INTROSPECT, { token: 'gat_x', ...creds(c, wrongSecret(c)) })).status).toBe(401);
        expect((await post(twin, INTROSPECT, { token: 'gat_x', ...creds(c, wrongSecret(c)) })).status).toBe(401);
        expect((await post(authLimited, INTROSPECT, { token: 'gat_x', ...creds(c, wrongSecret(c)) })).status).toBe(401);
        expectOAuth429(await post(twin, INTROSPECT, { token: 'gat_x', ...creds(c) }), 60);
        expectOAuth429(await post(authLimited, INTROSPECT, { token: 'gat_x', ...creds(c) }), 60);
      } finally {
        await twin.close();
      }
    });

    it.skipIf(!available)('limits guessing against an unknown client_id too (docs/rules.md#rate-limits)', async () => {
      const ghost = { client_id: `ghost-${Math.random().toString(36).slice(2)}`, client_secret: 'gcs_nothing' };
      for (let i = 0; i < 3; i++) expect((await post(authLimited, INTROSPECT, { token: 'gat_x', ...ghost })).status).toBe(401);
      expectOAuth429(await post(authLimited, INTROSPECT, { token: 'gat_x', ...ghost }), 60);
    });
  });

  // docs/rules.md#client-authentication: a failed private_key_jwt assertion counts like a wrong
  // secret. On SQLite alone, as every limit suite of this file: what these tests vary is where
  // the counters live (memory or Redis), not the database; the assertion checks themselves run
  // on both databases in test/http/token-endpoint/private-key-jwt.ts.
  describe('failed private_key_jwt assertions per client and IP (RATE_LIMIT_CLIENT_AUTH_FAILURES_PER_MINUTE, here 3)', () => {
    /** An approved confidential client registered for private_key_jwt with one key. */
    async function keyClient(): Promise<{ client: TestClient; key: ClientKey }> {
      const client = await authLimited.client(dev);
      const key = await clientKey();
      await updateClient(authLimited.services, client.clientId, null, { tokenEndpointAuthMethod: 'private_key_jwt', jwks: key.jwks });
      return { client, key };
    }
    const sign = (key: ClientKey, client: TestClient, claims: AssertionClaims = {}) => signAssertion(key, client.clientId, authLimited.url, claims);
    const refreshWith = (fields: Record<string, string>) => post(authLimited, TOKEN, { grant_type: 'refresh_token', refresh_token: 'grt_x', ...fields });
    /** An assertion that fails the checks of docs/rules.md#client-authentication: expired. */
    const expired = (key: ClientKey, client: TestClient) => sign(key, client, { expIn: -120, iat: Math.floor(Date.now() / 1000) - 180 });

    function expectRefusedAssertion(res: { status: number; body?: Record<string, unknown> }, description: RegExp): void {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'invalid_client', error_description: expect.stringMatching(description) });
    }

    /** The 429 of a spent limit as RFC 6749 §5.2 names it: temporarily_unavailable, with Retry-After. */
    function expectSpent(res: { status: number; headers: Headers; body?: Record<string, unknown> }): void {
      expectOAuth429(res, 60);
      expect(res.body!.error).toBe('temporarily_unavailable');
      expect(res.body!.error_description).toMatch(/too many failed client authentications/);
      expect(res.headers.get('cache-control')).toBe('no-store');
    }

    it.skipIf(!available)('docs/rules.md#client-authentication, docs/rules.md#rate-limits: an assertion with a bad signature, an expired one and one for another audience each count as a failure of their client; past the limit its good assertion is refused too, 429 temporarily_unavailable with Retry-After (RFC 6749 §5.2), at every endpoint', async () => {
      const { client, key } = await keyClient();
      const stranger = await clientKey();
      // A success is not a failure: it spends nothing of the limit.
      const good = await refreshWith(assertionFields(await sign(key, client)));
      expect(good.status).toBe(400);
      expect(good.body).toMatchObject({ error: 'invalid_grant' });

      expectRefusedAssertion(await refreshWith(assertionFields(await sign({ ...stranger, kid: key.kid }, client))), /signature does not verify/);
      expectRefusedAssertion(await refreshWith(assertionFields(await expired(key, client))), /expired/);
      expectRefusedAssertion(await post(authLimited, INTROSPECT, { token: 'gat_x', ...assertionFields(await sign(key, client, { aud: 'https://elsewhere.example' })) }), /aud must be the issuer identifier/);

      expectSpent(await refreshWith(assertionFields(await sign(key, client))));
      expectSpent(await post(authLimited, INTROSPECT, { token: 'gat_x', ...assertionFields(await sign(key, client)) }));
      expectSpent(await post(authLimited, REVOKE, { token: 'gat_x', ...assertionFields(await sign(key, client)) }));

      // The limit is that client's: another client's good assertion, from the same address, authenticates.
      const other = await keyClient();
      const answer = await post(authLimited, INTROSPECT, { token: 'gat_x', ...assertionFields(await sign(other.key, other.client)) });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ active: false });
    });

    it.skipIf(!available)('docs/rules.md#client-authentication, docs/rules.md#rate-limits: an assertion that names no client it could count against (not a JWT, or a client_id other than its sub) is refused without spending the limit of the client it names', async () => {
      const victim = await keyClient();
      const other = await keyClient();
      for (let i = 0; i < 4; i++) {
        expectRefusedAssertion(await refreshWith({ client_id: victim.client.clientId, ...assertionFields('not-a-jwt') }), /must be a JWT whose sub is the client_id/);
        // A well-signed assertion of the other client, sent under the victim's client_id.
        expectRefusedAssertion(await refreshWith({ client_id: victim.client.clientId, ...assertionFields(await sign(other.key, other.client)) }), /client_id differs from the sub/);
        // And the other way round: neither the client_id's client nor the sub's pays.
        expectRefusedAssertion(await refreshWith({ client_id: other.client.clientId, ...assertionFields(await sign(victim.key, victim.client)) }), /client_id differs from the sub/);
      }
      // Both clients keep their whole limit of three failures: the fourth is the first refused.
      for (const { client, key } of [victim, other]) {
        for (let i = 0; i < 3; i++) expectRefusedAssertion(await refreshWith(assertionFields(await expired(key, client))), /expired/);
        expectSpent(await refreshWith(assertionFields(await sign(key, client))));
      }
    });
  });

  describe('failed logins per account and IP (RATE_LIMIT_LOGIN_FAILURES_PER_15_MINUTES, here 2)', () => {
    async function attempt(email: string, password: string) {
      const browser = loginLimited.browser();
      const res = await browser.login(email, password);
      return { res, browser };
    }

    it.skipIf(!available)('refuses even the right password with 429 and Retry-After after the limit of failures, logs nobody in, and spares other accounts (docs/rules.md#rate-limits: per account and IP)', async () => {
      const [user, other] = await Promise.all([loginLimited.user(), loginLimited.user()]);
      for (let i = 0; i < 2; i++) {
        const { res } = await attempt(user.email, 'wrong-password');
        expect(res.status, `failure ${i + 1}`).toBe(401);
      }
      const { res, browser } = await attempt(user.email, user.password);
      expect(res.status).toBe(429);
      const retryAfter = Number(res.headers.get('retry-after'));
      expect(Number.isInteger(retryAfter)).toBe(true);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(15 * 60);
      expect(res.body).toMatch(/too many failed attempts/i);
      // No session was started.
      expect((await browser.get('/')).body).not.toContain('You are logged in');
      // The same email in another case is the same account.
      expect((await attempt(user.email.toUpperCase(), user.password)).res.status).toBe(429);
      // Another account from the same address is not blocked.
      expect((await attempt(other.email, other.password)).res.status).toBe(303);
    });

    it.skipIf(!available)('does not count successful logins (docs/rules.md#rate-limits: failed attempts only)', async () => {
      const user = await loginLimited.user();
      for (let i = 0; i < 2; i++) {
        const { res, browser } = await attempt(user.email, user.password);
        expect(res.status).toBe(303);
        if (i === 0) expect((await browser.get('/')).body).toContain('You are logged in');
      }
      // Had the two successes counted, this would be 429.
      const { res } = await attempt(user.email, 'wrong');
      expect(res.status).toBe(401);
      // ...and the page of a refused attempt is a working form again (CSRF field present).
      expect(formFields(res.body)._csrf).toBeTruthy();
    });

    it.skipIf(!available)('ignores X-Forwarded-For when TRUST_PROXY is unset: a caller cannot escape its limit by naming other addresses (docs/rules.md#rate-limits, docs/rules.md#configuration)', async () => {
      const user = await loginLimited.user();
      for (let i = 0; i < 2; i++) expect((await loginLimited.browser(via(callerIp())).login(user.email, 'wrong')).status).toBe(401);
      expect((await loginLimited.browser(via(callerIp())).login(user.email, user.password)).status).toBe(429);
    });
  });

  describe('behind a trusted reverse proxy (TRUST_PROXY=127.0.0.1): limits per caller IP across accounts', () => {
    it.skipIf(!available)('limits failed logins per IP across accounts: password spraying is refused past RATE_LIMIT_LOGIN_FAILURES_PER_IP_PER_15_MINUTES (here 3) (docs/rules.md#rate-limits)', async () => {
      const sprayer = callerIp();
      const accounts = await Promise.all([proxied.user(), proxied.user(), proxied.user(), proxied.user()]);
      // One wrong password per account: no account reaches its own limit of two.
      for (const account of accounts.slice(0, 3)) expect((await proxied.browser(via(sprayer)).login(account.email, 'Summer2026!')).status).toBe(401);
      // The fourth account is refused from that address, its right password too.
      const res = await proxied.browser(via(sprayer)).login(accounts[3]!.email, accounts[3]!.password);
      expect(res.status).toBe(429);
      expect(res.body).toMatch(/too many failed attempts/i);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Number(res.headers.get('retry-after'))).toBeLessThanOrEqual(15 * 60);
      // So is an e-mail that belongs to no account.
      expect((await proxied.browser(via(sprayer)).login(`nobody-${randomBytes(3).toString('hex')}@example.com`, 'x')).status).toBe(429);
      // The real caller behind the proxy is the key: another caller logs in.
      expect((await proxied.browser(via(callerIp())).login(accounts[3]!.email, accounts[3]!.password)).status).toBe(303);
    });

    it.skipIf(!available)('counts an IPv6 caller by its /64: hopping between addresses of its own network buys no fresh tries (docs/rules.md#rate-limits)', async () => {
      const network = callerIp().slice(0, -1); // "2001:db8:x:y::"
      const accounts = await Promise.all([proxied.user(), proxied.user(), proxied.user(), proxied.user()]);
      for (const [i, account] of accounts.slice(0, 3).entries()) {
        expect((await proxied.browser(via(`${network}${i + 1}`)).login(account.email, 'Summer2026!')).status).toBe(401);
      }
      expect((await proxied.browser(via(`${network}beef:4`)).login(accounts[3]!.email, accounts[3]!.password)).status).toBe(429);
    });

    it.skipIf(!available)('does not count successful logins against the IP (docs/rules.md#rate-limits: failed attempts only)', async () => {
      const ip = callerIp();
      const user = await proxied.user();
      for (let i = 0; i < 4; i++) expect((await proxied.browser(via(ip)).login(user.email, user.password)).status).toBe(303);
      expect((await proxied.browser(via(ip)).login(user.email, 'wrong')).status).toBe(401);
    });

    it.skipIf(!available)('keys failed client authentications on the caller behind the proxy: an attacker elsewhere cannot block the application (docs/rules.md#rate-limits)', async () => {
      const c = await proxied.client(proxiedDev);
      const attacker = via(callerIp());
      for (let i = 0; i < 3; i++) expect((await post(proxied, INTROSPECT, { token: 'gat_x', ...creds(c, wrongSecret(c)) }, { ...form, ...attacker })).status).toBe(401);
      expectOAuth429(await post(proxied, INTROSPECT, { token: 'gat_x', ...creds(c) }, { ...form, ...attacker }), 60);
      const app = await post(proxied, INTROSPECT, { token: 'gat_x', ...creds(c) }, { ...form, ...via(callerIp()) });
      expect(app.status).toBe(200);
      expect(app.body).toEqual({ active: false });
    });

    it.skipIf(!available)('counts token requests of a public client per client and IP: anyone can name it, so nobody elsewhere can spend its limit (docs/rules.md#rate-limits)', async () => {
      const app = await proxied.client(proxiedDev, { kind: 'public' });
      const refresh = { grant_type: 'refresh_token', refresh_token: 'grt_x', client_id: app.clientId };
      const attacker = { ...form, ...via(callerIp()) };
      for (let i = 0; i < 3; i++) expect((await post(proxied, TOKEN, refresh, attacker)).status).toBe(400);
      expectOAuth429(await post(proxied, TOKEN, refresh, attacker), 60);
      // The application on a user's device still has its limit.
      const user = await post(proxied, TOKEN, refresh, { ...form, ...via(callerIp()) });
      expect(user.status).toBe(400);
      expect(user.body).toMatchObject({ error: 'invalid_grant' });
    });

    describe('verification codes (/v2/verified-resources)', () => {
      let token: string;
      beforeAll(async () => {
        if (!available) return;
        const user = await proxied.user();
        const client = await proxied.client(proxiedDev, { scopes: ['VERIFIED_RESOURCES_WRITE'] });
        const res = await proxied.exchange(client, await proxied.code(client, user, { scope: 'VERIFIED_RESOURCES_WRITE' }));
        expect(res.status).toBe(200);
        token = res.body.access_token as string;
      });

      const requestCode = async (email: string, ip: string) => {
        const res = await fetch(`${proxied.url}/v2/verified-resources/emails/verification-code/request`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...via(ip) },
          body: JSON.stringify({ email }),
        });
        return { status: res.status, headers: res.headers, body: (await res.json()) as { status: string; error?: { code: string; message: string } } };
      };
      const address = () => `verify-${randomBytes(4).toString('hex')}@example.com`;

      it.skipIf(!available)('limits code requests per IP across addresses (RATE_LIMIT_LOGIN_FAILURES_PER_IP_PER_15_MINUTES, here 3) with 429 rate_limited and Retry-After (docs/rules.md#rate-limits)', async () => {
        const ip = callerIp();
        for (let i = 0; i < 3; i++) expect((await requestCode(address(), ip)).status, `request ${i + 1}`).toBe(200);
        const limited = await requestCode(address(), ip);
        expect(limited.status).toBe(429);
        expect(limited.body).toEqual({ status: 'error', timestamp: expect.any(String), path: expect.any(String), error: { code: 'rate_limited', message: expect.stringMatching(/verification code/) } });
        expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(15 * 60);
        expect((await requestCode(address(), callerIp())).status).toBe(200);
      });

      it.skipIf(!available)('limits code requests per address across IPs (RATE_LIMIT_LOGIN_FAILURES_PER_15_MINUTES, here 2), so new codes do not buy endless guesses (docs/rules.md#rate-limits)', async () => {
        const email = address();
        // Each new code resets the five attempts of the last one: without this limit a caller
        // guesses five times per request, from as many addresses as it has.
        expect((await requestCode(email, callerIp())).status).toBe(200);
        expect((await requestCode(email, callerIp())).status).toBe(200);
        const limited = await requestCode(email, callerIp());
        expect(limited.status).toBe(429);
        expect(limited.body.error?.code).toBe('rate_limited');
        // Another address of the same user is not affected.
        expect((await requestCode(address(), callerIp())).status).toBe(200);
      });
    });
  });
});

/** Every store on every database: client authentication reads the database under load. */
const combinations = stores.flatMap((s) => backends.map((b) => ({ ...s, backend: b.name, available: s.available && b.available })));

describe.each(combinations)('concurrent bursts with counters in $store on $backend', ({ available, env, backend }) => {
  let auth: TestServer;
  let login: TestServer;
  let dev: TestUser;
  beforeAll(async () => {
    if (!available) return;
    auth = await startTestServer(backend, { ...env, RATE_LIMIT_CLIENT_AUTH_FAILURES_PER_MINUTE: '20' });
    login = await startTestServer(backend, { ...env, RATE_LIMIT_LOGIN_FAILURES_PER_15_MINUTES: '10' });
    dev = await auth.user();
  });
  afterAll(async () => {
    await Promise.all([auth?.close(), login?.close()]);
  });

  it.skipIf(!available)('checks no more secrets than the limit of 20 when 60 authentications arrive at once, the right secret among them (docs/rules.md#rate-limits)', async () => {
    const c = await auth.client(dev);
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) => post(auth, INTROSPECT, { token: 'gat_x', ...creds(c, i === 30 ? c.secret! : wrongSecret(c)) })),
    );
    const count = tally(results.map((r) => r.status));
    // Each 401 is a secret that was checked and found wrong; 429 answers checked nothing.
    expect(Object.keys(count).every((s) => ['200', '401', '429'].includes(s)), JSON.stringify(count)).toBe(true);
    expect(count[401] ?? 0, JSON.stringify(count)).toBeLessThanOrEqual(20);
    expect(count[200] ?? 0).toBeLessThanOrEqual(1);
    for (const r of results.filter((r) => r.status === 429)) expectOAuth429(r, 60);
  });

  it.skipIf(!available)('serves 40 concurrent correct authentications of one client although the failure limit is 20 (docs/rules.md#rate-limits: failures only)', async () => {
    const c = await auth.client(dev);
    const results = await Promise.all(Array.from({ length: 40 }, () => post(auth, INTROSPECT, { token: 'gat_x', ...creds(c) })));
    expect(tally(results.map((r) => r.status))).toEqual({ 200: 40 });
  });

  it.skipIf(!available)('checks no more passwords than the limit of 10 when 36 logins to one account arrive at once, the right password among them (docs/rules.md#rate-limits)', async () => {
    const user = await login.user();
    const browsers = Array.from({ length: 36 }, () => login.browser());
    const forms = await Promise.all(browsers.map((b) => b.get('/login')));
    const results = await Promise.all(
      browsers.map((b, i) => b.post('/login', { _csrf: formFields(forms[i]!.body)._csrf!, email: user.email, password: i === 18 ? user.password : `wrong-${i}`, next: '/' })),
    );
    const count = tally(results.map((r) => r.status));
    expect(Object.keys(count).every((s) => ['303', '401', '429'].includes(s)), JSON.stringify(count)).toBe(true);
    // Every answer but 429 is a password that was checked.
    expect((count[401] ?? 0) + (count[303] ?? 0), JSON.stringify(count)).toBeLessThanOrEqual(10);
  });
});

it('keeps the limits off when set to 0 (docs/rules.md#rate-limits)', async () => {
  const off = await startTestServer('sqlite', { RATE_LIMIT_TOKEN_PER_MINUTE: '0', RATE_LIMIT_CLIENT_AUTH_FAILURES_PER_MINUTE: '0' });
  try {
    const owner = await off.user();
    const c = await off.client(owner);
    for (let i = 0; i < 8; i++) {
      const res = await post(off, TOKEN, { grant_type: 'refresh_token', refresh_token: 'grt_x', ...creds(c, wrongSecret(c)) });
      expect(res.status).toBe(401);
    }
    expect((await post(off, TOKEN, { grant_type: 'refresh_token', refresh_token: 'grt_x', ...creds(c) })).status).toBe(400);
  } finally {
    await off.close();
  }
});

// Rate limits of SPEC §2 item 18, with counters in memory and, when TEST_REDIS_URL is set,
// in Redis: token requests per client, failed client authentications per client and IP
// (shared by the token, revocation and introspection endpoints), failed logins per
// account and IP. Past a limit every request of that key is 429 with Retry-After, a
// correct secret or password too; OAuth endpoints answer with an RFC 6749 §5.2 body.
// Each test uses fresh clients and accounts, so its keys are its own (Redis persists).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisUrl } from '../helpers/backends.ts';
import { formFields } from '../helpers/browser.ts';
import { startTestServer, type TestClient, type TestServer, type TestUser } from '../helpers/server.ts';

const TOKEN = '/v2/auth/oauth2/token';
const REVOKE = '/v2/auth/oauth2/revoke';
const INTROSPECT = '/v2/auth/oauth2/introspect';

const stores = [
  { store: 'memory', available: true, env: {} as Record<string, string> },
  { store: 'redis', available: redisUrl !== undefined, env: redisUrl ? { REDIS_URL: redisUrl } : ({} as Record<string, string>) },
];

if (redisUrl === undefined) console.warn('Redis rate-limit suites skipped: set TEST_REDIS_URL=redis://... to run them.');

const form = { 'content-type': 'application/x-www-form-urlencoded' };

const post = (server: TestServer, path: string, fields: Record<string, string>, headers: Record<string, string> = form) =>
  server.post(path, new URLSearchParams(fields).toString(), headers);
const creds = (c: TestClient, secret = c.secret!) => ({ client_id: c.clientId, client_secret: secret });
const wrongSecret = (c: TestClient) => `gcs_${c.secret!.slice(4).split('').reverse().join('')}`;

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
  let dev: TestUser;
  let tokenOwner: TestUser;

  beforeAll(async () => {
    if (!available) return;
    [tokenLimited, authLimited, loginLimited] = await Promise.all([
      startTestServer('sqlite', { ...env, RATE_LIMIT_TOKEN_PER_MINUTE: '3' }),
      startTestServer('sqlite', { ...env, RATE_LIMIT_CLIENT_AUTH_FAILURES_PER_MINUTE: '3' }),
      startTestServer('sqlite', { ...env, RATE_LIMIT_LOGIN_FAILURES_PER_15_MINUTES: '2' }),
    ]);
    [dev, tokenOwner] = await Promise.all([authLimited.user(), tokenLimited.user()]);
  });
  afterAll(async () => {
    await Promise.all([tokenLimited?.close(), authLimited?.close(), loginLimited?.close()]);
  });

  describe('token endpoint: requests per client per minute (RATE_LIMIT_TOKEN_PER_MINUTE, here 3)', () => {
    it.skipIf(!available)('answers 429 with Retry-After and an RFC 6749 §5.2 body once a client passes its limit (SPEC §2 item 18)', async () => {
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

    it.skipIf(!available)('counts each client separately: another client of the same address is unaffected (SPEC §2 item 18: per client)', async () => {
      const a = await tokenLimited.client(tokenOwner);
      const b = await tokenLimited.client(tokenOwner);
      for (let i = 0; i < 4; i++) await post(tokenLimited, TOKEN, { grant_type: 'refresh_token', refresh_token: 'grt_x', ...creds(a) });
      expect((await post(tokenLimited, TOKEN, { grant_type: 'refresh_token', refresh_token: 'grt_x', ...creds(a) })).status).toBe(429);
      const other = await post(tokenLimited, TOKEN, { grant_type: 'refresh_token', refresh_token: 'grt_x', ...creds(b) });
      expect(other.status).toBe(400);
      expect(other.body).toMatchObject({ error: 'invalid_grant' });
    });

    it.skipIf(!available)('keys the limit by the client of HTTP Basic as well as of the body (SPEC §2 item 18)', async () => {
      const c = await tokenLimited.client(tokenOwner);
      const basic = { ...form, authorization: `Basic ${Buffer.from(`${c.clientId}:${c.secret}`).toString('base64')}` };
      await post(tokenLimited, TOKEN, { grant_type: 'refresh_token', refresh_token: 'grt_x' }, basic);
      await post(tokenLimited, TOKEN, { grant_type: 'refresh_token', refresh_token: 'grt_x', ...creds(c) });
      await post(tokenLimited, TOKEN, { grant_type: 'refresh_token', refresh_token: 'grt_x' }, basic);
      expectOAuth429(await post(tokenLimited, TOKEN, { grant_type: 'refresh_token', refresh_token: 'grt_x', ...creds(c) }), 60);
      expectOAuth429(await post(tokenLimited, TOKEN, { grant_type: 'refresh_token', refresh_token: 'grt_x' }, basic), 60);
    });
  });

  describe('failed client authentications per client and IP (RATE_LIMIT_CLIENT_AUTH_FAILURES_PER_MINUTE, here 3)', () => {
    it.skipIf(!available)('refuses even the correct secret with 429 and Retry-After after the limit of failures (SPEC §2 item 18)', async () => {
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

    it.skipIf(!available)('does not count successful authentications (SPEC §2 item 18: failed ones only)', async () => {
      const c = await authLimited.client(dev);
      for (let i = 0; i < 6; i++) {
        const res = await post(authLimited, INTROSPECT, { token: 'gat_x', ...creds(c) });
        expect(res.status, `request ${i + 1}`).toBe(200);
      }
      // Two failures after six successes are still under the limit of three.
      for (let i = 0; i < 2; i++) expect((await post(authLimited, INTROSPECT, { token: 'gat_x', ...creds(c, wrongSecret(c)) })).status).toBe(401);
      expect((await post(authLimited, INTROSPECT, { token: 'gat_x', ...creds(c) })).body).toEqual({ active: false });
    });

    it.skipIf(!available)('shares one failure count across token, revocation and introspection, and blocks all three (SPEC §2 item 18)', async () => {
      const c = await authLimited.client(dev);
      expect((await post(authLimited, TOKEN, { grant_type: 'refresh_token', refresh_token: 'grt_x', ...creds(c, wrongSecret(c)) })).status).toBe(401);
      expect((await post(authLimited, REVOKE, { token: 'gat_x', ...creds(c, wrongSecret(c)) })).status).toBe(401);
      expect((await post(authLimited, INTROSPECT, { token: 'gat_x', ...creds(c, wrongSecret(c)) })).status).toBe(401);
      expectOAuth429(await post(authLimited, REVOKE, { token: 'gat_x', ...creds(c) }), 60);
      expectOAuth429(await post(authLimited, INTROSPECT, { token: 'gat_x', ...creds(c) }), 60);
      expectOAuth429(await post(authLimited, TOKEN, { grant_type: 'refresh_token', refresh_token: 'grt_x', ...creds(c) }), 60);
    });

    it.skipIf(!available)('counts per client: failures of one client do not block another (SPEC §2 item 18: per client and IP)', async () => {
      const a = await authLimited.client(dev);
      const b = await authLimited.client(dev);
      for (let i = 0; i < 3; i++) await post(authLimited, INTROSPECT, { token: 'gat_x', ...creds(a, wrongSecret(a)) });
      expect((await post(authLimited, INTROSPECT, { token: 'gat_x', ...creds(a) })).status).toBe(429);
      const res = await post(authLimited, INTROSPECT, { token: 'gat_x', ...creds(b) });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ active: false });
    });

    it.skipIf(!available)('counts failures sent with HTTP Basic under the Basic client_id (SPEC §2 items 4 and 18)', async () => {
      const c = await authLimited.client(dev);
      const basic = (secret: string) => ({ ...form, authorization: `Basic ${Buffer.from(`${c.clientId}:${secret}`).toString('base64')}` });
      for (let i = 0; i < 3; i++) {
        const res = await post(authLimited, INTROSPECT, { token: 'gat_x' }, basic(wrongSecret(c)));
        expect(res.status).toBe(401);
      }
      expectOAuth429(await post(authLimited, INTROSPECT, { token: 'gat_x' }, basic(c.secret!)), 60);
      expectOAuth429(await post(authLimited, INTROSPECT, { token: 'gat_x', ...creds(c) }), 60);
    });

    it.skipIf(!available || !env.REDIS_URL)('shares the failure count with another server on the same Redis (SPEC §2 item 18, §8) [redis only]', async () => {
      const twin = await startTestServer('sqlite', { ...env, RATE_LIMIT_CLIENT_AUTH_FAILURES_PER_MINUTE: '3' });
      try {
        // Same client id on both servers' databases: the key is client and IP, not a row.
        const c = await authLimited.client(dev);
        await twin.db.insertInto('users').values(await authLimited.db.selectFrom('users').selectAll().where('id', '=', dev.id).executeTakeFirstOrThrow()).execute();
        await twin.db.insertInto('oauth_clients').values(await authLimited.db.selectFrom('oauth_clients').selectAll().where('id', '=', c.clientId).executeTakeFirstOrThrow()).execute();
        await twin.db.insertInto('client_secrets').values(await authLimited.db.selectFrom('client_secrets').selectAll().where('client_id', '=', c.clientId).execute()).execute();
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

    it.skipIf(!available)('limits guessing against an unknown client_id too (SPEC §2 item 18)', async () => {
      const ghost = { client_id: `ghost-${Math.random().toString(36).slice(2)}`, client_secret: 'gcs_nothing' };
      for (let i = 0; i < 3; i++) expect((await post(authLimited, INTROSPECT, { token: 'gat_x', ...ghost })).status).toBe(401);
      expectOAuth429(await post(authLimited, INTROSPECT, { token: 'gat_x', ...ghost }), 60);
    });
  });

  describe('failed logins per account and IP (RATE_LIMIT_LOGIN_FAILURES_PER_15_MINUTES, here 2)', () => {
    async function attempt(email: string, password: string) {
      const browser = loginLimited.browser();
      const res = await browser.login(email, password);
      return { res, browser };
    }

    it.skipIf(!available)('refuses even the right password with 429 and Retry-After after the limit of failures, logs nobody in, and spares other accounts (SPEC §2 item 18: per account and IP)', async () => {
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

    it.skipIf(!available)('does not count successful logins (SPEC §2 item 18: failed attempts only)', async () => {
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
  });
});

it('keeps the limits off when set to 0 (SPEC §2 item 18)', async () => {
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

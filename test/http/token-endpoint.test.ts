// POST /v2/auth/oauth2/token over real HTTP on every backend: code exchange, refresh,
// client authentication, request parsing and error shape (seed §4.2, §5; SPEC §2 items
// 4-10, 19; SPEC §3). Every assertion is on what a client application or an operator can
// observe: status, headers, body, and the rows in the database.
import { revokeAuthorizedApp } from '../../src/services/clients/authorized-apps.ts';
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateToken } from '../../src/oauth/token-format.ts';
import { backends } from '../helpers/backends.ts';
import type { Browser } from '../helpers/browser.ts';
import { startTestServer, type TestClient, type TestServer, type TestUser } from '../helpers/server.ts';

const TOKEN = '/v2/auth/oauth2/token';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const JSON_TYPE = { 'content-type': 'application/json' };

interface Reply {
  status: number;
  headers: Headers;
  body: Record<string, unknown> | undefined;
}

/** Things no response may ever carry: a stack trace, a source path, a client secret. */
function expectNothingLeaked(reply: Reply, secrets: Array<string | null> = []): void {
  const text = JSON.stringify(reply.body ?? null);
  expect(text).not.toMatch(/\bat [^\s]+ \(|:\d+:\d+\)|node_modules|\/src\/|\.ts:\d+|"stack"/);
  expect(text).not.toMatch(/gcs_[0-9A-Za-z]{10,}/);
  for (const secret of secrets) if (secret) expect(text).not.toContain(secret);
}

/** RFC 6749 §5.2 error: status, code, a description, no-store, nothing leaked. */
function expectOAuthError(reply: Reply, status: number, error: string, description?: RegExp | string): void {
  expect({ status: reply.status, error: reply.body?.error }).toEqual({ status, error });
  expect(Object.keys(reply.body!).sort()).toEqual(['error', 'error_description']);
  expect(typeof reply.body!.error_description).toBe('string');
  if (description !== undefined) {
    if (typeof description === 'string') expect(reply.body!.error_description).toContain(description);
    else expect(reply.body!.error_description).toMatch(description);
  }
  expect(reply.headers.get('cache-control')).toBe('no-store');
  expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
  expectNothingLeaked(reply);
}

function expectTokens(reply: Reply, scope: string): { access: string; refresh: string } {
  expect(reply.status).toBe(200);
  expect(reply.headers.get('cache-control')).toBe('no-store');
  expect(reply.body).toEqual({
    access_token: expect.stringMatching(/^gat_[0-9A-Za-z]{49}$/),
    refresh_token: expect.stringMatching(/^grt_[0-9A-Za-z]{49}$/),
    token_type: 'bearer',
    expires_in: 1800,
    scope,
  });
  expectNothingLeaked(reply);
  return { access: reply.body!.access_token as string, refresh: reply.body!.refresh_token as string };
}

function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(48).toString('base64url'); // 64 characters of the RFC 7636 alphabet
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

function basic(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
}

describe.each(backends)('token endpoint on $name', ({ name, available }) => {
  let server: TestServer;
  let dev: TestUser;
  let user: TestUser;
  let userBrowser: Browser;

  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer(name);
    dev = await server.user();
    user = await server.user({ name: 'Ada' });
    userBrowser = server.browser();
    await userBrowser.login(user.email, user.password);
  });
  afterAll(async () => server?.close());

  /** The front channel for `user` (already logged in, consent remembered after the first Allow). */
  async function code(client: TestClient, extra: Record<string, string> = {}): Promise<string> {
    const back = await server.authorize(userBrowser, {
      client_id: client.clientId,
      redirect_uri: client.redirectUri,
      response_type: 'code',
      scope: 'PROFILE_READ',
      state: 'xyz',
      ...extra,
    });
    const value = back.searchParams.get('code');
    if (!value) throw new Error(`no code in ${back}`);
    return value;
  }

  async function approvedClient(options: Parameters<TestServer['client']>[1] = {}) {
    return server.client(dev, options);
  }

  /** A code exchanged by a fresh confidential client: the pair and the client. */
  async function issued(extra: Record<string, string> = {}, options: Parameters<TestServer['client']>[1] = {}) {
    const client = await approvedClient(options);
    const res = await server.exchange(client, await code(client, extra));
    expect(res.status).toBe(200);
    return { client, access: res.body.access_token as string, refresh: res.body.refresh_token as string, body: res.body };
  }

  function refresh(client: TestClient, refreshToken: string, extra: Record<string, string> = {}) {
    return server.token({
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: client.clientId,
      ...(client.secret ? { client_secret: client.secret } : {}),
      ...extra,
    });
  }

  async function me(accessToken: string) {
    return server.api('GET', '/v2/me', accessToken);
  }

  // ---------------------------------------------------------------- code exchange: success

  describe('code exchange', () => {
    it.skipIf(!available)('exchanges a code sent as a form body with client_secret_post (RFC 6749 §4.1.3, §2.3.1)', async () => {
      const client = await approvedClient();
      const res = await server.exchange(client, await code(client));
      const { access } = expectTokens(res, 'PROFILE_READ');
      const profile = await me(access);
      expect(profile.status).toBe(200);
      expect(profile.body.data.email).toBe(user.email);
    });

    it.skipIf(!available)('exchanges a code sent as a JSON body (SPEC §2 item 4)', async () => {
      const client = await approvedClient();
      const res = await server.token(
        {
          grant_type: 'authorization_code',
          code: await code(client),
          redirect_uri: client.redirectUri,
          client_id: client.clientId,
          client_secret: client.secret!,
        },
        { json: true },
      );
      const { access } = expectTokens(res, 'PROFILE_READ');
      expect((await me(access)).status).toBe(200);
    });

    it.skipIf(!available)('exchanges a code with client_secret_basic (RFC 6749 §2.3.1)', async () => {
      const client = await approvedClient();
      const res = await server.token(
        { grant_type: 'authorization_code', code: await code(client), redirect_uri: client.redirectUri },
        { basic: [client.clientId, client.secret!] },
      );
      expectTokens(res, 'PROFILE_READ');
    });

    it.skipIf(!available)('accepts client_secret_basic with the same client_id repeated in the body (RFC 6749 §2.3.1)', async () => {
      const client = await approvedClient();
      const res = await server.token(
        { grant_type: 'authorization_code', code: await code(client), redirect_uri: client.redirectUri, client_id: client.clientId },
        { basic: [client.clientId, client.secret!] },
      );
      expectTokens(res, 'PROFILE_READ');
    });

    it.skipIf(!available)('returns the granted scopes joined by single spaces in registry order (seed §2.2, SPEC §2 item 11)', async () => {
      const client = await approvedClient();
      const res = await server.exchange(client, await code(client, { scope: 'BOOKING_READ,PROFILE_READ PROFILE_READ' }));
      expectTokens(res, 'BOOKING_READ PROFILE_READ');
    });

    it.skipIf(!available)('ignores unknown parameters (RFC 6749 §3.2, SPEC §2 item 19)', async () => {
      const client = await approvedClient();
      const res = await server.exchange(client, await code(client), {
        foo: 'bar',
        state: 'ignored',
        scope: 'BOOKING_READ',
        nonce: 'n',
        refresh_token: 'not-looked-at',
      });
      expectTokens(res, 'PROFILE_READ');
    });
  });

  // ---------------------------------------------------------------- client authentication

  describe('client authentication', () => {
    it.skipIf(!available)('rejects HTTP Basic and client_secret in the body at once with 400 invalid_request (SPEC §2 item 4)', async () => {
      const client = await approvedClient();
      const res = await server.token(
        { grant_type: 'authorization_code', code: await code(client), redirect_uri: client.redirectUri, client_secret: client.secret! },
        { basic: [client.clientId, client.secret!] },
      );
      expectOAuthError(res, 400, 'invalid_request', /one client authentication method/);
    });

    it.skipIf(!available)('rejects a request without client authentication with 401 invalid_client (RFC 6749 §5.2)', async () => {
      const client = await approvedClient();
      const res = await server.token({ grant_type: 'authorization_code', code: await code(client), redirect_uri: client.redirectUri });
      expectOAuthError(res, 401, 'invalid_client', 'client_id');
    });

    it.skipIf(!available)('rejects a confidential client that sends client_id without a secret with 401 invalid_client (RFC 6749 §3.2.1)', async () => {
      const client = await approvedClient();
      const res = await server.token({
        grant_type: 'authorization_code',
        code: await code(client),
        redirect_uri: client.redirectUri,
        client_id: client.clientId,
      });
      expectOAuthError(res, 401, 'invalid_client', 'client_secret');
    });

    it.skipIf(!available)('rejects an unknown client_id with 401 invalid_client (RFC 6749 §5.2)', async () => {
      const client = await approvedClient();
      const res = await server.exchange(client, await code(client), { client_id: 'no-such-client' });
      expectOAuthError(res, 401, 'invalid_client');
    });

    it.skipIf(!available)('rejects a wrong client_secret in the body with 401 invalid_client (RFC 6749 §5.2)', async () => {
      const client = await approvedClient();
      const other = await approvedClient();
      const good = await code(client);
      for (const wrong of [other.secret!, generateToken('clientSecret'), 'secret', client.secret! + 'x', client.secret!.toUpperCase()]) {
        const res = await server.exchange(client, good, { client_secret: wrong });
        expectOAuthError(res, 401, 'invalid_client', 'client_secret');
        expectNothingLeaked(res, [client.secret, other.secret]);
      }
      // A request whose client failed to authenticate consumed nothing.
      expectTokens(await server.exchange(client, good), 'PROFILE_READ');
    });

    it.skipIf(!available)('answers a wrong secret sent with HTTP Basic with 401 invalid_client and WWW-Authenticate: Basic (RFC 6749 §5.2)', async () => {
      const client = await approvedClient();
      const res = await server.token(
        { grant_type: 'authorization_code', code: generateToken('authorizationCode'), redirect_uri: client.redirectUri },
        { basic: [client.clientId, generateToken('clientSecret')] },
      );
      expectOAuthError(res, 401, 'invalid_client');
      expect(res.headers.get('www-authenticate')).toMatch(/^Basic\b/);
    });

    it.skipIf(!available)('answers an unknown client sent with HTTP Basic with 401 invalid_client and WWW-Authenticate: Basic (RFC 6749 §5.2)', async () => {
      const res = await server.token(
        { grant_type: 'authorization_code', code: generateToken('authorizationCode'), redirect_uri: 'https://app.example.com/callback' },
        { basic: ['no-such-client', generateToken('clientSecret')] },
      );
      expectOAuthError(res, 401, 'invalid_client');
      expect(res.headers.get('www-authenticate')).toMatch(/^Basic\b/);
    });

    it.skipIf(!available)('answers an undecodable Basic header with 401 invalid_client and WWW-Authenticate: Basic (RFC 6749 §2.3.1)', async () => {
      const body = new URLSearchParams({ grant_type: 'authorization_code', code: 'x', redirect_uri: 'https://app.example.com/callback' }).toString();
      for (const header of ['Basic bm8tY29sb24=' /* "no-colon" */, `Basic ${Buffer.from('%zz:%zz').toString('base64')}`]) {
        const res = await server.post(TOKEN, body, { ...FORM, authorization: header });
        expectOAuthError(res, 401, 'invalid_client');
        expect(res.headers.get('www-authenticate')).toMatch(/^Basic\b/);
      }
    });

    it.skipIf(!available)('rejects a client_id in the body that differs from the Basic one with 400 invalid_request (RFC 6749 §2.3)', async () => {
      const client = await approvedClient();
      const other = await approvedClient();
      const res = await server.token(
        { grant_type: 'authorization_code', code: await code(client), redirect_uri: client.redirectUri, client_id: other.clientId },
        { basic: [client.clientId, client.secret!] },
      );
      expectOAuthError(res, 400, 'invalid_request', 'client_id');
    });

    it.skipIf(!available)('answers a pending client that authenticates with 400 unauthorized_client (SPEC §2 items 1 and 6)', async () => {
      const client = await approvedClient({ state: 'pending' });
      const res = await server.exchange(client, generateToken('authorizationCode'));
      expectOAuthError(res, 400, 'unauthorized_client', 'pending');
    });

    it.skipIf(!available)('answers a suspended client that authenticates with 400 unauthorized_client (SPEC §2 items 1 and 6)', async () => {
      const client = await approvedClient({ state: 'suspended' });
      const res = await server.exchange(client, generateToken('authorizationCode'));
      expectOAuthError(res, 400, 'unauthorized_client', 'suspended');
    });

    it.skipIf(!available)('answers a rejected client that authenticates with 400 unauthorized_client (SPEC §2 items 1 and 6)', async () => {
      const client = await approvedClient({ state: 'rejected' });
      const res = await server.exchange(client, generateToken('authorizationCode'));
      expectOAuthError(res, 400, 'unauthorized_client', 'rejected');
    });

    it.skipIf(!available)('answers a pending client with a wrong secret with 401 invalid_client, not its state (RFC 6749 §5.2)', async () => {
      const client = await approvedClient({ state: 'pending' });
      const res = await server.exchange(client, generateToken('authorizationCode'), { client_secret: generateToken('clientSecret') });
      expectOAuthError(res, 401, 'invalid_client');
      expect(res.body!.error_description).not.toMatch(/pending/);
    });
  });

  // ---------------------------------------------------------------- code exchange: errors

  describe('code exchange errors', () => {
    it.skipIf(!available)('rejects a missing code with 400 invalid_request naming code (SPEC §2 item 6)', async () => {
      const client = await approvedClient();
      const res = await server.token({
        grant_type: 'authorization_code',
        redirect_uri: client.redirectUri,
        client_id: client.clientId,
        client_secret: client.secret!,
      });
      expectOAuthError(res, 400, 'invalid_request', /\bcode\b/);
    });

    it.skipIf(!available)('rejects a missing redirect_uri with 400 invalid_request naming redirect_uri (SPEC §2 item 6)', async () => {
      const client = await approvedClient();
      const res = await server.token({
        grant_type: 'authorization_code',
        code: await code(client),
        client_id: client.clientId,
        client_secret: client.secret!,
      });
      expectOAuthError(res, 400, 'invalid_request', 'redirect_uri');
    });

    it.skipIf(!available)('rejects an empty code with 400 invalid_request naming code (RFC 6749 §3.1: empty is absent)', async () => {
      const client = await approvedClient();
      const res = await server.exchange(client, '');
      expectOAuthError(res, 400, 'invalid_request', /\bcode\b/);
    });

    it.skipIf(!available)('rejects a redirect_uri other than the authorization request\'s with invalid_grant (RFC 6749 §4.1.3)', async () => {
      const client = await approvedClient({ redirectUris: ['https://app.example.com/callback', 'https://app.example.com/other'] });
      const issuedCode = await code(client);
      const res = await server.exchange(client, issuedCode, { redirect_uri: 'https://app.example.com/other' });
      expectOAuthError(res, 400, 'invalid_grant', 'redirect_uri does not match the authorization request');
      // Exact string match: a trailing slash is another URI.
      const again = await server.exchange(client, await code(client), { redirect_uri: 'https://app.example.com/callback/' });
      expectOAuthError(again, 400, 'invalid_grant', 'redirect_uri does not match the authorization request');
    });

    it.skipIf(!available)('rejects a code issued to another client with invalid_grant (RFC 6749 §4.1.3)', async () => {
      const owner = await approvedClient();
      const thief = await approvedClient();
      const res = await server.exchange(thief, await code(owner));
      expectOAuthError(res, 400, 'invalid_grant', 'another client');
    });

    it.skipIf(!available)('rejects a malformed code with invalid_grant (SPEC §3)', async () => {
      const client = await approvedClient();
      const good = await code(client);
      const flipped = good.slice(0, 10) + (good[10] === 'a' ? 'b' : 'a') + good.slice(11);
      for (const bad of ['abc', 'gac_', flipped, good.replace('gac_', 'gat_'), good + 'x', 'gac_' + '!'.repeat(49)]) {
        const res = await server.exchange(client, bad);
        expectOAuthError(res, 400, 'invalid_grant', /\bcode\b/);
      }
      // The checksum caught the flipped character before storage: the real code still works.
      expectTokens(await server.exchange(client, good), 'PROFILE_READ');
    });

    it.skipIf(!available)('rejects a well-formed code that was never issued with invalid_grant (RFC 6749 §5.2)', async () => {
      const client = await approvedClient();
      const res = await server.exchange(client, generateToken('authorizationCode'));
      expectOAuthError(res, 400, 'invalid_grant', /\bcode\b/);
    });

    it.skipIf(!available)('rejects a code older than 60 seconds with invalid_grant (SPEC §2 item 7)', async () => {
      const client = await approvedClient();
      const fresh = await code(client);
      server.advance(59);
      expectTokens(await server.exchange(client, fresh), 'PROFILE_READ');
      const stale = await code(client);
      server.advance(61);
      const res = await server.exchange(client, stale);
      expectOAuthError(res, 400, 'invalid_grant', /expired/);
    });

    it.skipIf(!available)('rejects a reused authorization code and revokes its tokens (RFC 6749 §4.1.2, SPEC §2 item 8)', async () => {
      const client = await approvedClient();
      const once = await code(client);
      const first = expectTokens(await server.exchange(client, once), 'PROFILE_READ');
      expect((await me(first.access)).status).toBe(200);

      const second = await server.exchange(client, once);
      expectOAuthError(second, 400, 'invalid_grant', /already been used/);

      const profile = await me(first.access);
      expect(profile.status).toBe(401);
      expect(profile.headers.get('www-authenticate')).toContain('error="invalid_token"');
      expectOAuthError(await refresh(client, first.refresh), 400, 'invalid_grant');

      const events = await server.db.selectFrom('audit_events').selectAll().where('type', '=', 'code.replayed').where('client_id', '=', client.clientId).execute();
      expect(events).toHaveLength(1);
      expect(events[0]!.user_id).toBe(user.id);
      expect(events[0]!.data ?? '').not.toContain(once);
    });

    it.skipIf(!available)('keeps a code single-use even when its first redemption failed (RFC 6749 §4.1.2)', async () => {
      const client = await approvedClient();
      const once = await code(client);
      expectOAuthError(await server.exchange(client, once, { redirect_uri: 'https://app.example.com/wrong' }), 400, 'invalid_grant');
      expectOAuthError(await server.exchange(client, once), 400, 'invalid_grant');
    });

    it.skipIf(!available)('rejects an unsupported grant_type with 400 unsupported_grant_type (RFC 6749 §5.2)', async () => {
      const client = await approvedClient();
      for (const grantType of ['password', 'client_credentials', 'implicit', 'urn:ietf:params:oauth:grant-type:device_code', 'AUTHORIZATION_CODE']) {
        const res = await server.token({ grant_type: grantType, client_id: client.clientId, client_secret: client.secret! });
        expectOAuthError(res, 400, 'unsupported_grant_type', 'grant_type');
      }
    });

    it.skipIf(!available)('rejects a missing grant_type with 400 invalid_request naming grant_type (RFC 6749 §4.1.3)', async () => {
      const client = await approvedClient();
      const res = await server.token({ code: await code(client), redirect_uri: client.redirectUri, client_id: client.clientId, client_secret: client.secret! });
      expectOAuthError(res, 400, 'invalid_request', 'grant_type');
    });
  });

  // ---------------------------------------------------------------- request parsing

  describe('request parsing', () => {
    it.skipIf(!available)('rejects a parameter sent twice with 400 invalid_request naming it (RFC 6749 §3.1, SPEC §2 item 19)', async () => {
      const client = await approvedClient();
      const good = await code(client);
      const base = `client_id=${client.clientId}&client_secret=${client.secret}&redirect_uri=${encodeURIComponent(client.redirectUri)}`;
      const cases: Array<[string, string]> = [
        [`grant_type=authorization_code&code=${good}&code=${good}&${base}`, 'code'],
        [`grant_type=authorization_code&grant_type=authorization_code&code=${good}&${base}`, 'grant_type'],
        [`grant_type=authorization_code&code=${good}&${base}&client_secret=${client.secret}`, 'client_secret'],
        [`grant_type=authorization_code&code=${good}&${base}&redirect_uri=${encodeURIComponent(client.redirectUri)}`, 'redirect_uri'],
      ];
      for (const [body, field] of cases) {
        const res = await server.post(TOKEN, body, FORM);
        expectOAuthError(res, 400, 'invalid_request', field);
      }
      // None of those consumed the code.
      expectTokens(await server.exchange(client, good), 'PROFILE_READ');
    });

    it.skipIf(!available)('rejects a JSON body that names a key twice with 400 invalid_request, even when the last value is the right secret (RFC 6749 §3.1, SPEC §2 item 19)', async () => {
      const first = await issued();
      const wrong = generateToken('clientSecret');
      const head = `"grant_type":"refresh_token","refresh_token":"${first.refresh}","client_id":"${first.client.clientId}"`;
      const cases: Array<[string, string]> = [
        [`{${head},"client_secret":"${wrong}","client_secret":"${first.client.secret}"}`, 'client_secret'],
        // The same key once its escape is decoded, as JSON.parse decodes it.
        [`{${head},"client_secret":"${wrong}","client\\u005fsecret":"${first.client.secret}"}`, 'client_secret'],
        [`{${head},"refresh_token":"grt_other","client_secret":"${first.client.secret}"}`, 'refresh_token'],
      ];
      for (const [body, field] of cases) {
        expectOAuthError(await server.post(TOKEN, body, JSON_TYPE), 400, 'invalid_request', `${field} was sent more than once`);
      }
      // Looking for repeated keys survives any nesting the body limit allows (SPEC §7: a 4xx, never a 500).
      const deep = `{${head},"client_secret":"${first.client.secret}","x":${'['.repeat(7000)}${']'.repeat(7000)}}`;
      expectOAuthError(await server.post(TOKEN, deep, JSON_TYPE), 400, 'invalid_request');
      // None of those spent the refresh token.
      expectTokens(await refresh(first.client, first.refresh), 'PROFILE_READ');
    });

    it.skipIf(!available)('rejects JSON values that are not strings with 400 invalid_request naming the field (SPEC §2 item 4)', async () => {
      const client = await approvedClient();
      const good = await code(client);
      const base = { grant_type: 'authorization_code', code: good, redirect_uri: client.redirectUri, client_id: client.clientId, client_secret: client.secret };
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ ...base, code: 12345 }, 'code'],
        [{ ...base, code: { $ne: null } }, 'code'],
        [{ ...base, code: [good] }, 'code'],
        [{ ...base, client_secret: true }, 'client_secret'],
        [{ ...base, redirect_uri: ['https://app.example.com/callback'] }, 'redirect_uri'],
        [{ ...base, grant_type: 1 }, 'grant_type'],
      ];
      for (const [body, field] of cases) {
        const res = await server.post(TOKEN, JSON.stringify(body), JSON_TYPE);
        expectOAuthError(res, 400, 'invalid_request', field);
      }
      expectTokens(await server.exchange(client, good), 'PROFILE_READ');
    });

    it.skipIf(!available)('rejects a JSON body that is not an object with 400 invalid_request (SPEC §2 item 4)', async () => {
      for (const body of ['[]', '"grant_type=authorization_code"', '42', 'true']) {
        const res = await server.post(TOKEN, body, JSON_TYPE);
        expectOAuthError(res, 400, 'invalid_request');
      }
    });

    it.skipIf(!available)('rejects invalid JSON with 400 invalid_request (SPEC §7)', async () => {
      const client = await approvedClient();
      for (const body of ['{"grant_type":', `{"client_secret": "${client.secret}", }`, '', '{"__proto__": {"x": 1}}']) {
        const res = await server.post(TOKEN, body, JSON_TYPE);
        expectOAuthError(res, 400, 'invalid_request');
        expectNothingLeaked(res, [client.secret]);
      }
    });

    it.skipIf(!available)('rejects a text/plain body with 400 invalid_request and a JSON error body (SPEC §2 items 4 and 6)', async () => {
      const client = await approvedClient();
      const body = `grant_type=authorization_code&code=${await code(client)}&redirect_uri=${encodeURIComponent(client.redirectUri)}&client_id=${client.clientId}&client_secret=${client.secret}`;
      for (const type of ['text/plain', 'text/plain; charset=utf-8']) {
        const res = await server.post(TOKEN, body, { 'content-type': type });
        expectOAuthError(res, 400, 'invalid_request', /Content-Type/i);
        expectNothingLeaked(res, [client.secret]);
      }
    });

    it.skipIf(!available)('rejects other content types and a missing one with 400 invalid_request (SPEC §2 item 4, SPEC §7)', async () => {
      const client = await approvedClient();
      const form = `grant_type=authorization_code&code=x&redirect_uri=${encodeURIComponent(client.redirectUri)}&client_id=${client.clientId}&client_secret=${client.secret}`;
      for (const type of ['application/xml', 'multipart/form-data; boundary=x', 'application/octet-stream', 'text/html']) {
        const res = await server.post(TOKEN, form, { 'content-type': type });
        expectOAuthError(res, 400, 'invalid_request', /Content-Type/i);
      }
      const none = await server.post(TOKEN, new Blob([form]));
      expectOAuthError(none, 400, 'invalid_request', /Content-Type/i);
    });

    it.skipIf(!available)('rejects huge values and huge bodies with 400 invalid_request, never 500 (SPEC §7)', async () => {
      const client = await approvedClient();
      const good = await code(client);
      const long = 'a'.repeat(5000);
      const res = await server.exchange(client, good, { redirect_uri: long });
      expectOAuthError(res, 400, 'invalid_request', 'redirect_uri');
      const longJson = await server.token(
        { grant_type: 'authorization_code', code: long, redirect_uri: client.redirectUri, client_id: client.clientId, client_secret: client.secret! },
        { json: true },
      );
      expectOAuthError(longJson, 400, 'invalid_request', /\bcode\b/);
      for (const size of [20_000, 100_000, 1_000_000]) {
        const form = await server.post(TOKEN, `grant_type=authorization_code&padding=${'p'.repeat(size)}`, FORM);
        expectOAuthError(form, 400, 'invalid_request');
        const json = await server.post(TOKEN, JSON.stringify({ grant_type: 'authorization_code', padding: 'p'.repeat(size) }), JSON_TYPE);
        expectOAuthError(json, 400, 'invalid_request');
      }
      // A body with many small parameters is as bad as one long one.
      const many = Array.from({ length: 3000 }, (_, i) => `p${i}=v`).join('&');
      expectOAuthError(await server.post(TOKEN, `grant_type=authorization_code&${many}`, FORM), 400, 'invalid_request');
      // The code survived all of it.
      expectTokens(await server.exchange(client, good), 'PROFILE_READ');
    });

    it.skipIf(!available)('accepts Content-Type parameters such as charset (RFC 6749 §3.2)', async () => {
      const client = await approvedClient();
      const body = new URLSearchParams({
        grant_type: 'authorization_code',
        code: await code(client),
        redirect_uri: client.redirectUri,
        client_id: client.clientId,
        client_secret: client.secret!,
      }).toString();
      const res = await server.post(TOKEN, body, { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' });
      expectTokens(res, 'PROFILE_READ');
    });
  });

  // ---------------------------------------------------------------- PKCE

  describe('PKCE', () => {
    it.skipIf(!available)('exchanges a public client\'s code with code_verifier and no secret (RFC 7636 §4.5, SPEC §2 item 4)', async () => {
      const client = await approvedClient({ kind: 'public' });
      expect(client.secret).toBeNull();
      const { verifier, challenge } = pkcePair();
      const issuedCode = await code(client, { code_challenge: challenge, code_challenge_method: 'S256' });
      const { access, refresh: refreshToken } = expectTokens(await server.exchange(client, issuedCode, { code_verifier: verifier }), 'PROFILE_READ');
      expect((await me(access)).status).toBe(200);
      // A public client refreshes with client_id alone.
      expectTokens(await refresh(client, refreshToken), 'PROFILE_READ');
    });

    it.skipIf(!available)('accepts an omitted code_challenge_method as S256 (SPEC §2 item 5)', async () => {
      const client = await approvedClient({ kind: 'public' });
      const { verifier, challenge } = pkcePair();
      const issuedCode = await code(client, { code_challenge: challenge });
      expectTokens(await server.exchange(client, issuedCode, { code_verifier: verifier }), 'PROFILE_READ');
    });

    it.skipIf(!available)('exchanges a confidential client\'s code with PKCE (SPEC §2 item 5: optional for confidential)', async () => {
      const client = await approvedClient();
      const { verifier, challenge } = pkcePair();
      const issuedCode = await code(client, { code_challenge: challenge, code_challenge_method: 'S256' });
      expectTokens(await server.exchange(client, issuedCode, { code_verifier: verifier }), 'PROFILE_READ');
    });

    it.skipIf(!available)('rejects a public client that sends a client_secret with 401 invalid_client (SPEC §2 items 2 and 4)', async () => {
      const client = await approvedClient({ kind: 'public' });
      const { verifier, challenge } = pkcePair();
      const issuedCode = await code(client, { code_challenge: challenge });
      const res = await server.exchange(client, issuedCode, { code_verifier: verifier, client_secret: generateToken('clientSecret') });
      expectOAuthError(res, 401, 'invalid_client', /public/);
      const viaBasic = await server.token(
        { grant_type: 'authorization_code', code: issuedCode, redirect_uri: client.redirectUri, code_verifier: verifier },
        { basic: [client.clientId, 'anything'] },
      );
      expectOAuthError(viaBasic, 401, 'invalid_client');
      expect(viaBasic.headers.get('www-authenticate')).toMatch(/^Basic\b/);
    });

    it.skipIf(!available)('identifies a public client that refreshes with HTTP Basic client_id and an empty password, as client-oauth2 sends it (SPEC §2 item 4)', async () => {
      const client = await approvedClient({ kind: 'public' });
      const { verifier, challenge } = pkcePair();
      const first = expectTokens(await server.exchange(client, await code(client, { code_challenge: challenge }), { code_verifier: verifier }), 'PROFILE_READ');
      const emptyPassword = `Basic ${Buffer.from(`${client.clientId}:`).toString('base64')}`;
      const res = await server.post(TOKEN, new URLSearchParams({ grant_type: 'refresh_token', refresh_token: first.refresh }).toString(), { ...FORM, authorization: emptyPassword });
      expectTokens(res, 'PROFILE_READ');
    });

    it.skipIf(!available)('still refuses a confidential client that sends HTTP Basic with an empty password: 401 invalid_client with WWW-Authenticate: Basic (RFC 6749 §2.3.1)', async () => {
      const first = await issued();
      const emptyPassword = `Basic ${Buffer.from(`${first.client.clientId}:`).toString('base64')}`;
      const res = await server.post(TOKEN, new URLSearchParams({ grant_type: 'refresh_token', refresh_token: first.refresh }).toString(), { ...FORM, authorization: emptyPassword });
      expectOAuthError(res, 401, 'invalid_client', 'client_secret is required');
      expect(res.headers.get('www-authenticate')).toMatch(/^Basic\b/);
    });

    it.skipIf(!available)('rejects a missing code_verifier with invalid_grant (RFC 7636 §4.6, SPEC §2 item 5)', async () => {
      const client = await approvedClient({ kind: 'public' });
      const { challenge } = pkcePair();
      const res = await server.exchange(client, await code(client, { code_challenge: challenge }));
      expectOAuthError(res, 400, 'invalid_grant', 'code_verifier');
    });

    it.skipIf(!available)('rejects a wrong code_verifier with invalid_grant (RFC 7636 §4.6, SPEC §2 item 5)', async () => {
      const client = await approvedClient({ kind: 'public' });
      const { challenge } = pkcePair();
      const res = await server.exchange(client, await code(client, { code_challenge: challenge }), { code_verifier: pkcePair().verifier });
      expectOAuthError(res, 400, 'invalid_grant', 'code_verifier');
    });

    it.skipIf(!available)('rejects a code_verifier equal to the challenge (plain) with invalid_grant (SPEC §2 item 5: S256 only)', async () => {
      const client = await approvedClient({ kind: 'public' });
      const { challenge } = pkcePair();
      const res = await server.exchange(client, await code(client, { code_challenge: challenge }), { code_verifier: challenge });
      expectOAuthError(res, 400, 'invalid_grant', 'code_verifier');
    });

    it.skipIf(!available)('rejects a malformed code_verifier with invalid_grant (RFC 7636 §4.1, SPEC §2 item 5)', async () => {
      const client = await approvedClient({ kind: 'public' });
      for (const bad of ['short', 'a'.repeat(42), 'a'.repeat(129), `${'a'.repeat(50)} ${'b'.repeat(10)}`, `${'a'.repeat(50)}+/=`]) {
        // The challenge is the verifier's own S256 hash: only the verifier's shape is wrong.
        const challenge = createHash('sha256').update(bad).digest('base64url');
        const res = await server.exchange(client, await code(client, { code_challenge: challenge }), { code_verifier: bad });
        expectOAuthError(res, 400, 'invalid_grant', 'code_verifier');
      }
    });

    it.skipIf(!available)('rejects a code_verifier for a code issued without a challenge with invalid_grant (SPEC §2 item 5)', async () => {
      const client = await approvedClient();
      const res = await server.exchange(client, await code(client), { code_verifier: pkcePair().verifier });
      expectOAuthError(res, 400, 'invalid_grant', 'code_verifier');
    });

    it.skipIf(!available)('redirects code_challenge_method=plain back with error=invalid_request (SPEC §2 items 5 and 12)', async () => {
      for (const kind of ['public', 'confidential'] as const) {
        const client = await approvedClient({ kind });
        const back = await server.authorize(server.browser(), {
          client_id: client.clientId,
          redirect_uri: client.redirectUri,
          response_type: 'code',
          scope: 'PROFILE_READ',
          state: 'st-1',
          code_challenge: pkcePair().challenge,
          code_challenge_method: 'plain',
        });
        expect(back.origin + back.pathname).toBe(client.redirectUri);
        expect(back.searchParams.get('error')).toBe('invalid_request');
        expect(back.searchParams.get('error_description')).toMatch(/code_challenge_method/);
        expect(back.searchParams.get('state')).toBe('st-1');
        expect(back.searchParams.get('iss')).toBe(server.config.issuer);
        expect(back.searchParams.get('code')).toBeNull();
      }
    });

    it.skipIf(!available)('redirects a public client\'s request without code_challenge back with error=invalid_request (seed §4.1)', async () => {
      const client = await approvedClient({ kind: 'public' });
      const back = await server.authorize(server.browser(), {
        client_id: client.clientId,
        redirect_uri: client.redirectUri,
        response_type: 'code',
        scope: 'PROFILE_READ',
        state: 'st-2',
      });
      expect(back.searchParams.get('error')).toBe('invalid_request');
      expect(back.searchParams.get('error_description')).toMatch(/code_challenge/);
      expect(back.searchParams.get('state')).toBe('st-2');
    });
  });

  // ---------------------------------------------------------------- refresh

  describe('refresh', () => {
    it.skipIf(!available)('returns a new access and refresh token with the same scope (seed §4.2, SPEC §2 item 9)', async () => {
      const first = await issued({ scope: 'PROFILE_READ BOOKING_READ' });
      const res = await refresh(first.client, first.refresh);
      const next = expectTokens(res, 'BOOKING_READ PROFILE_READ');
      expect(next.access).not.toBe(first.access);
      expect(next.refresh).not.toBe(first.refresh);
      expect((await me(next.access)).status).toBe(200);
      // The earlier access token is not revoked by a normal rotation.
      expect((await me(first.access)).status).toBe(200);
    });

    it.skipIf(!available)('refreshes with client_secret_basic and with a JSON body (SPEC §2 item 4)', async () => {
      const first = await issued();
      const viaBasic = await server.token({ grant_type: 'refresh_token', refresh_token: first.refresh }, { basic: [first.client.clientId, first.client.secret!] });
      const second = expectTokens(viaBasic, 'PROFILE_READ');
      const viaJson = await server.token(
        { grant_type: 'refresh_token', refresh_token: second.refresh, client_id: first.client.clientId, client_secret: first.client.secret! },
        { json: true },
      );
      expectTokens(viaJson, 'PROFILE_READ');
    });

    it.skipIf(!available)('spends the old refresh token: the database records one rotation with the old token as parent (SPEC §2 item 9)', async () => {
      const first = await issued();
      const next = expectTokens(await refresh(first.client, first.refresh), 'PROFILE_READ');
      const rows = await server.db.selectFrom('refresh_tokens').selectAll().where('client_id', '=', first.client.clientId).orderBy('created_at').execute();
      expect(rows).toHaveLength(2);
      const [old, successor] = [rows.find((r) => r.parent_id === null)!, rows.find((r) => r.parent_id !== null)!];
      expect(old.spent_at).not.toBeNull();
      expect(successor.parent_id).toBe(old.id);
      expect(successor.spent_at).toBeNull();
      // The successor is the one that rotates next; the spent one does not rotate again.
      expectTokens(await refresh(first.client, next.refresh), 'PROFILE_READ');
      const after = await server.db.selectFrom('refresh_tokens').select(['id', 'parent_id']).where('client_id', '=', first.client.clientId).execute();
      expect(after).toHaveLength(3);
      expect(after.filter((r) => r.parent_id === old.id)).toHaveLength(1);
    });

    it.skipIf(!available)('answers the spent token again within 30 seconds with the very same pair (SPEC §2 item 9)', async () => {
      const first = await issued();
      const res = await refresh(first.client, first.refresh);
      expectTokens(res, 'PROFILE_READ');
      server.advance(29);
      const again = await refresh(first.client, first.refresh);
      expect(again.status).toBe(200);
      expect(again.headers.get('cache-control')).toBe('no-store');
      expect(again.body).toEqual(res.body);
      // No second rotation happened, and nothing was revoked.
      const rows = await server.db.selectFrom('refresh_tokens').selectAll().where('client_id', '=', first.client.clientId).execute();
      expect(rows).toHaveLength(2);
      expect(rows.every((r) => r.revoked_at === null)).toBe(true);
      expect((await me(res.body.access_token as string)).status).toBe(200);
    });

    it.skipIf(!available)('revokes the whole grant when a spent token comes back after the window (RFC 9700 §4.14.2, SPEC §2 item 9)', async () => {
      const first = await issued();
      const second = expectTokens(await refresh(first.client, first.refresh), 'PROFILE_READ');
      const third = expectTokens(await refresh(first.client, second.refresh), 'PROFILE_READ');
      server.advance(31);
      const reused = await refresh(first.client, first.refresh);
      expectOAuthError(reused, 400, 'invalid_grant', /already been used/);

      for (const access of [first.access, second.access, third.access]) {
        const profile = await me(access);
        expect(profile.status).toBe(401);
        expect(profile.headers.get('www-authenticate')).toContain('error="invalid_token"');
      }
      expectOAuthError(await refresh(first.client, third.refresh), 400, 'invalid_grant');

      const rows = await server.db.selectFrom('refresh_tokens').selectAll().where('client_id', '=', first.client.clientId).execute();
      expect(rows).toHaveLength(3);
      expect(rows.every((r) => r.revoked_at !== null && r.successor_box === null)).toBe(true);
      const access = await server.db.selectFrom('access_tokens').selectAll().where('client_id', '=', first.client.clientId).execute();
      expect(access.every((r) => r.revoked_at !== null)).toBe(true);
      const grants = await server.db.selectFrom('grants').selectAll().where('client_id', '=', first.client.clientId).execute();
      expect(grants.every((g) => g.revoked_at !== null)).toBe(true);
      const events = await server.db.selectFrom('audit_events').selectAll().where('type', '=', 'refresh_token.reused').where('client_id', '=', first.client.clientId).execute();
      expect(events).toHaveLength(1);
      expect(events[0]!.user_id).toBe(user.id);
      expect(events[0]!.data ?? '').not.toContain(first.refresh);
    });

    it.skipIf(!available)('accepts a scope parameter equal to the original grant (SPEC §2 item 10)', async () => {
      const first = await issued({ scope: 'PROFILE_READ BOOKING_READ' });
      const next = expectTokens(await refresh(first.client, first.refresh, { scope: 'PROFILE_READ,BOOKING_READ' }), 'BOOKING_READ PROFILE_READ');
      expectTokens(await refresh(first.client, next.refresh, { scope: 'BOOKING_READ PROFILE_READ' }), 'BOOKING_READ PROFILE_READ');
    });

    it.skipIf(!available)('rejects a scope parameter that differs from the original grant with invalid_scope and leaves the token usable (SPEC §2 item 10)', async () => {
      const first = await issued({ scope: 'PROFILE_READ BOOKING_READ' });
      for (const scope of ['PROFILE_READ', 'PROFILE_READ BOOKING_READ PROFILE_WRITE', 'PROFILE_WRITE', 'NOT_A_SCOPE', 'profile_read booking_read']) {
        const res = await refresh(first.client, first.refresh, { scope });
        expectOAuthError(res, 400, 'invalid_scope', 'scope');
      }
      expectTokens(await refresh(first.client, first.refresh), 'BOOKING_READ PROFILE_READ');
    });

    it.skipIf(!available)('rejects a refresh token issued to another client with invalid_grant and leaves it usable (RFC 6749 §6)', async () => {
      const first = await issued();
      const other = await approvedClient();
      const res = await refresh(other, first.refresh);
      expectOAuthError(res, 400, 'invalid_grant', 'another client');
      expectTokens(await refresh(first.client, first.refresh), 'PROFILE_READ');
    });

    it.skipIf(!available)('rejects a missing, malformed or unknown refresh token (RFC 6749 §5.2)', async () => {
      const first = await issued();
      const missing = await server.token({ grant_type: 'refresh_token', client_id: first.client.clientId, client_secret: first.client.secret! });
      expectOAuthError(missing, 400, 'invalid_request', 'refresh_token');
      for (const bad of ['x', first.access, first.refresh.slice(0, -1) + (first.refresh.endsWith('a') ? 'b' : 'a')]) {
        expectOAuthError(await refresh(first.client, bad), 400, 'invalid_grant', 'refresh_token');
      }
      expectOAuthError(await refresh(first.client, generateToken('refreshToken')), 400, 'invalid_grant', 'refresh_token');
    });

    it.skipIf(!available)('refuses to refresh for a client suspended after issuing (SPEC §2 item 1)', async () => {
      const first = await issued();
      const { reviewClient } = await import('../../src/services/clients/review.ts');
      await reviewClient(server.services, first.client.clientId, 'suspend', null);
      expectOAuthError(await refresh(first.client, first.refresh), 400, 'unauthorized_client', 'suspended');
      await reviewClient(server.services, first.client.clientId, 'approve', null);
      expectTokens(await refresh(first.client, first.refresh), 'PROFILE_READ');
    });

    it.skipIf(!available)('issues a legacy client scope "" and refreshes it (SPEC §2 item 14)', async () => {
      const client = await approvedClient({ scopes: null });
      const issuedCode = await code(client, { scope: 'PROFILE_READ BOOKING_READ' });
      const first = expectTokens(await server.exchange(client, issuedCode), '');
      expect((await me(first.access)).status).toBe(200);
      const next = expectTokens(await refresh(client, first.refresh), '');
      expect((await me(next.access)).status).toBe(200);
      expectTokens(await refresh(client, next.refresh), '');
    });
  });

  // ---------------------------------------------------------------- secrets and events

  describe('secrets and events', () => {
    it.skipIf(!available)('accepts both active secrets during rotation, refuses a removed one at once, and keeps issued tokens (seed §3 rule 4, §5.4)', async () => {
      const { addSecret, listSecrets, removeSecret } = await import('../../src/services/clients/secrets.ts');
      const first = await issued();
      const oldSecret = first.client.secret!;
      const oldId = (await listSecrets(server.services, first.client.clientId))[0]!.id;
      // The exchange marked the secret as used, so the developer can tell it is in use.
      expect((await listSecrets(server.services, first.client.clientId))[0]!.lastUsedAt).not.toBeNull();

      const added = await addSecret(server.services, first.client.clientId, dev.id);
      const withNew = { ...first.client, secret: added.secret };
      const viaNew = expectTokens(await refresh(withNew, first.refresh), 'PROFILE_READ');
      const viaOld = expectTokens(await refresh(first.client, viaNew.refresh), 'PROFILE_READ');

      await removeSecret(server.services, first.client.clientId, oldId, dev.id);
      const refused = await refresh(first.client, viaOld.refresh);
      expectOAuthError(refused, 401, 'invalid_client', 'client_secret');
      expectNothingLeaked(refused, [oldSecret, added.secret]);
      // Rotation never touches issued tokens: the access tokens still work, the refresh
      // token refused above is still unspent and works with the new secret.
      expect((await me(first.access)).status).toBe(200);
      expect((await me(viaOld.access)).status).toBe(200);
      expectTokens(await refresh(withNew, viaOld.refresh), 'PROFILE_READ');
    });

    it.skipIf(!available)('records token.issued and token.refreshed events with client and user, and no credential (SPEC §2 item 16)', async () => {
      const first = await issued();
      const next = expectTokens(await refresh(first.client, first.refresh), 'PROFILE_READ');
      const events = await server.db
        .selectFrom('audit_events')
        .selectAll()
        .where('client_id', '=', first.client.clientId)
        .where('type', 'in', ['token.issued', 'token.refreshed'])
        .orderBy('id')
        .execute();
      expect(events.map((e) => e.type)).toEqual(['token.issued', 'token.refreshed']);
      for (const e of events) {
        expect(e.user_id).toBe(user.id);
        for (const value of [first.access, first.refresh, next.access, next.refresh, first.client.secret!]) {
          expect(JSON.stringify(e)).not.toContain(value);
        }
      }
      // A replay within the window answers from the stored pair and rotates nothing.
      await refresh(first.client, first.refresh);
      const after = await server.db.selectFrom('audit_events').select('type').where('client_id', '=', first.client.clientId).where('type', '=', 'token.refreshed').execute();
      expect(after).toHaveLength(1);
    });
  });

  // ---------------------------------------------------------------- response hygiene

  describe('response hygiene', () => {
    it.skipIf(!available)('sends Cache-Control: no-store on every response, success or error (RFC 6749 §5.1, SPEC §2 item 6)', async () => {
      const first = await issued();
      const replies: Reply[] = [
        await refresh(first.client, first.refresh),
        await refresh(first.client, first.refresh),
        await server.post(TOKEN, 'grant_type=password', FORM),
        await server.post(TOKEN, '', FORM),
        await server.post(TOKEN, '{', JSON_TYPE),
        await server.post(TOKEN, 'x', { 'content-type': 'text/plain' }),
        await server.post(TOKEN, 'x', { 'content-type': 'application/xml' }),
        await server.post(TOKEN, `grant_type=refresh_token&padding=${'p'.repeat(100_000)}`, FORM),
        await server.token({ grant_type: 'refresh_token', refresh_token: first.refresh, client_id: 'nobody' }),
        await server.token({ grant_type: 'refresh_token', refresh_token: first.refresh }, { basic: [first.client.clientId, 'wrong'] }),
        await refresh(first.client, first.refresh, { scope: 'PROFILE_WRITE' }),
      ];
      for (const reply of replies) {
        expect(reply.headers.get('cache-control')).toBe('no-store');
        expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
      }
      expect(replies.map((r) => r.status)).toEqual([200, 200, 400, 400, 400, 400, 400, 400, 401, 401, 400]);
    });

    it.skipIf(!available)('never answers with a stack trace or a client secret, whatever the input (SPEC §2 item 6, SPEC §7)', async () => {
      const client = await approvedClient();
      const secret = client.secret!;
      const id = client.clientId;
      const replies: Reply[] = [
        await server.token({ grant_type: 'authorization_code', code: 'x', redirect_uri: 'y', client_id: id, client_secret: secret + 'x' }),
        await server.token({ grant_type: 'authorization_code', code: 'x', redirect_uri: 'y', client_id: id, client_secret: secret }),
        await server.token({ grant_type: 'authorization_code', code: secret, redirect_uri: secret, client_id: id, client_secret: secret }),
        await server.token({ grant_type: 'refresh_token', refresh_token: secret, client_id: id, client_secret: secret }),
        await server.token({ grant_type: 'authorization_code', client_secret: secret }, { basic: [id, secret] }),
        await server.post(TOKEN, `client_secret=${secret}&client_secret=${secret}&client_id=${id}&grant_type=refresh_token`, FORM),
        await server.post(TOKEN, `{"client_secret": "${secret}", "client_id": "${id}", "grant_type": "refresh_token"`, JSON_TYPE),
        await server.post(TOKEN, `{"client_secret": "${secret}" "client_id": 1}`, JSON_TYPE),
        await server.post(TOKEN, `client_secret=${secret}`, { 'content-type': 'text/plain' }),
        await server.post(TOKEN, `client_secret=${secret}`, { 'content-type': 'application/xml' }),
        await server.post(TOKEN, `client_secret=${secret}&x=${'p'.repeat(70_000)}`, FORM),
        await server.post(TOKEN, JSON.stringify({ client_secret: secret, x: 'p'.repeat(70_000) }), JSON_TYPE),
        await server.post(TOKEN, `client_secret=%E0%A4%A&grant_type=authorization_code`, FORM),
        await server.post(TOKEN, 'grant_type=authorization_code', { ...FORM, authorization: `Basic ${'%'.repeat(30)}` }),
        await server.post(TOKEN, 'grant_type=authorization_code', { ...FORM, authorization: basic(id, `${secret}\u0000`) }),
      ];
      for (const reply of replies) {
        expect(reply.status).toBeGreaterThanOrEqual(400);
        expect(reply.status).toBeLessThan(500);
        expect(reply.body).toBeDefined();
        expectNothingLeaked(reply, [secret]);
      }
    });

    it.skipIf(!available)('stores only hashes of codes, tokens and secrets (SPEC §3, §7)', async () => {
      const client = await approvedClient();
      const issuedCode = await code(client);
      const first = expectTokens(await server.exchange(client, issuedCode), 'PROFILE_READ');
      const next = expectTokens(await refresh(client, first.refresh), 'PROFILE_READ');
      const plain = [client.secret!, issuedCode, first.access, first.refresh, next.access, next.refresh];
      const tables = ['access_tokens', 'refresh_tokens', 'authorization_codes', 'client_secrets', 'audit_events', 'grants'] as const;
      for (const table of tables) {
        const dump = JSON.stringify(await server.db.selectFrom(table).selectAll().execute());
        for (const value of plain) {
          expect(dump, `${table} holds a plain credential`).not.toContain(value);
          // Nor the random body without its prefix.
          expect(dump, `${table} holds a plain credential body`).not.toContain(value.slice(4, 40));
        }
      }
      const access = await server.db.selectFrom('access_tokens').select('token_hash').where('client_id', '=', client.clientId).execute();
      expect(access).toHaveLength(2);
      for (const row of access) expect(row.token_hash).toMatch(/^[A-Za-z0-9_-]{43,}$/);
    });

    it.skipIf(!available)('writes no client secret, code or token to the log (SPEC §7)', async () => {
      const client = await approvedClient();
      const issuedCode = await code(client);
      const first = expectTokens(await server.exchange(client, issuedCode), 'PROFILE_READ');
      await server.token({ grant_type: 'refresh_token', refresh_token: first.refresh }, { basic: [client.clientId, client.secret!] });
      await server.token({ grant_type: 'refresh_token', refresh_token: first.refresh, client_id: client.clientId, client_secret: client.secret + 'x' });
      await server.post(TOKEN, `{"client_secret": "${client.secret}",`, JSON_TYPE);
      await me(first.access);
      const log = server.logs.join('');
      for (const value of [client.secret!, issuedCode, first.access, first.refresh]) expect(log).not.toContain(value);
    });
  });
});

describe.each(backends)('refresh idle expiry on $name', ({ name, available }) => {
  let server: TestServer;
  beforeAll(async () => {
    if (available) server = await startTestServer(name, { REFRESH_TOKEN_IDLE_TTL_SECONDS: '100' });
  });
  afterAll(async () => server?.close());

  it.skipIf(!available)('rejects a refresh token unused for REFRESH_TOKEN_IDLE_TTL_SECONDS with invalid_grant; each rotation renews the window (SPEC §2 item 7)', async () => {
    const dev = await server.user();
    const user = await server.user();
    const client = await server.client(dev);
    const first = await server.exchange(client, await server.code(client, user));
    expect(first.status).toBe(200);
    const refreshWith = (token: unknown) =>
      server.token({ grant_type: 'refresh_token', refresh_token: token as string, client_id: client.clientId, client_secret: client.secret! });

    server.advance(90);
    const second = await refreshWith(first.body.refresh_token);
    expect(second.status).toBe(200);
    server.advance(90); // 180 s after issue, 90 s after the rotation
    const third = await refreshWith(second.body.refresh_token);
    expect(third.status).toBe(200);

    server.advance(101);
    const expired = await refreshWith(third.body.refresh_token);
    expect(expired.status).toBe(400);
    expect(expired.body).toMatchObject({ error: 'invalid_grant', error_description: expect.stringMatching(/expired/) });
    expect(expired.headers.get('cache-control')).toBe('no-store');
  });
});

describe.each(backends)('codes of a revoked authorization on $name', ({ name, available }) => {
  let server: TestServer;
  beforeAll(async () => {
    if (available) server = await startTestServer(name);
  });
  afterAll(async () => server?.close());

  it.skipIf(!available)('refuses a code whose authorization the user revoked before redemption, without reporting a replay (RFC 6749 §4.1.2, SPEC §2 item 16)', async () => {
    const dev = await server.user();
    const user = await server.user();
    const client = await server.client(dev);
    const code = await server.code(client, user);
    await revokeAuthorizedApp(server.services, user.id, client.clientId);
    const res = await server.exchange(client, code);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'invalid_grant', error_description: expect.stringMatching(/revoked/) });
    const replays = await server.db.selectFrom('audit_events').select('id').where('type', '=', 'code.replayed').where('client_id', '=', client.clientId).execute();
    expect(replays).toHaveLength(0);
  });
});

// POST /v2/auth/oauth2/token over real HTTP on every backend: what only HTTP shows of the token
// endpoint (RFC 6749 §3.2, §5.1, §5.2; docs/rules.md#token-endpoint, docs/rules.md#token-errors,
// docs/rules.md#bad-input): the encodings it reads (forms, JSON, Content-Type, HTTP Basic),
// the status, headers and body of each answer, and what reaches the log. What the grants and
// client authentication decide is tested in process: test/oauth/grants/, client-auth.test.ts,
// token-endpoint.test.ts and pkce.test.ts; real concurrent requests in ./concurrency.test.ts;
// arbitrary bodies in test/fuzz/oauth-endpoints.test.ts. The shared setup is in
// ./token-endpoint/setup.ts. DPoP (./token-endpoint/dpop.ts), private_key_jwt
// (./token-endpoint/private-key-jwt.ts) and pushed authorization (./token-endpoint/par.ts)
// run over the same server.
import { beforeAll, describe, expect, it } from 'vitest';
import { generateToken } from '../../src/oauth/token-format.ts';
import { backends } from '../helpers/backends.ts';
import type { TestClient, TestServer, TestUser } from '../helpers/server.ts';
import { dpopOverHttp } from './token-endpoint/dpop.ts';
import { pushedAuthorization } from './token-endpoint/par.ts';
import { privateKeyJwtOverHttp } from './token-endpoint/private-key-jwt.ts';
import { basic, expectNothingLeaked, expectOAuthError, expectTokens, FORM, JSON_TYPE, type Reply, TOKEN, useTokenEndpoint } from './token-endpoint/setup.ts';

const INTROSPECT = '/v2/auth/oauth2/introspect';

/** The hidden fields of the consent form, repeated ones included, in order (the page's other form, "Not you?", carries its own). */
function hiddenPairs(page: string): [string, string][] {
  const start = page.indexOf('<form method="post" action="/auth/oauth2/authorize">');
  const body = page.slice(start, page.indexOf('</form>', start));
  return [...body.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!.replace(/&amp;/g, '&')]);
}

describe.each(backends)('token endpoint over HTTP on $name', ({ name, available }) => {
  const t = useTokenEndpoint(name, available);
  const { code, approvedClient, issued, refresh, me } = t;
  let server: TestServer;
  let user: TestUser;
  beforeAll(() => {
    ({ server, user } = t);
  });

  // ---------------------------------------------------------------- what it reads

  describe('encodings and client authentication methods', () => {
    it.skipIf(!available)('RFC 6749 §4.1.3, §2.3.1: a code sent as a form body with client_secret_post: 200, no-store, the pair as JSON, and the access token works', async () => {
      const client = await approvedClient();
      const res = await server.exchange(client, await code(client));
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      const { access } = expectTokens(res, 'PROFILE_READ');
      const profile = await me(access);
      expect(profile.status).toBe(200);
      expect(profile.body.data.email).toBe(user.email);
    });

    it.skipIf(!available)('docs/rules.md#token-endpoint: both grants read a JSON body', async () => {
      const client = await approvedClient();
      const res = await server.token(
        { grant_type: 'authorization_code', code: await code(client), redirect_uri: client.redirectUri, client_id: client.clientId, client_secret: client.secret! },
        { json: true },
      );
      const first = expectTokens(res, 'PROFILE_READ');
      expect((await me(first.access)).status).toBe(200);
      const refreshed = await server.token(
        { grant_type: 'refresh_token', refresh_token: first.refresh, client_id: client.clientId, client_secret: client.secret! },
        { json: true },
      );
      expectTokens(refreshed, 'PROFILE_READ');
    });

    it.skipIf(!available)('RFC 6749 §2.3.1: both grants take client_secret_basic', async () => {
      const client = await approvedClient();
      const res = await server.token(
        { grant_type: 'authorization_code', code: await code(client), redirect_uri: client.redirectUri },
        { basic: [client.clientId, client.secret!] },
      );
      const first = expectTokens(res, 'PROFILE_READ');
      const refreshed = await server.token({ grant_type: 'refresh_token', refresh_token: first.refresh }, { basic: [client.clientId, client.secret!] });
      expectTokens(refreshed, 'PROFILE_READ');
    });

    it.skipIf(!available)('RFC 6749 §3.2: Content-Type parameters such as charset are accepted', async () => {
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

  describe('resource indicators as the browser and the client send them (RFC 8707 §2)', () => {
    const v2 = () => `${server.url}/v2`;
    const mcp = () => `${server.url}/mcp`;

    /** The front channel with `resource` repeated in the query, through the consent form's hidden fields: the code. */
    async function codeFor(client: TestClient, resources: string[]): Promise<string> {
      const query = new URLSearchParams({ client_id: client.clientId, redirect_uri: client.redirectUri, response_type: 'code', scope: 'PROFILE_READ', state: 's1' });
      for (const r of resources) query.append('resource', r);
      const page = await t.userBrowser.get(`/auth/oauth2/authorize?${query}`);
      let back: URL;
      if (page.status === 303) back = new URL(page.location!);
      else {
        expect(page.status).toBe(200);
        const form = new URLSearchParams([...hiddenPairs(page.body), ['decision', 'allow']]);
        const res = await fetch(`${server.url}/auth/oauth2/authorize`, {
          method: 'POST',
          redirect: 'manual',
          headers: { cookie: t.userBrowser.cookieHeader(), 'content-type': 'application/x-www-form-urlencoded' },
          body: form.toString(),
        });
        expect(res.status).toBe(303);
        back = new URL(res.headers.get('location')!);
      }
      const issuedCode = back.searchParams.get('code');
      if (issuedCode === null) throw new Error(`no code in ${back}`);
      return issuedCode;
    }

    async function audienceOf(client: TestClient, token: string): Promise<unknown> {
      const res = await server.post(INTROSPECT, new URLSearchParams({ token, client_id: client.clientId, client_secret: client.secret! }).toString(), FORM);
      expect(res.body).toMatchObject({ active: true });
      return res.body!.aud;
    }

    it.skipIf(!available)('RFC 8707 §2: resource repeated in the authorization query and in a token form is read as a list', async () => {
      const client = await approvedClient();
      const body = new URLSearchParams({ grant_type: 'authorization_code', code: await codeFor(client, [mcp(), v2()]), redirect_uri: client.redirectUri, client_id: client.clientId, client_secret: client.secret! });
      body.append('resource', mcp());
      body.append('resource', v2());
      const res = await server.post(TOKEN, body.toString(), FORM);
      const tokens = expectTokens(res, 'PROFILE_READ');
      expect(await audienceOf(client, tokens.access)).toEqual([v2(), mcp()]);
    });

    it.skipIf(!available)('RFC 8707 §2: resource as a JSON array in the token request', async () => {
      const client = await approvedClient();
      const issuedCode = await codeFor(client, [v2(), mcp()]);
      const res = await server.post(
        TOKEN,
        JSON.stringify({ grant_type: 'authorization_code', code: issuedCode, redirect_uri: client.redirectUri, client_id: client.clientId, client_secret: client.secret, resource: [mcp()] }),
        JSON_TYPE,
      );
      const tokens = expectTokens(res, 'PROFILE_READ');
      expect(await audienceOf(client, tokens.access)).toEqual([mcp()]);
      expect(await audienceOf(client, tokens.refresh)).toEqual([v2(), mcp()]);
    });
  });

  describe('request parsing', () => {
    it.skipIf(!available)('rejects a parameter sent twice with 400 invalid_request naming it (RFC 6749 §3.1, docs/rules.md#request-parameters)', async () => {
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

    it.skipIf(!available)('rejects a JSON body that names a key twice with 400 invalid_request, even when the last value is the right secret (RFC 6749 §3.1, docs/rules.md#request-parameters)', async () => {
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
      // Looking for repeated keys survives any nesting the body limit allows (docs/rules.md#bad-input: a 4xx, never a 500).
      const deep = `{${head},"client_secret":"${first.client.secret}","x":${'['.repeat(7000)}${']'.repeat(7000)}}`;
      expectOAuthError(await server.post(TOKEN, deep, JSON_TYPE), 400, 'invalid_request');
      // None of those spent the refresh token.
      expectTokens(await refresh(first.client, first.refresh), 'PROFILE_READ');
    });

    it.skipIf(!available)('rejects JSON values that are not strings with 400 invalid_request naming the field (docs/rules.md#token-endpoint)', async () => {
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

    it.skipIf(!available)('rejects a JSON body that is not an object with 400 invalid_request (docs/rules.md#token-endpoint)', async () => {
      for (const body of ['[]', '"grant_type=authorization_code"', '42', 'true']) {
        const res = await server.post(TOKEN, body, JSON_TYPE);
        expectOAuthError(res, 400, 'invalid_request');
      }
    });

    it.skipIf(!available)('rejects invalid JSON with 400 invalid_request (docs/rules.md#bad-input)', async () => {
      const client = await approvedClient();
      for (const body of ['{"grant_type":', `{"client_secret": "${client.secret}", }`, '', '{"__proto__": {"x": 1}}']) {
        const res = await server.post(TOKEN, body, JSON_TYPE);
        expectOAuthError(res, 400, 'invalid_request');
        expectNothingLeaked(res, [client.secret]);
      }
    });

    it.skipIf(!available)('rejects a text/plain body with 400 invalid_request and a JSON error body (docs/rules.md#token-endpoint, docs/rules.md#token-errors)', async () => {
      const client = await approvedClient();
      const body = `grant_type=authorization_code&code=${await code(client)}&redirect_uri=${encodeURIComponent(client.redirectUri)}&client_id=${client.clientId}&client_secret=${client.secret}`;
      for (const type of ['text/plain', 'text/plain; charset=utf-8']) {
        const res = await server.post(TOKEN, body, { 'content-type': type });
        expectOAuthError(res, 400, 'invalid_request', /Content-Type/i);
        expectNothingLeaked(res, [client.secret]);
      }
    });

    it.skipIf(!available)('rejects other content types and a missing one with 400 invalid_request (docs/rules.md#token-endpoint, docs/rules.md#bad-input)', async () => {
      const client = await approvedClient();
      const form = `grant_type=authorization_code&code=x&redirect_uri=${encodeURIComponent(client.redirectUri)}&client_id=${client.clientId}&client_secret=${client.secret}`;
      for (const type of ['application/xml', 'multipart/form-data; boundary=x', 'application/octet-stream', 'text/html']) {
        const res = await server.post(TOKEN, form, { 'content-type': type });
        expectOAuthError(res, 400, 'invalid_request', /Content-Type/i);
      }
      const none = await server.post(TOKEN, new Blob([form]));
      expectOAuthError(none, 400, 'invalid_request', /Content-Type/i);
    });

    it.skipIf(!available)('rejects huge values and huge bodies with 400 invalid_request, never 500 (docs/rules.md#bad-input)', async () => {
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
  });

  // ---------------------------------------------------------------- its answers

  describe('response hygiene', () => {
    it.skipIf(!available)('RFC 6749 §5.1, §5.2: every answer is JSON with Cache-Control: no-store, and each error code has its status', async () => {
      const first = await issued();
      const second = await issued();
      const pending = await approvedClient({ state: 'pending' });
      const cases: Array<[Reply, number, string | undefined]> = [
        [await refresh(first.client, first.refresh), 200, undefined],
        // The spent token again within its window: the same pair (docs/rules.md#refresh-rotation).
        [await refresh(first.client, first.refresh), 200, undefined],
        [await server.post(TOKEN, 'grant_type=password', FORM), 400, 'unsupported_grant_type'],
        [await server.post(TOKEN, '', FORM), 400, 'invalid_request'],
        [await server.post(TOKEN, '{', JSON_TYPE), 400, 'invalid_request'],
        [await server.post(TOKEN, 'x', { 'content-type': 'text/plain' }), 400, 'invalid_request'],
        [await server.post(TOKEN, 'x', { 'content-type': 'application/xml' }), 400, 'invalid_request'],
        [await server.post(TOKEN, `grant_type=refresh_token&padding=${'p'.repeat(100_000)}`, FORM), 400, 'invalid_request'],
        [await server.token({ grant_type: 'refresh_token', refresh_token: first.refresh, client_id: 'nobody' }), 401, 'invalid_client'],
        [await server.token({ grant_type: 'refresh_token', refresh_token: first.refresh }, { basic: [first.client.clientId, 'wrong'] }), 401, 'invalid_client'],
        [await refresh(second.client, second.refresh, { scope: 'PROFILE_WRITE' }), 400, 'invalid_scope'],
        [await refresh(second.client, generateToken('refreshToken')), 400, 'invalid_grant'],
        [await refresh(second.client, second.refresh, { resource: 'https://elsewhere.example.com/api' }), 400, 'invalid_target'],
        [await server.exchange(pending, generateToken('authorizationCode')), 400, 'unauthorized_client'],
      ];
      for (const [reply, status, error] of cases) {
        expect(reply.headers.get('cache-control')).toBe('no-store');
        expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
        if (error === undefined) expectTokens(reply, 'PROFILE_READ');
        else expectOAuthError(reply, status, error);
      }
    });

    it.skipIf(!available)('RFC 6749 §5.2: a 401 for credentials sent with HTTP Basic carries WWW-Authenticate: Basic; one for credentials in the body carries none', async () => {
      const client = await approvedClient();
      const publicClient = await approvedClient({ kind: 'public' });
      const somewhere = { grant_type: 'authorization_code', code: generateToken('authorizationCode'), redirect_uri: client.redirectUri };
      const form = new URLSearchParams(somewhere).toString();
      const emptyPassword = `Basic ${Buffer.from(`${client.clientId}:`).toString('base64')}`;
      const basicReplies: Reply[] = [
        await server.token(somewhere, { basic: [client.clientId, generateToken('clientSecret')] }),
        await server.token(somewhere, { basic: ['no-such-client', generateToken('clientSecret')] }),
        // A public client has no secret to send (docs/rules.md#client-authentication).
        await server.token(somewhere, { basic: [publicClient.clientId, 'anything'] }),
        // A confidential client's client_id with an empty password, as public clients send it.
        await server.post(TOKEN, form, { ...FORM, authorization: emptyPassword }),
        // Credentials that do not decode (RFC 6749 §2.3.1).
        await server.post(TOKEN, form, { ...FORM, authorization: 'Basic bm8tY29sb24=' /* "no-colon" */ }),
        await server.post(TOKEN, form, { ...FORM, authorization: `Basic ${Buffer.from('%zz:%zz').toString('base64')}` }),
      ];
      for (const reply of basicReplies) {
        expectOAuthError(reply, 401, 'invalid_client');
        expect(reply.headers.get('www-authenticate')).toBe('Basic realm="gatehouse", charset="UTF-8"');
      }
      const inBody = await server.token({ ...somewhere, client_id: client.clientId, client_secret: generateToken('clientSecret') });
      expectOAuthError(inBody, 401, 'invalid_client');
      expect(inBody.headers.get('www-authenticate')).toBeNull();
    });

    it.skipIf(!available)('never answers with a stack trace or a client secret, whatever the input (docs/rules.md#token-errors, docs/rules.md#bad-input)', async () => {
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

    it.skipIf(!available)('writes no client secret, code or token to the log (docs/rules.md#private-records)', async () => {
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

  // DPoP and private_key_jwt at the same endpoints, and pushed authorization, over the same server.
  dpopOverHttp({ name, available }, t);
  privateKeyJwtOverHttp({ name, available }, t);
  pushedAuthorization({ name, available }, t);
});

// POST /v2/auth/oauth2/token on every backend: request parsing: content types, repeated parameters, JSON bodies (RFC 6749 §3.1; docs/rules.md#token-endpoint, docs/rules.md#request-parameters).
// The shared setup is in ./setup.ts.
import { beforeAll, describe, it } from 'vitest';
import { generateToken } from '../../../src/oauth/token-format.ts';
import { backends } from '../../helpers/backends.ts';
import type { TestServer } from '../../helpers/server.ts';
import { expectNothingLeaked, expectOAuthError, expectTokens, FORM, JSON_TYPE, TOKEN, useTokenEndpoint } from './setup.ts';

describe.each(backends)('token endpoint on $name', ({ name, available }) => {
  const t = useTokenEndpoint(name, available);
  const { code, approvedClient, issued, refresh } = t;
  let server: TestServer;
  beforeAll(() => {
    ({ server } = t);
  });

  // ---------------------------------------------------------------- request parsing

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
});

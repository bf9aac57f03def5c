// POST /v2/auth/oauth2/par and the authorization endpoint's request_uri, on every backend
// (RFC 9126; docs/rules.md#pushed-authorization): what a client application and a browser
// see, and what the stores hold; over the token endpoint suite's server, and under
// PAR_POLICY=required over a server of its own.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateClient } from '../../../src/services/clients/changes.ts';
import type { Backend } from '../../helpers/backends.ts';
import { formFields, type Browser } from '../../helpers/browser.ts';
import { startTestServer, type TestClient, type TestServer, type TestUser } from '../../helpers/server.ts';
import { expectOAuthError, pkcePair, type TokenEndpoint } from './setup.ts';

const PAR = '/v2/auth/oauth2/par';
const REQUEST_URI = /^urn:ietf:params:oauth:request_uri:[A-Za-z0-9_-]{43}$/;

const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url');

export function pushedAuthorization({ name, available }: Backend, t: TokenEndpoint): void {
  describe('pushed authorization requests', () => {
    let server: TestServer;
    let user: TestUser;

    beforeAll(async () => {
      if (!available) return;
      server = t.server;
      user = await server.user();
    });

    async function push(body: Record<string, string>, basic?: [string, string]) {
      const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
      if (basic) headers.authorization = `Basic ${Buffer.from(basic.map(encodeURIComponent).join(':')).toString('base64')}`;
      return server.post(PAR, new URLSearchParams(body).toString(), headers);
    }

    function authorizationParameters(client: TestClient, extra: Record<string, string> = {}): Record<string, string> {
      return { response_type: 'code', redirect_uri: client.redirectUri, scope: 'PROFILE_READ', state: 'st-1', ...extra };
    }

    /** A confidential client's push with HTTP Basic; returns the request_uri. */
    async function pushed(client: TestClient, extra: Record<string, string> = {}): Promise<string> {
      const res = await push(authorizationParameters(client, extra), [client.clientId, client.secret!]);
      expect(res.status).toBe(201);
      return res.body!.request_uri as string;
    }

    async function loggedIn(): Promise<Browser> {
      const browser = server.browser();
      await browser.login(user.email, user.password);
      return browser;
    }

    const byReference = (client: TestClient, requestUri: string) =>
      `/auth/oauth2/authorize?${new URLSearchParams({ client_id: client.clientId, request_uri: requestUri })}`;

    describe('the endpoint', () => {
      it.skipIf(!available)('is announced in the server metadata, not required by default (RFC 9126 §5)', async () => {
        const res = await fetch(`${server.url}/.well-known/oauth-authorization-server`);
        const body = (await res.json()) as Record<string, unknown>;
        expect(body.pushed_authorization_request_endpoint).toBe(`${server.url}${PAR}`);
        expect(body.require_pushed_authorization_requests).toBe(false);
      });

      it.skipIf(!available)('answers 201 with a request_uri, expires_in 60 and no-store, and keeps only its hash (RFC 9126 §2.2)', async () => {
        const client = await server.client(user);
        const res = await push(authorizationParameters(client), [client.clientId, client.secret!]);
        expect(res.status).toBe(201);
        expect(res.headers.get('cache-control')).toBe('no-store');
        expect(res.body).toEqual({ request_uri: expect.stringMatching(REQUEST_URI), expires_in: 60 });
        const requestUri = res.body!.request_uri as string;
        const stored = await server.oauth.findPushedRequest(sha256(requestUri));
        expect(stored).toMatchObject({ clientId: client.clientId, consumedAt: null, parameters: { scope: 'PROFILE_READ', state: 'st-1', redirect_uri: client.redirectUri } });
        expect(stored!.expiresAt - stored!.createdAt).toBe(60_000);
        expect(await server.oauth.findPushedRequest(requestUri)).toBeUndefined();
      });

      it.skipIf(!available)('authenticates a confidential client with client_secret_post as the token endpoint does (RFC 9126 §2)', async () => {
        const client = await server.client(user);
        const res = await push({ ...authorizationParameters(client), client_id: client.clientId, client_secret: client.secret! });
        expect(res.status).toBe(201);
      });

      it.skipIf(!available)('takes a public client by its client_id, with PKCE (RFC 9126 §2, RFC 7636)', async () => {
        const client = await server.client(user, { kind: 'public' });
        const res = await push({ ...authorizationParameters(client), client_id: client.clientId, code_challenge: pkcePair().challenge, code_challenge_method: 'S256' });
        expect(res.status).toBe(201);
      });

      it.skipIf(!available)('refuses a wrong secret with 401 invalid_client and a Basic challenge (RFC 9126 §2.3)', async () => {
        const client = await server.client(user);
        const res = await push(authorizationParameters(client), [client.clientId, 'gcs_not-the-secret']);
        expectOAuthError(res, 401, 'invalid_client');
        expect(res.headers.get('www-authenticate')).toMatch(/^Basic/);
      });

      it.skipIf(!available)('refuses a request without client authentication with 401 invalid_client (RFC 9126 §2.3)', async () => {
        const client = await server.client(user);
        expectOAuthError(await push(authorizationParameters(client)), 401, 'invalid_client');
      });

      it.skipIf(!available)('refuses a client that is not approved with unauthorized_client (RFC 9126 §2.3)', async () => {
        const client = await server.client(user, { state: 'pending' });
        expectOAuthError(await push(authorizationParameters(client), [client.clientId, client.secret!]), 400, 'unauthorized_client');
      });

      it.skipIf(!available)('refuses a request_uri inside a push (RFC 9126 §2.1)', async () => {
        const client = await server.client(user);
        const res = await push({ ...authorizationParameters(client), request_uri: 'urn:ietf:params:oauth:request_uri:abc' }, [client.clientId, client.secret!]);
        expectOAuthError(res, 400, 'invalid_request', 'request_uri must not be sent');
      });

      it.skipIf(!available)('checks the parameters as the authorization endpoint does, answering JSON errors (RFC 9126 §2.3, RFC 6749 §4.1.2.1)', async () => {
        const client = await server.client(user);
        const basic: [string, string] = [client.clientId, client.secret!];
        expectOAuthError(await push(authorizationParameters(client, { redirect_uri: 'https://evil.example/cb' }), basic), 400, 'invalid_request', 'is not registered');
        expectOAuthError(await push(authorizationParameters(client, { scope: 'NOT_A_SCOPE' }), basic), 400, 'invalid_scope');
        // RFC 6749 §3.3: a developer's client has no default scope, so leaving it out is an invalid scope too.
        const { scope: _omitted, ...withoutScope } = authorizationParameters(client);
        void _omitted;
        expectOAuthError(await push(withoutScope, basic), 400, 'invalid_scope', 'scope is required');
        expectOAuthError(await push(authorizationParameters(client, { response_type: 'token' }), basic), 400, 'unsupported_response_type');
        expectOAuthError(await push(authorizationParameters(client, { code_challenge_method: 'plain', code_challenge: 'x'.repeat(43) }), basic), 400, 'invalid_request');
        expectOAuthError(await push(authorizationParameters(client, { resource: 'https://elsewhere.example/api' }), basic), 400, 'invalid_target');
        expectOAuthError(await push(authorizationParameters(client, { client_id: 'someone-else' }), basic), 400, 'invalid_request', 'client_id');
        const publicClient = await server.client(user, { kind: 'public' });
        expectOAuthError(await push({ ...authorizationParameters(publicClient), client_id: publicClient.clientId }), 400, 'invalid_request', 'code_challenge');
      });

      it.skipIf(!available)('refuses a parameter sent twice (RFC 6749 §3.1)', async () => {
        const client = await server.client(user);
        const body = `${new URLSearchParams(authorizationParameters(client))}&scope=PROFILE_READ`;
        const auth = `Basic ${Buffer.from(`${client.clientId}:${client.secret}`).toString('base64')}`;
        const res = await server.post(PAR, body, { 'content-type': 'application/x-www-form-urlencoded', authorization: auth });
        expectOAuthError(res, 400, 'invalid_request', 'scope was sent more than once');
      });
    });

    describe('the authorization endpoint by reference', () => {
      it.skipIf(!available)('runs the code flow from client_id and request_uri alone, state and redirect URI from the push (RFC 9126 §4)', async () => {
        const client = await server.client(user);
        const requestUri = await pushed(client);
        const back = await server.authorize(await loggedIn(), { client_id: client.clientId, request_uri: requestUri });
        expect(back.origin + back.pathname).toBe(client.redirectUri);
        expect(back.searchParams.get('state')).toBe('st-1');
        expect(back.searchParams.get('iss')).toBe(server.url);
        const tokens = await server.exchange(client, back.searchParams.get('code')!);
        expect(tokens.status).toBe(200);
        expect(tokens.body.scope).toBe('PROFILE_READ');
        expect((await server.oauth.findPushedRequest(sha256(requestUri)))!.consumedAt).not.toBeNull();
      });

      it.skipIf(!available)('carries the reference, not the parameters, through the login page (RFC 9126 §4)', async () => {
        const client = await server.client(user);
        const requestUri = await pushed(client);
        const browser = server.browser();
        const first = await browser.get(byReference(client, requestUri));
        expect(first.status).toBe(303);
        const next = new URL(first.location!, server.url).searchParams.get('next')!;
        expect(new URLSearchParams(next.split('?')[1]).get('request_uri')).toBe(requestUri);
        expect(next).not.toContain('scope');
        await browser.login(user.email, user.password, next);
        const back = await server.authorize(browser, { client_id: client.clientId, request_uri: requestUri });
        expect(back.searchParams.get('code')).toBeTruthy();
      });

      it.skipIf(!available)('refuses a reference used once already, on a page (RFC 9126 §4: one-time use)', async () => {
        const client = await server.client(user);
        const requestUri = await pushed(client);
        const browser = await loggedIn();
        await server.authorize(browser, { client_id: client.clientId, request_uri: requestUri });
        const again = await browser.get(byReference(client, requestUri));
        expect(again.status).toBe(400);
        expect(again.location).toBeNull();
        expect(again.body).toContain('request_uri is unknown, expired or already used');
      });

      it.skipIf(!available)('a Deny spends the reference too (RFC 9126 §4)', async () => {
        const client = await server.client(user);
        const requestUri = await pushed(client);
        const browser = await loggedIn();
        const back = await server.authorize(browser, { client_id: client.clientId, request_uri: requestUri }, 'deny');
        expect(back.searchParams.get('error')).toBe('access_denied');
        expect((await browser.get(byReference(client, requestUri))).status).toBe(400);
      });

      it.skipIf(!available)('of two consent forms of one reference, only the first decision gets a code (RFC 9126 §4, ARCHITECTURE.md#single-use-is-atomic)', async () => {
        const client = await server.client(user);
        const requestUri = await pushed(client);
        const browser = await loggedIn();
        const page = await browser.get(byReference(client, requestUri));
        expect(page.status).toBe(200);
        const form = formFields(page.body);
        const [one, two] = await Promise.all([browser.post('/auth/oauth2/authorize', { ...form, decision: 'allow' }), browser.post('/auth/oauth2/authorize', { ...form, decision: 'allow' })]);
        const codes = [one, two].filter((r) => r.status === 303 && new URL(r.location!).searchParams.has('code'));
        expect(codes).toHaveLength(1);
        expect([one, two].map((r) => r.status).sort()).toEqual([303, 400]);
      });

      it.skipIf(!available)('refuses an expired reference (RFC 9126 §2.2 expires_in)', async () => {
        const client = await server.client(user);
        const requestUri = await pushed(client);
        server.advance(61);
        const res = await (await loggedIn()).get(byReference(client, requestUri));
        expect(res.status).toBe(400);
        expect(res.body).toContain('request_uri is unknown, expired or already used');
      });

      it.skipIf(!available)("refuses another client's reference (RFC 9126 §4: the client_id must match)", async () => {
        const client = await server.client(user);
        const other = await server.client(user);
        const requestUri = await pushed(client);
        const res = await (await loggedIn()).get(byReference(other, requestUri));
        expect(res.status).toBe(400);
        expect(res.location).toBeNull();
        expect(res.body).toContain('request_uri was not pushed by this client_id');
        expect((await server.oauth.findPushedRequest(sha256(requestUri)))!.consumedAt).toBeNull();
      });

      it.skipIf(!available)('refuses authorization parameters sent beside request_uri, on a page (RFC 9126 §4, docs/rules.md#pushed-authorization)', async () => {
        const client = await server.client(user);
        const requestUri = await pushed(client);
        const query = new URLSearchParams({ client_id: client.clientId, request_uri: requestUri, redirect_uri: 'https://evil.example/cb', scope: 'PROFILE_WRITE' });
        const res = await (await loggedIn()).get(`/auth/oauth2/authorize?${query}`);
        expect(res.status).toBe(400);
        expect(res.location).toBeNull();
        expect(res.body).toContain('redirect_uri, scope cannot be sent beside request_uri');
      });

      it.skipIf(!available)('refuses a request_uri this server did not issue (RFC 9126 §4)', async () => {
        const client = await server.client(user);
        const res = await (await loggedIn()).get(byReference(client, 'https://app.example.com/request.jwt'));
        expect(res.status).toBe(400);
      });
    });

    describe('requiring PAR', () => {
      it.skipIf(!available)('a client that requires PAR gets a request without request_uri refused with invalid_request (RFC 9126 §6)', async () => {
        const client = await server.client(user);
        await updateClient(server.services, client.clientId, null, { requirePushedAuthorizationRequests: true });
        const res = await (await loggedIn()).get(`/auth/oauth2/authorize?${new URLSearchParams({ client_id: client.clientId, ...authorizationParameters(client) })}`);
        expect(res.status).toBe(303);
        const back = new URL(res.location!);
        expect(back.searchParams.get('error')).toBe('invalid_request');
        expect(back.searchParams.get('error_description')).toContain('this client must use pushed authorization requests');
        expect(back.searchParams.get('state')).toBe('st-1');
        const ok = await server.authorize(await loggedIn(), { client_id: client.clientId, request_uri: await pushed(client) });
        expect(ok.searchParams.get('code')).toBeTruthy();
      });
    });
  });

  describe('PAR_POLICY=required', () => {
    let server: TestServer;
    let user: TestUser;
    beforeAll(async () => {
      if (!available) return;
      server = await startTestServer(name, { PAR_POLICY: 'required' });
      user = await server.user();
    });
    afterAll(async () => {
      await server?.close();
    });

    it.skipIf(!available)('announces require_pushed_authorization_requests and refuses a request sent in the browser (RFC 9126 §5)', async () => {
      const metadata = (await (await fetch(`${server.url}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
      expect(metadata.require_pushed_authorization_requests).toBe(true);
      const client = await server.client(user);
      const browser = server.browser();
      await browser.login(user.email, user.password);
      const query = new URLSearchParams({ client_id: client.clientId, response_type: 'code', redirect_uri: client.redirectUri, scope: 'PROFILE_READ' });
      const res = await browser.get(`/auth/oauth2/authorize?${query}`);
      expect(new URL(res.location!).searchParams.get('error_description')).toContain('this client must use pushed authorization requests');
      const pushedRes = await server.post(PAR, query.toString(), {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${client.clientId}:${client.secret}`).toString('base64')}`,
      });
      expect(pushedRes.status).toBe(201);
      const back = await server.authorize(browser, { client_id: client.clientId, request_uri: pushedRes.body!.request_uri as string });
      expect((await server.exchange(client, back.searchParams.get('code')!)).status).toBe(200);
    });
  });
}

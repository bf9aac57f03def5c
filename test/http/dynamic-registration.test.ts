// Dynamic client registration (RFC 7591, docs/rules.md#dynamic-registration) at POST /v2/auth/oauth2/register,
// under the three policies of DCR_POLICY, and the metadata that announces it (docs/rules.md#server-metadata):
// what only HTTP shows (statuses, the error bodies, the per-IP limits, the flows a registered
// client then walks). What a registration stores and answers, and each refusal's code and
// description, are the service's and tested in process (test/services/dynamic-registration.test.ts).
import { exportJWK, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reviewClient } from '../../src/services/clients/review.ts';
import { assertionFields, clientKey, signAssertion } from '../helpers/client-keys.ts';
import { backends } from '../helpers/backends.ts';
import { formFields } from '../helpers/browser.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { pkcePair } from './token-endpoint/setup.ts';

const REGISTER = '/v2/auth/oauth2/register';
const WELL_KNOWN = '/.well-known/oauth-authorization-server';

async function register(server: TestServer, body: unknown) {
  return server.post(REGISTER, JSON.stringify(body), { 'content-type': 'application/json' });
}

const mcpClient = { client_name: 'Agent', redirect_uris: ['http://127.0.0.1:33418/callback'], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] };

describe.each(backends)('dynamic client registration (RFC 7591) on $name', ({ name, available }) => {
  describe('DCR_POLICY=off (the default)', () => {
    let server: TestServer;
    beforeAll(async () => {
      if (available) server = await startTestServer(name);
    });
    afterAll(async () => server?.close());

    it.skipIf(!available)('announces no registration_endpoint and refuses registrations (docs/rules.md#dynamic-registration, docs/rules.md#server-metadata)', async () => {
      const doc = (await (await fetch(`${server.url}${WELL_KNOWN}`)).json()) as Record<string, unknown>;
      expect(doc.registration_endpoint).toBeUndefined();
      // CIMD_POLICY is review by default: documents are supported.
      expect(doc.client_id_metadata_document_supported).toBe(true);
      expect(doc.code_challenge_methods_supported).toEqual(['S256']);
      expect(doc.authorization_response_iss_parameter_supported).toBe(true);
      const res = await register(server, mcpClient);
      expect(res.status).toBe(404);
      expect(res.body?.error).toBe('invalid_request');
    });
  });

  describe('DCR_POLICY=open', () => {
    let server: TestServer;
    beforeAll(async () => {
      if (available) server = await startTestServer(name, { DCR_POLICY: 'open', RATE_LIMIT_OPEN_REGISTRATIONS_PER_IP_PER_HOUR: '12' });
    });
    afterAll(async () => server?.close());

    it.skipIf(!available)('RFC 8414 §2: the metadata announces the registration endpoint', async () => {
      const doc = (await (await fetch(`${server.url}${WELL_KNOWN}`)).json()) as Record<string, unknown>;
      expect(doc.registration_endpoint).toBe(`${server.url}${REGISTER}`);
    });

    it.skipIf(!available)('RFC 7591 §3.2.1: a public client is registered approved with the default scopes, 201 with its information', async () => {
      const res = await register(server, mcpClient);
      expect(res.status).toBe(201);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.body).toEqual({
        client_id: expect.any(String),
        client_id_issued_at: expect.any(Number),
        client_name: 'Agent',
        redirect_uris: ['http://127.0.0.1:33418/callback'],
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token', 'urn:ietf:params:oauth:grant-type:jwt-bearer'],
        response_types: ['code'],
        scope: expect.stringContaining('PROFILE_READ'),
        require_pushed_authorization_requests: false,
      });
      expect(res.body!.client_secret).toBeUndefined();
      const row = (await server.services.stores.clients.find(res.body!.client_id as string))!;
      expect(row).toMatchObject({ kind: 'public', state: 'approved' });
      expect(row.scopes!.every((s) => s.endsWith('_READ'))).toBe(true);
    });

    it.skipIf(!available)('RFC 7591 §3.2.2: a bad redirect URI is invalid_redirect_uri, with the developer form\'s message', async () => {
      const res = await register(server, { ...mcpClient, redirect_uris: ['http://agent.example.com/callback'] });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'invalid_redirect_uri', error_description: expect.stringMatching(/https/) });
      const none = await register(server, { ...mcpClient, redirect_uris: [] });
      expect(none.body?.error).toBe('invalid_redirect_uri');
    });

    it.skipIf(!available)('RFC 7591 §3.2.2: a confidential client, a scope beyond DCR_SCOPES or bad metadata is invalid_client_metadata', async () => {
      for (const body of [
        { ...mcpClient, token_endpoint_auth_method: 'client_secret_basic' },
        { ...mcpClient, scope: 'PROFILE_WRITE' },
        { ...mcpClient, scope: 'NO_SUCH_SCOPE' },
        { ...mcpClient, grant_types: ['client_credentials'] },
        { ...mcpClient, client_name: 42 },
        ['not', 'an', 'object'],
      ]) {
        const res = await register(server, body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body?.error, JSON.stringify(body)).toBe('invalid_client_metadata');
      }
    });

    it.skipIf(!available)('RFC 9700 §4.11.2: a registered https://phish.example/login is no open redirector: a link with prompt=none, before the user allowed the application, answers a page naming it, never a Location', async () => {
      const phish = 'https://phish.example/login';
      const reg = await register(server, { client_name: 'Calendar Helper', redirect_uris: [phish], token_endpoint_auth_method: 'none' });
      expect(reg.status).toBe(201);
      const clientId = reg.body!.client_id as string;
      const { verifier, challenge } = pkcePair();
      const link = (extra: Record<string, string>) => `/auth/oauth2/authorize?${new URLSearchParams({ client_id: clientId, redirect_uri: phish, ...extra })}`;
      const complete = { response_type: 'code', scope: 'PROFILE_READ', code_challenge: challenge, code_challenge_method: 'S256', state: 's' };
      const expectPage = (res: { status: number; location: string | null; body: string }, error: string) => {
        expect(res.location, error).toBeNull();
        expect(res.status, error).toBe(400);
        expect(res.body, error).toContain('Calendar Helper');
        expect(res.body, error).toContain(error);
      };
      // The attack as sent: nobody logged in, only prompt=none; then links that fail further on.
      const anonymous = server.browser();
      expectPage(await anonymous.get(link({ prompt: 'none' })), 'invalid_request');
      expectPage(await anonymous.get(link({ ...complete, prompt: 'none' })), 'login_required');
      expectPage(await anonymous.get(link({ ...complete, response_type: 'token' })), 'unsupported_response_type');
      expectPage(await anonymous.get(link({ ...complete, scope: 'PROFILE_WRITE' })), 'invalid_scope');
      expectPage(await anonymous.get(link({ ...complete, resource: 'https://elsewhere.example/api' })), 'invalid_target');
      // A logged-in user who never allowed it: the same, consent_required included.
      const user = await server.user();
      const browser = server.browser();
      await browser.login(user.email, user.password);
      expectPage(await browser.get(link({ ...complete, prompt: 'none' })), 'consent_required');
      expectPage(await browser.get(link({ ...complete, scope: 'PROFILE_WRITE' })), 'invalid_scope');
      // Once the user has seen its consent page and allowed it, its redirect URI is theirs to trust.
      const page = await browser.get(link(complete));
      expect(page.status).toBe(200);
      expect(page.body).toContain('phish.example');
      // Nobody reviewed it, and the page says so rather than vouching for it.
      expect(page.body).toContain('it registered itself with this server');
      expect(page.body).not.toContain('A platform admin reviewed this application');
      const allowed = await browser.post('/auth/oauth2/authorize', { ...formFields(page.body), decision: 'allow' });
      expect(new URL(allowed.location!).origin).toBe('https://phish.example');
      const code = new URL(allowed.location!).searchParams.get('code')!;
      expect((await server.token({ grant_type: 'authorization_code', code, redirect_uri: phish, client_id: clientId, code_verifier: verifier })).status).toBe(200);
      const silent = await browser.get(link({ ...complete, prompt: 'none' }));
      expect(silent.status).toBe(303);
      expect(new URL(silent.location!).searchParams.get('error')).toBe('consent_required');
      // Another user's allowing it is not this one's.
      expectPage(await anonymous.get(link({ ...complete, prompt: 'none' })), 'login_required');
    });

    it.skipIf(!available)('SECURITY.md, RFC 6749 §3.3: an agent that sends no scope gets what it registered (DCR_SCOPES by default) and completes the code flow with PKCE; a developer\'s client must still send scope', async () => {
      const reg = await register(server, mcpClient);
      const clientId = reg.body!.client_id as string;
      const user = await server.user();
      const browser = server.browser();
      await browser.login(user.email, user.password);
      const { verifier, challenge } = pkcePair();
      const redirectUri = mcpClient.redirect_uris[0]!;
      const page = await browser.get(`/auth/oauth2/authorize?${new URLSearchParams({ client_id: clientId, redirect_uri: redirectUri, response_type: 'code', code_challenge: challenge, code_challenge_method: 'S256', state: 's' })}`);
      expect(page.status).toBe(200);
      const allowed = await browser.post('/auth/oauth2/authorize', { ...formFields(page.body), decision: 'allow' });
      const code = new URL(allowed.location!).searchParams.get('code')!;
      const tokens = await server.token({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: clientId, code_verifier: verifier });
      expect(tokens.status).toBe(200);
      expect(tokens.body.scope).toBe(server.config.registration.scopes.join(' '));
      expect(tokens.body.scope).toBe(reg.body!.scope);

      // Every other client must still send scope: a developer's public client, with PKCE.
      const developers = await server.client(await server.user(), { kind: 'public', redirectUris: [redirectUri] });
      const unscoped = await browser.get(`/auth/oauth2/authorize?${new URLSearchParams({ client_id: developers.clientId, redirect_uri: redirectUri, response_type: 'code', code_challenge: challenge, code_challenge_method: 'S256', state: 's' })}`);
      expect(unscoped.status).toBe(303);
      const back = new URL(unscoped.location!);
      expect(back.searchParams.get('error')).toBe('invalid_scope');
      expect(back.searchParams.get('error_description')).toMatch(/^scope is required/);
    });

    it.skipIf(!available)('docs/rules.md#dynamic-registration: open registrations are limited per IP by RATE_LIMIT_OPEN_REGISTRATIONS_PER_IP_PER_HOUR (429 with Retry-After)', async () => {
      let last;
      for (let i = 0; i < 13; i++) last = await register(server, mcpClient);
      expect(last!.status).toBe(429);
      expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(last!.body).toEqual({ error: 'temporarily_unavailable', error_description: expect.stringMatching(/^too many registrations from this address: retry in \d+ seconds/) });
    });
  });

  // The settings' defaults: '' is an unset variable, undoing the test server's limits of 0.
  const defaultLimits = { RATE_LIMIT_REGISTRATIONS_PER_IP_PER_HOUR: '', RATE_LIMIT_OPEN_REGISTRATIONS_PER_IP_PER_HOUR: '' };

  describe('DCR_POLICY=open with the default limits', () => {
    let server: TestServer;
    beforeAll(async () => {
      if (available) server = await startTestServer(name, { DCR_POLICY: 'open', ...defaultLimits });
    });
    afterAll(async () => server?.close());

    it.skipIf(!available)('docs/integrating.md#connect-an-ai-agent-mcp: a hosted agent platform registers its 11th, 12th... user of the hour from one address', async () => {
      const ids = new Set<string>();
      for (let i = 0; i < 15; i++) {
        const res = await register(server, { ...mcpClient, client_name: `Agent of user ${i}` });
        expect(res.status, `registration ${i + 1}`).toBe(201);
        ids.add(res.body!.client_id as string);
      }
      expect(ids.size).toBe(15);
      expect(await server.services.stores.clients.list({ state: 'approved' })).toHaveLength(15);
    });
  });

  describe('DCR_POLICY=review with the default limits', () => {
    let server: TestServer;
    beforeAll(async () => {
      if (available) server = await startTestServer(name, { DCR_POLICY: 'review', ...defaultLimits });
    });
    afterAll(async () => server?.close());

    it.skipIf(!available)('docs/integrating.md#connect-an-ai-agent-mcp: the 11th registration of the hour that would wait for review is refused', async () => {
      for (let i = 0; i < 10; i++) expect((await register(server, mcpClient)).status, `registration ${i + 1}`).toBe(201);
      const refused = await register(server, mcpClient);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(refused.body).toEqual({ error: 'temporarily_unavailable', error_description: expect.stringMatching(/^too many registrations from this address: retry in \d+ seconds/) });
      expect(await server.services.stores.clients.list({ state: 'pending' })).toHaveLength(10);
    });
  });

  describe('DCR_POLICY=review', () => {
    let server: TestServer;
    beforeAll(async () => {
      if (available) server = await startTestServer(name, { DCR_POLICY: 'review' });
    });
    afterAll(async () => server?.close());

    it.skipIf(!available)('docs/rules.md#dynamic-registration: a registered client starts pending, and cannot be authorized until an admin approves it', async () => {
      const res = await register(server, { ...mcpClient, scope: 'PROFILE_READ PROFILE_WRITE' });
      expect(res.status).toBe(201);
      const clientId = res.body!.client_id as string;
      expect(await server.services.stores.clients.find(clientId)).toMatchObject({ state: 'pending', scopes: ['PROFILE_READ', 'PROFILE_WRITE'] });
      const page = await fetch(`${server.url}/auth/oauth2/authorize?client_id=${clientId}&redirect_uri=${encodeURIComponent(mcpClient.redirect_uris[0]!)}&response_type=code&scope=PROFILE_READ`, { redirect: 'manual' });
      expect(page.status).toBe(400);
      expect(await page.text()).toContain('pending');
    });

    it.skipIf(!available)('RFC 7591 §3.2.1: a confidential client gets its secret once', async () => {
      const res = await register(server, { ...mcpClient, token_endpoint_auth_method: 'client_secret_post' });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ token_endpoint_auth_method: 'client_secret_post', client_secret: expect.stringMatching(/^gcs_/), client_secret_expires_at: 0 });
    });

    it.skipIf(!available)('RFC 7591 §2, RFC 7523 §2.2: a private_key_jwt client registers its public keys by value, hears them back with no secret, and once approved authenticates with an assertion; no keys, a private key, a shared key or a jwks_uri is invalid_client_metadata', async () => {
      const key = await clientKey('ES256');
      const res = await register(server, { ...mcpClient, token_endpoint_auth_method: 'private_key_jwt', jwks: key.jwks });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ token_endpoint_auth_method: 'private_key_jwt', jwks: key.jwks });
      expect(res.body!.client_secret).toBeUndefined();
      const clientId = res.body!.client_id as string;
      expect(await server.services.stores.clients.find(clientId)).toMatchObject({ kind: 'confidential', tokenEndpointAuthMethod: 'private_key_jwt', jwks: key.jwks });
      await reviewClient(server.services, clientId, 'approve', null);
      const token = await server.token({ grant_type: 'refresh_token', refresh_token: 'grt_unknown', ...assertionFields(await signAssertion(key, clientId, server.url)) });
      expect(token.body).toMatchObject({ error: 'invalid_grant' }); // authenticated: only the refresh token is wrong

      const { privateKey } = await generateKeyPair('ES256', { extractable: true });
      const cases: Array<[unknown, RegExp]> = [
        [{ ...mcpClient, token_endpoint_auth_method: 'private_key_jwt' }, /^jwks: the method private_key_jwt needs the client's public keys/],
        [{ ...mcpClient, token_endpoint_auth_method: 'private_key_jwt', jwks: { keys: [await exportJWK(privateKey)] } }, /^jwks: key 1 of jwks holds the private member "d"/],
        [{ ...mcpClient, token_endpoint_auth_method: 'private_key_jwt', jwks: { keys: [{ kty: 'oct', k: 'c2VjcmV0' }] } }, /^jwks: key 1 of jwks is a symmetric key/],
        [{ ...mcpClient, token_endpoint_auth_method: 'private_key_jwt', jwks_uri: 'https://app.example/jwks.json' }, /^jwks_uri is not supported: send the public keys by value in jwks/],
        [{ ...mcpClient, token_endpoint_auth_method: 'client_secret_jwt' }, /^token_endpoint_auth_method "client_secret_jwt" is not supported/],
      ];
      for (const [body, description] of cases) {
        const refused = await register(server, body);
        expect(refused.status, JSON.stringify(body).slice(0, 120)).toBe(400);
        expect(refused.body).toEqual({ error: 'invalid_client_metadata', error_description: expect.stringMatching(description) });
      }
    });
  });

  describe('DCR_POLICY=review with RATE_LIMIT_REGISTRATIONS_PER_IP_PER_HOUR=3', () => {
    let server: TestServer;
    beforeAll(async () => {
      if (available) server = await startTestServer(name, { DCR_POLICY: 'review', RATE_LIMIT_REGISTRATIONS_PER_IP_PER_HOUR: '3' });
    });
    afterAll(async () => server?.close());

    it.skipIf(!available)('docs/integrating.md#connect-an-ai-agent-mcp: registrations that wait for review are limited per IP too, so one address cannot fill the admin queue', async () => {
      for (let i = 0; i < 3; i++) expect((await register(server, mcpClient)).status).toBe(201);
      const refused = await register(server, mcpClient);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(refused.body).toEqual({ error: 'temporarily_unavailable', error_description: expect.stringMatching(/^too many registrations from this address: retry in \d+ seconds/) });
      const pending = await server.services.stores.clients.list({ state: 'pending' });
      expect(pending).toHaveLength(3);
    });
  });
});

// Dynamic client registration (RFC 7591, SPEC §10.4) at POST /v2/auth/oauth2/register,
// under the three policies of DCR_POLICY, and the metadata that announces it (SPEC §10.5).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

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

    it.skipIf(!available)('announces no registration_endpoint and refuses registrations (SPEC §10.4, §10.5)', async () => {
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
      if (available) server = await startTestServer(name, { DCR_POLICY: 'open', RATE_LIMIT_REGISTRATIONS_PER_IP_PER_HOUR: '12' });
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
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        scope: expect.stringContaining('PROFILE_READ'),
      });
      expect(res.body!.client_secret).toBeUndefined();
      const row = await server.db.selectFrom('oauth_clients').select(['kind', 'state', 'scopes']).where('id', '=', res.body!.client_id as string).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ kind: 'public', state: 'approved' });
      expect(row.scopes!.split(' ').every((s) => s.endsWith('_READ'))).toBe(true);
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

    it.skipIf(!available)('SPEC §10.8: a client_name with a bidi override (which shows "Calendar \u202Emoc.elgoog" as "Calendar google.com") is invalid_client_metadata, saying what to remove', async () => {
      const res = await register(server, { ...mcpClient, client_name: 'Calendar \u202Emoc.elgoog' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'invalid_client_metadata', error_description: expect.stringMatching(/^client_name .*U\+202E/) });
    });

    it.skipIf(!available)('SPEC §10.4: registrations are limited per IP (429 with Retry-After)', async () => {
      let last;
      for (let i = 0; i < 13; i++) last = await register(server, mcpClient);
      expect(last!.status).toBe(429);
      expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(last!.body?.error).toBe('temporarily_unavailable');
    });
  });

  describe('DCR_POLICY=review', () => {
    let server: TestServer;
    beforeAll(async () => {
      if (available) server = await startTestServer(name, { DCR_POLICY: 'review' });
    });
    afterAll(async () => server?.close());

    it.skipIf(!available)('RFC 7591 §3.2.2: a redirect URI with credentials (user:pw@, which can dress one host as another) or longer than 2,000 characters is invalid_redirect_uri', async () => {
      const dressed = await register(server, { ...mcpClient, redirect_uris: ['https://trusted.example.com@evil.example.net/cb'] });
      expect(dressed.status).toBe(400);
      expect(dressed.body).toEqual({ error: 'invalid_redirect_uri', error_description: expect.stringMatching(/must not contain a user name or password/) });
      const long = `https://agent.example.com/${'a'.repeat(2000)}`;
      const tooLong = await register(server, { ...mcpClient, redirect_uris: [long] });
      expect(tooLong.status).toBe(400);
      expect(tooLong.body?.error).toBe('invalid_redirect_uri');
      expect(tooLong.body?.error_description).toMatch(/at most 2000 characters/);
      expect((tooLong.body?.error_description as string).length).toBeLessThan(400);
    });

    it.skipIf(!available)('RFC 7591 §3.2.2: the description names the metadata field as the request spelled it (client_uri, logo_uri, client_name)', async () => {
      const cases: Array<[Record<string, unknown>, RegExp]> = [
        [{ ...mcpClient, client_uri: 'javascript:alert(1)' }, /^client_uri must use http or https/],
        [{ ...mcpClient, logo_uri: 'http://agent.example.com/logo.png' }, /^logo_uri must use https/],
        [{ ...mcpClient, client_name: '   ' }, /^client_name is required/],
        [{ ...mcpClient, client_name: 'x'.repeat(101) }, /^client_name must be at most 100 characters/],
      ];
      for (const [body, description] of cases) {
        const res = await register(server, body);
        expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
        expect(res.body).toEqual({ error: 'invalid_client_metadata', error_description: expect.stringMatching(description) });
      }
    });

    it.skipIf(!available)('SPEC §10.4: a registered client starts pending, and cannot be authorized until an admin approves it', async () => {
      const res = await register(server, { ...mcpClient, scope: 'PROFILE_READ PROFILE_WRITE' });
      expect(res.status).toBe(201);
      const clientId = res.body!.client_id as string;
      const row = await server.db.selectFrom('oauth_clients').select(['state', 'scopes']).where('id', '=', clientId).executeTakeFirstOrThrow();
      expect(row).toEqual({ state: 'pending', scopes: 'PROFILE_READ PROFILE_WRITE' });
      const page = await fetch(`${server.url}/auth/oauth2/authorize?client_id=${clientId}&redirect_uri=${encodeURIComponent(mcpClient.redirect_uris[0]!)}&response_type=code&scope=PROFILE_READ`, { redirect: 'manual' });
      expect(page.status).toBe(400);
      expect(await page.text()).toContain('pending');
    });

    it.skipIf(!available)('RFC 7591 §3.2.1: a confidential client gets its secret once', async () => {
      const res = await register(server, { ...mcpClient, token_endpoint_auth_method: 'client_secret_post' });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ token_endpoint_auth_method: 'client_secret_post', client_secret: expect.stringMatching(/^gcs_/), client_secret_expires_at: 0 });
    });
  });
});

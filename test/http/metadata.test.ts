// What a client can read of this server before it asks a user anything, on SQLite only (none
// of it depends on the storage backend), over one server: RFC 8414 authorization server
// metadata at /.well-known/oauth-authorization-server (what the document says, and that two
// strict client libraries, oauth4webapi and openid-client v6, accept it for discovery); RFC 9728
// protected resource metadata at /.well-known/oauth-protected-resource/v2 and /mcp
// (docs/rules.md#protected-resource-metadata); and GET /v2/auth/oauth2/clients/:clientId, an
// approved client's public details in Cal.com API v2's shape (OAuth2ClientDto in the success
// envelope), where every other id is one 404, so the answer tells nothing of clients no user
// can authorize (docs/rules.md#client-states; the route reads one client through
// ClientStore.find, whose contract test/storage/client-store.test.ts holds on both databases).
// Resource indicators (RFC 8707, docs/rules.md#resource-indicators) are decided by the core and
// tested in process (test/oauth/grants/, token-endpoint.test.ts, authorize-decisions.test.ts,
// bearer.test.ts, introspection.test.ts); `resource` as a form and a JSON body reads it in
// test/http/token-endpoint.test.ts; the 401s that point a client at the resource documents in
// test/platform/me.test.ts, platform-access.test.ts and mcp/mcp.test.ts.
import * as oauth from 'oauth4webapi';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scopeRegistry } from '../../src/oauth/scopes.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const WELL_KNOWN = '/.well-known/oauth-authorization-server';

describe('what a client reads before it asks', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite');
  });
  afterAll(async () => server?.close());

  describe('authorization server metadata (RFC 8414)', () => {
    async function metadata(target: TestServer = server) {
      const res = await fetch(`${target.url}${WELL_KNOWN}`);
      return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
    }

    it('serves JSON whose issuer is BASE_URL and whose endpoints are absolute URLs of this server (RFC 8414 §2, §3.2)', async () => {
      const res = await metadata();
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.body).toMatchObject({
        issuer: server.url,
        authorization_endpoint: `${server.url}/auth/oauth2/authorize`,
        token_endpoint: `${server.url}/v2/auth/oauth2/token`,
        revocation_endpoint: `${server.url}/v2/auth/oauth2/revoke`,
        introspection_endpoint: `${server.url}/v2/auth/oauth2/introspect`,
      });
      // RFC 8414 §2: the issuer has no query or fragment.
      const issuer = new URL(res.body.issuer as string);
      expect(issuer.search + issuer.hash).toBe('');
    });

    it('advertises exactly what the server supports: code flow, S256, refresh, both secret methods and private_key_jwt, iss in responses (RFC 8414 §2, RFC 9207 §3)', async () => {
      const { body } = await metadata();
      expect(body.response_types_supported).toEqual(['code']);
      expect(body.code_challenge_methods_supported).toEqual(['S256']);
      expect([...(body.grant_types_supported as string[])].sort()).toEqual(['authorization_code', 'refresh_token', 'urn:ietf:params:oauth:grant-type:jwt-bearer']);
      // docs/integrating.md#enterprise-managed-agents: the JWT bearer grant's profile, an organization's ID-JAG.
      expect(body.authorization_grant_profiles_supported).toEqual(['urn:ietf:params:oauth:grant-profile:id-jag']);
      for (const key of ['token_endpoint_auth_methods_supported', 'revocation_endpoint_auth_methods_supported', 'introspection_endpoint_auth_methods_supported']) {
        expect(body[key], key).toEqual(expect.arrayContaining(['client_secret_basic', 'client_secret_post']));
        // RFC 7523 §2.2 (docs/rules.md#client-authentication): private_key_jwt, never client_secret_jwt.
        expect((body[key] as string[]).filter((m) => m.includes('jwt')), key).toEqual(['private_key_jwt']);
        // RFC 8414 §2: the algorithms of the assertions, asymmetric only.
        expect(body[key.replace('methods', 'signing_alg_values')], key).toEqual(['PS256', 'ES256', 'EdDSA', 'Ed25519', 'RS256']);
      }
      expect(body.authorization_response_iss_parameter_supported).toBe(true);
      // OpenID Connect Core §11: offline_access may always be sent.
      expect(body.scopes_supported).toEqual([...scopeRegistry.map((s) => s.name), 'offline_access']);
      // docs/rules.md#introspection: a public client (method none) may revoke but not introspect.
      expect(body.revocation_endpoint_auth_methods_supported).toContain('none');
      expect(body.introspection_endpoint_auth_methods_supported).not.toContain('none');
    });

    it('answers a metadata document whose iss matches the iss of authorization responses (RFC 9207 §2.4)', async () => {
      const dev = await server.user();
      const c = await server.client(dev);
      const browser = server.browser();
      await browser.login(dev.email, dev.password);
      const back = await server.authorize(browser, { client_id: c.clientId, redirect_uri: c.redirectUri, response_type: 'code', scope: 'PROFILE_READ', state: 'st' });
      expect(back.searchParams.get('iss')).toBe((await metadata()).body.issuer);
    });

    it('is accepted by oauth4webapi discovery, which checks the issuer against the URL it asked (RFC 8414 §3.3)', async () => {
      const issuer = new URL(server.url);
      const response = await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', [oauth.allowInsecureRequests]: true });
      const as = await oauth.processDiscoveryResponse(issuer, response);
      expect(as.issuer).toBe(server.url);
      expect(as.token_endpoint).toBe(`${server.url}/v2/auth/oauth2/token`);
      expect(as.revocation_endpoint).toBe(`${server.url}/v2/auth/oauth2/revoke`);
      expect(as.introspection_endpoint).toBe(`${server.url}/v2/auth/oauth2/introspect`);
    });

    it('is accepted by openid-client v6 discovery (algorithm oauth2) (RFC 8414 §3)', async () => {
      const config = await client.discovery(new URL(server.url), 'some-client', 'some-secret', undefined, {
        algorithm: 'oauth2',
        execute: [client.allowInsecureRequests],
      });
      const meta = config.serverMetadata();
      expect(meta.issuer).toBe(server.url);
      expect(meta.supportsPKCE()).toBe(true);
      expect(meta.authorization_endpoint).toBe(`${server.url}/auth/oauth2/authorize`);
    });

    it('puts the authorization endpoint on APP_URL and the rest on BASE_URL when they differ (docs/rules.md#surfaces, docs/rules.md#configuration)', async () => {
      const split = await startTestServer('sqlite', { APP_URL: 'https://accounts.example.test' });
      try {
        const { body } = await metadata(split);
        expect(body.issuer).toBe(split.url);
        expect(body.authorization_endpoint).toBe('https://accounts.example.test/auth/oauth2/authorize');
        expect(body.token_endpoint).toBe(`${split.url}/v2/auth/oauth2/token`);
      } finally {
        await split.close();
      }
    });

    it('keeps the configured issuer whatever Host or X-Forwarded-Host the request carries (RFC 8414 §3.3, RFC 9207)', async () => {
      const res = await server.app.inject({
        method: 'GET',
        url: WELL_KNOWN,
        headers: { host: 'attacker.example', 'x-forwarded-host': 'attacker.example', 'x-forwarded-proto': 'https' },
      });
      expect(res.statusCode).toBe(200);
      const body = res.json() as Record<string, string>;
      expect(body.issuer).toBe(server.url);
      expect(JSON.stringify(body)).not.toContain('attacker.example');
    });
  });

  describe('protected resource metadata (RFC 9728)', () => {
    it('RFC 9728 §3: /.well-known/oauth-protected-resource/v2 and /mcp name the resource, the authorization server, scopes, header bearer and the DPoP algorithms', async () => {
      for (const path of ['/v2', '/mcp']) {
        const res = await fetch(`${server.url}/.well-known/oauth-protected-resource${path}`);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toMatch(/^application\/json/);
        const doc = (await res.json()) as Record<string, unknown>;
        expect(doc).toMatchObject({
          resource: `${server.url}${path}`,
          authorization_servers: [server.url],
          bearer_methods_supported: ['header'],
          // RFC 9728 §2 (docs/rules.md#dpop): the proofs it verifies for DPoP-bound tokens.
          dpop_signing_alg_values_supported: ['ES256', 'EdDSA', 'Ed25519', 'RS256', 'PS256'],
        });
        expect(doc.scopes_supported).toContain('PROFILE_READ');
        // RFC 9728 §3.1 / RFC 8414 §3: the authorization server named is discoverable.
        const as = await fetch(`${server.url}/.well-known/oauth-authorization-server`);
        expect(((await as.json()) as { issuer: string }).issuer).toBe(server.url);
      }
    });
  });

  describe('a client’s public details', () => {
    const details = async (clientId: string) => {
      const res = await fetch(`${server.url}/v2/auth/oauth2/clients/${encodeURIComponent(clientId)}`);
      return { status: res.status, cacheControl: res.headers.get('cache-control'), body: (await res.json()) as Record<string, any> };
    };

    it('answers an approved client’s id, first redirect URI, name, logo, trust and type, and nothing secret', async () => {
      const owner = await server.user();
      const client = await server.client(owner, { name: 'Planner', redirectUris: ['https://planner.example.com/cb', 'https://planner.example.com/cb2'] });
      const res = await details(client.clientId);
      expect(res).toMatchObject({ status: 200, cacheControl: 'no-store' });
      expect(res.body).toEqual({
        status: 'success',
        data: { client_id: client.clientId, redirect_uri: 'https://planner.example.com/cb', name: 'Planner', logo: null, is_trusted: false, client_type: 'CONFIDENTIAL' },
      });
      expect(JSON.stringify(res.body)).not.toContain(client.secret!);

      const mobile = await server.client(owner, { kind: 'public', name: 'Planner Mobile' });
      expect((await details(mobile.clientId)).body.data).toMatchObject({ client_id: mobile.clientId, client_type: 'PUBLIC' });
    });

    it('is the same 404 for an unknown id and for a client awaiting review, rejected or suspended', async () => {
      const owner = await server.user();
      const ids = ['no-such-client', ...(await Promise.all((['pending', 'rejected', 'suspended'] as const).map(async (state) => (await server.client(owner, { state })).clientId)))];
      for (const id of ids) {
        expect(await details(id), id).toEqual({ status: 404, cacheControl: 'no-store', body: { status: 'error', timestamp: expect.any(String), path: expect.any(String), error: { code: 'not_found', message: 'no approved client has this client_id' } } });
      }
    });
  });
});

// RFC 8414 authorization server metadata at /.well-known/oauth-authorization-server: what
// the document says, and that two strict client libraries (oauth4webapi, openid-client v6)
// accept it for discovery. The document does not depend on the storage backend, so this
// runs on SQLite only.
import * as oauth from 'oauth4webapi';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scopeRegistry } from '../../src/oauth/scopes.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const WELL_KNOWN = '/.well-known/oauth-authorization-server';

describe('authorization server metadata (RFC 8414)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite');
  });
  afterAll(async () => server?.close());

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

// RFC 9728 protected resource metadata at /.well-known/oauth-protected-resource/v2 and /mcp
// (docs/rules.md#protected-resource-metadata): what each document says. The document does not
// depend on the storage backend, so this runs on SQLite only. Resource indicators (RFC 8707,
// docs/rules.md#resource-indicators) are decided by the core and tested in process
// (test/oauth/grants/, token-endpoint.test.ts, authorize-decisions.test.ts, bearer.test.ts,
// introspection.test.ts); `resource` as a form and a JSON body reads it in
// test/http/token-endpoint.test.ts; the 401s that point a client at these documents in
// test/platform/me.test.ts, platform-access.test.ts and mcp/mcp-server.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';

describe('protected resource metadata (RFC 9728)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite');
  });
  afterAll(async () => server?.close());

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

// RFC 8707 resource indicators and RFC 9728 protected resource metadata, on every backend
// (docs/rules.md#resource-indicators, docs/rules.md#protected-resource-metadata): `resource` on the authorization and token requests, invalid_target,
// narrowing only, tokens bound to their resources, `aud` on introspection, and the 401s
// that point a client at the resource's metadata. Clients that send no `resource` get
// what they always got: the suites of test/http/token-endpoint cover them unchanged.
import { describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.ts';
import type { TestClient } from '../helpers/server.ts';
import { expectOAuthError, useTokenEndpoint } from './token-endpoint/setup.ts';

const INTROSPECT = '/v2/auth/oauth2/introspect';

/** Every hidden field of the consent form, repeated ones included, in order. */
/** The hidden fields of the consent form (the page's other form, "Not you?", carries its own). */
function hiddenPairs(page: string): [string, string][] {
  const start = page.indexOf('<form method="post" action="/auth/oauth2/authorize">');
  const body = page.slice(start, page.indexOf('</form>', start));
  return [...body.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!.replace(/&amp;/g, '&')]);
}

describe.each(backends)('resource indicators (RFC 8707) on $name', ({ name, available }) => {
  const t = useTokenEndpoint(name, available);
  const v2 = () => `${t.server.url}/v2`;
  const mcp = () => `${t.server.url}/mcp`;

  /** The front channel with the query as given (resource may repeat): the redirect back. */
  async function authorizeWith(client: TestClient, resources: string[], extra: Record<string, string> = {}): Promise<URL> {
    const query = new URLSearchParams({ client_id: client.clientId, redirect_uri: client.redirectUri, response_type: 'code', scope: 'PROFILE_READ', state: 's1', ...extra });
    for (const r of resources) query.append('resource', r);
    const page = await t.userBrowser.get(`/auth/oauth2/authorize?${query}`);
    if (page.status === 303) return new URL(page.location!);
    expect(page.status).toBe(200);
    const form = new URLSearchParams([...hiddenPairs(page.body), ['decision', 'allow']]);
    const res = await fetch(`${t.server.url}/auth/oauth2/authorize`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: t.userBrowser.cookieHeader(), 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    });
    expect(res.status).toBe(303);
    return new URL(res.headers.get('location')!);
  }

  async function codeFor(client: TestClient, resources: string[]): Promise<string> {
    const back = await authorizeWith(client, resources);
    const code = back.searchParams.get('code');
    if (code === null) throw new Error(`no code in ${back}`);
    return code;
  }

  /** A token request body with `resource` repeated (a form cannot say it through a Record). */
  async function tokenWith(fields: Record<string, string>, resources: string[]) {
    const body = new URLSearchParams(fields);
    for (const r of resources) body.append('resource', r);
    return t.server.post('/v2/auth/oauth2/token', body.toString(), { 'content-type': 'application/x-www-form-urlencoded' });
  }

  async function exchange(client: TestClient, code: string, resources: string[]) {
    return tokenWith({ grant_type: 'authorization_code', code, redirect_uri: client.redirectUri, client_id: client.clientId, client_secret: client.secret! }, resources);
  }

  async function audienceOf(client: TestClient, token: string): Promise<unknown> {
    const res = await t.server.post(INTROSPECT, new URLSearchParams({ token, client_id: client.clientId, client_secret: client.secret! }).toString(), {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(res.status).toBe(200);
    expect(res.body?.active).toBe(true);
    return res.body!.aud;
  }

  it.skipIf(!available)('RFC 8707 §2: a resource that is not one of the server\'s is invalid_target, redirected with state and iss', async () => {
    const client = await t.approvedClient();
    const back = await authorizeWith(client, ['https://elsewhere.example.com/api']);
    expect(back.searchParams.get('error')).toBe('invalid_target');
    expect(back.searchParams.get('error_description')).toContain('https://elsewhere.example.com/api');
    expect(back.searchParams.get('state')).toBe('s1');
    expect(back.searchParams.get('iss')).toBe(t.server.url);
  });

  it.skipIf(!available)('RFC 8707 §2: a token request naming an unknown resource is 400 invalid_target', async () => {
    const client = await t.approvedClient();
    const res = await exchange(client, await codeFor(client, []), ['https://elsewhere.example.com/api']);
    expectOAuthError(res, 400, 'invalid_target', 'https://elsewhere.example.com/api');
  });

  it.skipIf(!available)('docs/rules.md#resource-indicators: without resource a token is bound to {BASE_URL}/v2 only, as before, and introspection says so in aud', async () => {
    const client = await t.approvedClient();
    const res = await exchange(client, await codeFor(client, []), []);
    expect(res.status).toBe(200);
    const access = res.body!.access_token as string;
    expect((await t.me(access)).status).toBe(200);
    expect(await audienceOf(client, access)).toEqual([v2()]);
    expect(await audienceOf(client, res.body!.refresh_token as string)).toEqual([v2()]);
  });

  it.skipIf(!available)('RFC 8707 §2: a token bound to /mcp is 401 invalid_token at /v2, naming the resource metadata (RFC 9728 §5.1)', async () => {
    const client = await t.approvedClient();
    const res = await exchange(client, await codeFor(client, [mcp()]), [mcp()]);
    expect(res.status).toBe(200);
    const access = res.body!.access_token as string;
    expect(await audienceOf(client, access)).toEqual([mcp()]);
    const me = await t.me(access);
    expect(me.status).toBe(401);
    expect(me.body).toEqual({ status: 'error', timestamp: expect.any(String), path: expect.any(String), error: { code: 'invalid_token', message: expect.stringContaining(`not for ${v2()}`) } });
    expect(me.headers.get('www-authenticate')).toBe(
      `Bearer realm="gatehouse", error="invalid_token", resource_metadata="${t.server.url}/.well-known/oauth-protected-resource/v2"`,
    );
  });

  it.skipIf(!available)('RFC 8707 §2.2: a token request may not widen the authorization\'s resources (invalid_target), and the code is spent', async () => {
    const client = await t.approvedClient();
    const code = await codeFor(client, [v2()]);
    expectOAuthError(await exchange(client, code, [mcp()]), 400, 'invalid_target', 'was not part of this authorization');
    expectOAuthError(await exchange(client, code, []), 400, 'invalid_grant');
  });

  it.skipIf(!available)('RFC 8707 §2.2: resources repeated on authorization; the token request narrows to one, the refresh token keeps both', async () => {
    const client = await t.approvedClient();
    const res = await exchange(client, await codeFor(client, [mcp(), v2()]), [v2()]);
    expect(res.status).toBe(200);
    expect(await audienceOf(client, res.body!.access_token as string)).toEqual([v2()]);
    expect(await audienceOf(client, res.body!.refresh_token as string)).toEqual([v2(), mcp()]);
    expect((await t.me(res.body!.access_token as string)).status).toBe(200);

    // A refresh may narrow to the other resource of the grant…
    const toMcp = await tokenWith({ grant_type: 'refresh_token', refresh_token: res.body!.refresh_token as string, client_id: client.clientId, client_secret: client.secret! }, [mcp()]);
    expect(toMcp.status).toBe(200);
    expect(await audienceOf(client, toMcp.body!.access_token as string)).toEqual([mcp()]);
    expect((await t.me(toMcp.body!.access_token as string)).status).toBe(401);
    // …and without resource gets the whole grant again.
    const whole = await tokenWith({ grant_type: 'refresh_token', refresh_token: toMcp.body!.refresh_token as string, client_id: client.clientId, client_secret: client.secret! }, []);
    expect(whole.status).toBe(200);
    expect(await audienceOf(client, whole.body!.access_token as string)).toEqual([v2(), mcp()]);
  });

  it.skipIf(!available)('RFC 8707 §2.2: a refresh naming a resource outside the grant is invalid_target and spends nothing', async () => {
    const client = await t.approvedClient();
    const res = await exchange(client, await codeFor(client, []), []);
    const refresh = res.body!.refresh_token as string;
    expectOAuthError(
      await tokenWith({ grant_type: 'refresh_token', refresh_token: refresh, client_id: client.clientId, client_secret: client.secret! }, [mcp()]),
      400,
      'invalid_target',
    );
    expect((await t.refresh(client, refresh)).status).toBe(200);
  });

  it.skipIf(!available)('RFC 8707 §2: resource as a JSON array in the token request', async () => {
    const client = await t.approvedClient();
    const code = await codeFor(client, [v2(), mcp()]);
    const res = await t.server.post(
      '/v2/auth/oauth2/token',
      JSON.stringify({ grant_type: 'authorization_code', code, redirect_uri: client.redirectUri, client_id: client.clientId, client_secret: client.secret, resource: [mcp()] }),
      { 'content-type': 'application/json' },
    );
    expect(res.status).toBe(200);
    expect(await audienceOf(client, res.body!.access_token as string)).toEqual([mcp()]);
  });
});

describe.each(backends)('protected resource metadata (RFC 9728) on $name', ({ name, available }) => {
  const t = useTokenEndpoint(name, available);

  it.skipIf(!available)('RFC 9728 §3: /.well-known/oauth-protected-resource/v2 and /mcp name the resource, the authorization server, scopes, header bearer and the DPoP algorithms', async () => {
    for (const path of ['/v2', '/mcp']) {
      const res = await fetch(`${t.server.url}/.well-known/oauth-protected-resource${path}`);
      expect(res.status).toBe(200);
      const doc = (await res.json()) as Record<string, unknown>;
      expect(doc).toMatchObject({
        resource: `${t.server.url}${path}`,
        authorization_servers: [t.server.url],
        bearer_methods_supported: ['header'],
        // RFC 9728 §2 (docs/rules.md#dpop): the proofs it verifies for DPoP-bound tokens.
        dpop_signing_alg_values_supported: ['ES256', 'EdDSA', 'Ed25519', 'RS256', 'PS256'],
      });
      expect(doc.scopes_supported).toContain('PROFILE_READ');
      // RFC 9728 §3.1 / RFC 8414 §3: the authorization server named is discoverable.
      const as = await fetch(`${t.server.url}/.well-known/oauth-authorization-server`);
      expect(((await as.json()) as { issuer: string }).issuer).toBe(t.server.url);
    }
  });

  it.skipIf(!available)('RFC 9728 §5.1: a 401 without a token names the resource metadata beside the realm', async () => {
    const res = await t.server.api('GET', '/v2/me');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(`Bearer realm="gatehouse", resource_metadata="${t.server.url}/.well-known/oauth-protected-resource/v2", DPoP algs="ES256 EdDSA Ed25519 RS256 PS256"`);
  });
});

// Browser-based MCP clients (the MCP Inspector, agents that run in a web page) discover,
// register, exchange codes and call /mcp from another origin, so those answers carry CORS
// headers (Fetch standard, CORS protocol): discovery, registration, token and revocation for
// any origin, /mcp for the origins it serves (docs/rules.md#mcp-server; here the Inspector's,
// listed in MCP_ALLOWED_ORIGINS; test/platform/mcp/mcp.test.ts (its Origin block) has the rest). Nothing
// that relies on cookies or serves a confidential client is opened: the pages, introspection
// and the REST API stay same-origin. On every backend, with raw requests as a browser sends
// them and with Chromium itself.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.ts';
import { chromiumAvailable, launchChromium, startCallbackApp } from '../helpers/chromium.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

/** Where the MCP Inspector's page is served from. */
const INSPECTOR = 'http://localhost:6274';

function preflight(url: string, method: string, headers: string) {
  return fetch(url, { method: 'OPTIONS', headers: { origin: INSPECTOR, 'access-control-request-method': method, 'access-control-request-headers': headers } });
}

describe.each(backends)('cross-origin requests of browser-based MCP clients on $name', ({ name, available }) => {
  let server: TestServer;
  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer(name, { DCR_POLICY: 'open', MCP_ALLOWED_ORIGINS: INSPECTOR });
  });
  afterAll(async () => server?.close());

  it.skipIf(!available)('a preflight for /mcp with a bearer token is allowed from an origin it serves: that origin, POST, the MCP headers, no credentials', async () => {
    const res = await preflight(`${server.url}/mcp`, 'POST', 'authorization, content-type, mcp-protocol-version');
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(INSPECTOR);
    expect(res.headers.get('vary')!.toLowerCase()).toContain('origin');
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
    const allowed = res.headers.get('access-control-allow-headers')!.toLowerCase().split(/\s*,\s*/);
    expect(allowed).toEqual(expect.arrayContaining(['authorization', 'content-type', 'mcp-protocol-version', 'mcp-session-id']));
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    expect(Number(res.headers.get('access-control-max-age'))).toBeGreaterThan(0);
  });

  it.skipIf(!available)('an OPTIONS request that is not a preflight (no Origin, or no method asked) is answered with the options, not a bare 400', async () => {
    const probes: Array<Record<string, string>> = [{}, { origin: INSPECTOR }, { 'access-control-request-method': 'POST' }];
    for (const headers of probes) {
      const res = await fetch(`${server.url}/mcp`, { method: 'OPTIONS', headers });
      expect(res.status, JSON.stringify(headers)).toBe(204);
      expect(res.headers.get('access-control-allow-methods'), JSON.stringify(headers)).toContain('POST');
    }
    // The same-origin paths stay closed to such a probe too.
    for (const path of ['/v2/me', '/v2/auth/oauth2/introspect', '/settings/authorized-apps']) {
      const res = await fetch(`${server.url}${path}`, { method: 'OPTIONS', headers: { origin: INSPECTOR } });
      expect(res.status, path).toBe(404);
      expect(res.headers.get('access-control-allow-origin'), path).toBeNull();
    }
  });

  it.skipIf(!available)('the 401 of /mcp can be read from another origin, WWW-Authenticate included (RFC 9728 §5.1)', async () => {
    const res = await fetch(`${server.url}/mcp`, { method: 'POST', headers: { origin: INSPECTOR, 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' });
    expect(res.status).toBe(401);
    expect(res.headers.get('access-control-allow-origin')).toBe(INSPECTOR);
    expect(res.headers.get('access-control-expose-headers')!.toLowerCase()).toContain('www-authenticate');
  });

  it.skipIf(!available)('discovery, registration, token and revocation answer other origins (RFC 9728, RFC 8414, RFC 7591, RFC 6749 §3.2, RFC 7009)', async () => {
    for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource/v2', '/.well-known/oauth-authorization-server']) {
      const res = await fetch(`${server.url}${path}`, { headers: { origin: INSPECTOR } });
      expect(res.status, path).toBe(200);
      expect(res.headers.get('access-control-allow-origin'), path).toBe('*');
    }
    const registration = await fetch(`${server.url}/v2/auth/oauth2/register`, {
      method: 'POST',
      headers: { origin: INSPECTOR, 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'Inspector', redirect_uris: ['http://localhost:6274/oauth/callback'], token_endpoint_auth_method: 'none' }),
    });
    expect(registration.status).toBe(201);
    expect(registration.headers.get('access-control-allow-origin')).toBe('*');
    for (const path of ['/v2/auth/oauth2/token', '/v2/auth/oauth2/revoke']) {
      expect((await preflight(`${server.url}${path}`, 'POST', 'content-type')).headers.get('access-control-allow-origin'), path).toBe('*');
      const res = await fetch(`${server.url}${path}`, { method: 'POST', headers: { origin: INSPECTOR, 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=authorization_code&code=gac_nope&token=x' });
      expect(res.status, path).toBeLessThan(500);
      expect(res.headers.get('access-control-allow-origin'), path).toBe('*');
    }
  });

  it.skipIf(!available)('a NUL character refused before any route runs is still readable from another origin on registration and /mcp; the API and pages stay same-origin', async () => {
    const clientsBefore = (await server.services.stores.clients.list({})).length;
    const registration = await fetch(`${server.url}/v2/auth/oauth2/register?x=%00`, {
      method: 'POST',
      headers: { origin: INSPECTOR, 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'Inspector', redirect_uris: ['http://localhost:6274/oauth/callback'], token_endpoint_auth_method: 'none' }),
    });
    expect(registration.status).toBe(400);
    expect(registration.headers.get('access-control-allow-origin')).toBe('*');
    expect(await registration.json()).toMatchObject({ error: 'invalid_request', error_description: expect.stringContaining('NUL character') });
    expect((await server.services.stores.clients.list({})).length).toBe(clientsBefore);

    const mcp = await fetch(`${server.url}/mcp?x=%00`, { method: 'POST', headers: { origin: INSPECTOR, 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' });
    expect(mcp.status).toBe(400);
    expect(mcp.headers.get('access-control-allow-origin')).toBe(INSPECTOR);

    for (const path of ['/v2/me?x=%00', '/login?x=%00']) {
      const res = await fetch(`${server.url}${path}`, { headers: { origin: INSPECTOR } });
      expect(res.status, path).toBe(400);
      expect(res.headers.get('access-control-allow-origin'), path).toBeNull();
    }
  });

  it.skipIf(!available)('pages, introspection and the REST API stay same-origin: no CORS headers, and their preflights are not answered', async () => {
    for (const [method, path] of [['GET', '/login'], ['POST', '/v2/auth/oauth2/introspect'], ['GET', '/v2/me'], ['GET', '/settings/authorized-apps']] as const) {
      const res = await fetch(`${server.url}${path}`, { method, headers: { origin: INSPECTOR }, redirect: 'manual' });
      expect(res.headers.get('access-control-allow-origin'), path).toBeNull();
      const pre = await preflight(`${server.url}${path}`, method, 'authorization');
      expect(pre.headers.get('access-control-allow-origin'), path).toBeNull();
      expect(pre.status, path).toBe(404);
    }
  });
});

describe.each(backends)('an MCP client running in a web page (Chromium) on $name', ({ name, available }) => {
  const enabled = available && chromiumAvailable;
  let server: TestServer;
  let browser: Browser;
  let page: Awaited<ReturnType<typeof startCallbackApp>>;
  /** A page of an origin no application registered. */
  let stranger: Awaited<ReturnType<typeof startCallbackApp>>;
  beforeAll(async () => {
    if (!enabled) return;
    server = await startTestServer(name);
    browser = await launchChromium();
    page = await startCallbackApp();
    stranger = await startCallbackApp();
    // The page is the application's: its redirect URI is on the page's origin.
    await server.client(await server.user(), { kind: 'public', redirectUris: [page.url] });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await page?.close();
    await stranger?.close();
    await server?.close();
  });

  /** What a page at `url` reads of the resource metadata and of /mcp, or that the browser blocked /mcp. */
  async function readFrom(url: string) {
    const tab = await browser.newPage();
    await tab.goto(url);
    const seen = await tab.evaluate(async (base) => {
      const metadata = (await (await fetch(`${base}/.well-known/oauth-protected-resource/mcp`)).json()) as { resource: string };
      try {
        const mcp = await fetch(`${base}/mcp`, { method: 'POST', headers: { authorization: 'Bearer gat_expired', 'content-type': 'application/json', 'mcp-protocol-version': '2025-11-25' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' });
        return { resource: metadata.resource, status: mcp.status, challenge: mcp.headers.get('www-authenticate') };
      } catch {
        return { resource: metadata.resource, status: 'blocked', challenge: null };
      }
    }, server.url);
    await tab.close();
    return seen;
  }

  it.skipIf(!enabled)('reads the resource metadata and the 401 of /mcp from the page of an approved application, on another origin', async () => {
    const seen = await readFrom(page.url);
    expect(seen.resource).toBe(`${server.url}/mcp`);
    expect(seen.status).toBe(401);
    expect(seen.challenge).toContain(`resource_metadata="${server.url}/.well-known/oauth-protected-resource/mcp"`);
  });

  it.skipIf(!enabled)('docs/rules.md#mcp-server: a page of an origin /mcp does not serve reads the metadata, but the browser stops its call to /mcp', async () => {
    const seen = await readFrom(stranger.url);
    expect(seen.resource).toBe(`${server.url}/mcp`);
    expect(seen.status).toBe('blocked');
  });
});

// docs/rules.md#mcp-server: /mcp validates Origin (MCP Streamable HTTP, "Security Warning":
// a present, invalid Origin is 403, against DNS rebinding). Served: requests without Origin
// (agents outside a browser), the service's own origins (BASE_URL, APP_URL), the origins of
// approved clients' redirect URIs (the same decision opens CORS for /mcp, http/cross-origin.ts)
// and MCP_ALLOWED_ORIGINS. Anything else is refused before the token or the body is read.
// Through real HTTP on both databases.
import { describe, expect, it } from 'vitest';
import { randomId } from '../../../src/oauth/token-format.ts';
import { backends } from '../../helpers/backends.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { fixtures, futureStart, mint, type World, useWorld } from '../fixtures.ts';

const PAGES = 'https://pages.example.com';
const LISTED = ['https://agent.example.net', 'http://localhost:6274'];
/** The redirect URI of the world's client (TestServer.client's default). */
const CLIENT_ORIGIN = 'https://app.example.com';

const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

describe.each(backends)('Origin at /mcp on $name', ({ name, available }) => {
  let server: TestServer;
  let w: World;
  let f: ReturnType<typeof fixtures>;
  useWorld(name, available, (started) => ({ server, w, f } = started), { APP_URL: PAGES, MCP_ALLOWED_ORIGINS: LISTED.join(', '), LOG_LEVEL: 'warn' });

  const mcpToken = () => mint(server, w, w.owner, ['PROFILE_READ', 'BOOKING_READ'], [`${server.url}/mcp`]);
  const post = async (origin: string | undefined, body: string, token?: string, target = server) => {
    const res = await fetch(`${target.url}/mcp`, {
      method: 'POST',
      headers: { ...MCP_HEADERS, ...(origin === undefined ? {} : { origin }), ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) },
      body,
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, text, body: text === '' ? undefined : (JSON.parse(text) as Record<string, any>) };
  };
  const toolNames = (answer: { body?: Record<string, any> }) => (answer.body?.result?.tools as Array<{ name: string }> | undefined)?.map((t) => t.name);

  function expectRefused(answer: { status: number; headers: Headers; body?: Record<string, any> }, what: string): void {
    expect(answer.status, what).toBe(403);
    expect(answer.headers.get('content-type'), what).toMatch(/^application\/json/);
    expect(answer.body, what).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32000, message: expect.stringMatching(/^this Origin may not call \/mcp/) } });
    expect(answer.headers.get('www-authenticate'), what).toBeNull();
    expect(answer.headers.get('access-control-allow-origin'), what).toBeNull();
  }

  it.skipIf(!available)('refuses a foreign Origin with 403 and a JSON-RPC error before anything is read or run: no token check, no body, no tool', async () => {
    const token = await mcpToken();
    const et = await f.eventType({ userId: w.owner.id });
    const book = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'create_booking', arguments: { eventTypeId: et.id, start: new Date(futureStart(server)).toISOString(), attendee: { name: 'Eve', email: 'eve@example.com', timeZone: 'UTC' } } } };
    // The attack: a page of another origin (or one rebound to this server's address) drives /mcp.
    expectRefused(await post('https://evil.example', JSON.stringify(book), token), 'a tool call');
    const booked = await server.services.stores.bookings.page({ userId: w.owner.id }, {}, 100, 0);
    expect(booked.bookings.filter((b) => b.eventTypeId === et.id)).toEqual([]);
    // Neither the token (no 401) nor the body (no 400, no 413) was read.
    expectRefused(await post('https://evil.example', JSON.stringify(list)), 'no token');
    expectRefused(await post('https://evil.example', '{"jsonrpc":', token), 'a body that is not JSON');
    expectRefused(await post('https://evil.example', JSON.stringify({ ...list, padding: 'x'.repeat(300 * 1024) }), token), 'a body over the limit');
    // Look-alikes of served origins are other origins.
    for (const origin of [`${CLIENT_ORIGIN}.evil.example`, 'http://app.example.com', `${CLIENT_ORIGIN}:8443`, 'https://agent.example.net.evil.example', 'null', `${CLIENT_ORIGIN}/callback`, 'HTTPS://APP.EXAMPLE.COM']) {
      expectRefused(await post(origin, JSON.stringify(list), token), origin);
    }
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${server.url}/mcp`, { method, headers: { origin: 'https://evil.example' } });
      expect(res.status, method).toBe(403);
    }
  });

  it.skipIf(!available)('serves requests without Origin, from its own origins (BASE_URL, APP_URL), from an approved client\'s redirect origin and from MCP_ALLOWED_ORIGINS', async () => {
    const token = await mcpToken();
    for (const origin of [undefined, server.url, PAGES, CLIENT_ORIGIN, ...LISTED]) {
      const answer = await post(origin, JSON.stringify(list), token);
      expect(answer.status, String(origin)).toBe(200);
      expect(toolNames(answer), String(origin)).toContain('list_bookings');
    }
    // Without a token, a served origin gets the 401 that starts an agent's discovery.
    const discovery = await post(CLIENT_ORIGIN, JSON.stringify(list));
    expect(discovery.status).toBe(401);
    expect(discovery.headers.get('www-authenticate')).toContain('resource_metadata=');
  });

  it.skipIf(!available)('an approved client lends the origin of each redirect URI it registered, port included; a metadata-document client too; one not approved, or a held redirect URI, lends nothing', async () => {
    const token = await mcpToken();
    await server.client(w.owner, { redirectUris: ['https://calendar.example.org:8443/oauth/back', 'http://127.0.0.1:7007/cb'] });
    await server.client(w.owner, { redirectUris: ['https://pending.example.org/cb'], state: 'pending' });
    await server.client(w.owner, { redirectUris: ['https://suspended.example.org/cb'], state: 'suspended' });
    const held = await server.client(w.owner, { redirectUris: ['https://held.example.org/cb'] });
    await server.services.stores.clients.update(held.clientId, { proposedRedirectUris: ['https://proposed.example.org/cb'] });
    // A metadata-document client (docs/rules.md#client-metadata-documents): its id is its document's URL.
    const documentId = `https://agents.example.com/${randomId()}/client.json`;
    await server.services.stores.clients.insert({ id: documentId, name: 'Browser agent', description: '', homepageUrl: 'https://agents.example.com', logoUrl: null, ownerId: w.owner.id, kind: 'public', state: 'approved', redirectUris: ['https://agent-ui.example.com/callback'], scopes: ['PROFILE_READ'], createdAt: server.clock() });

    for (const origin of ['https://calendar.example.org:8443', 'http://127.0.0.1:7007', 'https://held.example.org', 'https://agent-ui.example.com']) {
      expect((await post(origin, JSON.stringify(list), token)).status, origin).toBe(200);
    }
    for (const origin of ['https://calendar.example.org', 'https://pending.example.org', 'https://suspended.example.org', 'https://proposed.example.org']) {
      expectRefused(await post(origin, JSON.stringify(list), token), origin);
    }

    // CIMD_POLICY=off stops URL clients at each use (docs/rules.md#cimd-policy): their origins too.
    const documentsOff = await startTestServer(name, { APP_URL: PAGES, BASE_URL: server.url, CIMD_POLICY: 'off', LOG_LEVEL: 'warn' }, server);
    try {
      expectRefused(await post('https://agent-ui.example.com', JSON.stringify(list), token, documentsOff), 'a metadata-document client under CIMD_POLICY=off');
      expect((await post(CLIENT_ORIGIN, JSON.stringify(list), token, documentsOff)).status).toBe(200);
    } finally {
      await documentsOff.close();
    }
  });

  it.skipIf(!available)('CORS for /mcp follows the same decision: a served origin is named in Access-Control-Allow-Origin, a foreign one gets no CORS answer', async () => {
    const preflight = (origin: string) =>
      fetch(`${server.url}/mcp`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type, mcp-protocol-version' } });
    for (const origin of [CLIENT_ORIGIN, LISTED[1]!, PAGES]) {
      const res = await preflight(origin);
      expect(res.status, origin).toBe(204);
      expect(res.headers.get('access-control-allow-origin'), origin).toBe(origin);
      expect(res.headers.get('vary')?.toLowerCase(), origin).toContain('origin');
      expect(res.headers.get('access-control-allow-credentials'), origin).toBeNull();
    }
    const foreign = await preflight('https://evil.example');
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    expect(foreign.headers.get('access-control-allow-methods')).toBeNull();
    expect(foreign.status).toBeGreaterThanOrEqual(400);
    // Discovery stays open to any origin: an agent reads it before it has registered.
    const metadata = await fetch(`${server.url}/.well-known/oauth-protected-resource/mcp`, { headers: { origin: 'https://evil.example' } });
    expect(metadata.headers.get('access-control-allow-origin')).toBe('*');
  });
});

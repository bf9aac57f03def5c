// The MCP server at /mcp (docs/rules.md#mcp-server) through real HTTP on every backend, driven by the
// SDK's own client: tools/list filtered by the token's scopes, a tool call served by the
// route's handler, a call outside the scopes refused naming the scope, and the 401s that
// send an agent to the resource metadata (RFC 9728 §5.1). Tokens must be bound to /mcp.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { backends } from '../../helpers/backends.ts';
import { useTokenEndpoint } from '../../http/token-endpoint/setup.ts';

describe.each(backends)('MCP server at /mcp on $name', ({ name, available }) => {
  const t = useTokenEndpoint(name, available);

  /** A token for `scope`, bound to /mcp (RFC 8707). */
  async function mcpToken(scope: string): Promise<string> {
    const client = await t.approvedClient({ scopes: scope.split(' ') });
    const code = await t.code(client, { scope, resource: `${t.server.url}/mcp` });
    const res = await t.server.exchange(client, code, { resource: `${t.server.url}/mcp` });
    expect(res.status).toBe(200);
    return res.body.access_token as string;
  }

  async function connect(token: string): Promise<Client> {
    const client = new Client({ name: 'gatehouse-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${t.server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    return client;
  }

  it.skipIf(!available)('docs/rules.md#mcp-server: tools/list shows only the tools the token\'s scopes allow; a tool call answers with the route\'s data', async () => {
    const mcp = await connect(await mcpToken('PROFILE_READ'));
    const { tools } = await mcp.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toContain('get_profile');
    expect(names).toContain('create_booking'); // public: needs no scope
    expect(names).not.toContain('list_bookings');
    expect(names).not.toContain('list_team_event_types');
    const result = await mcp.callTool({ name: 'get_profile', arguments: {} });
    expect(result.isError).toBeFalsy();
    const profile = JSON.parse((result.content as Array<{ text: string }>)[0]!.text) as { email: string };
    expect(profile.email).toBe(t.user.email);
    await mcp.close();
  });

  it.skipIf(!available)('docs/rules.md#mcp-server: a call outside the token\'s scopes is an MCP error naming the missing scope', async () => {
    const mcp = await connect(await mcpToken('PROFILE_READ'));
    await expect(mcp.callTool({ name: 'list_bookings', arguments: {} })).rejects.toThrow(/BOOKING_READ/);
    await mcp.close();
  });

  it.skipIf(!available)('docs/rules.md#mcp-server: a team tool follows its route\'s membership rule', async () => {
    const mcp = await connect(await mcpToken('TEAM_EVENT_TYPE_READ'));
    expect((await mcp.listTools()).tools.map((tool) => tool.name)).toContain('list_team_event_types');
    await expect(mcp.callTool({ name: 'list_team_event_types', arguments: { teamId: 'no-such-team' } })).rejects.toThrow(/team/i);
    await mcp.close();
  });

  it.skipIf(!available)('docs/rules.md#mcp-server: the OpenAPI document names the MCP tool of each operation that has one', async () => {
    const doc = (await (await fetch(`${t.server.url}/v2/openapi.json`)).json()) as { paths: Record<string, Record<string, Record<string, unknown>>> };
    expect(doc.paths['/v2/me']!.get!['x-mcp-tool']).toBe('get_profile');
    expect(doc.paths['/v2/me']!.patch!['x-mcp-tool']).toBeUndefined();
  });

  it.skipIf(!available)('RFC 9728 §5.1: without a token /mcp is 401 naming its resource metadata and the scopes to ask for (RFC 6750 §3); a token bound to /v2 is refused (RFC 8707)', async () => {
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } };
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const none = await fetch(`${t.server.url}/mcp`, { method: 'POST', headers, body: JSON.stringify(init) });
    expect(none.status).toBe(401);
    // The MCP authorization specification's scope selection: the hint, the same scopes the
    // resource metadata lists, is what an agent asks for.
    const metadata = (await (await fetch(`${t.server.url}/.well-known/oauth-protected-resource/mcp`)).json()) as { scopes_supported: string[] };
    expect(metadata.scopes_supported.length).toBeGreaterThan(0);
    expect(none.headers.get('www-authenticate')).toBe(`Bearer realm="gatehouse", resource_metadata="${t.server.url}/.well-known/oauth-protected-resource/mcp", scope="${metadata.scopes_supported.join(' ')}", DPoP algs="ES256 EdDSA Ed25519 RS256 PS256"`);
    const { access } = await t.issued();
    const v2Token = await fetch(`${t.server.url}/mcp`, { method: 'POST', headers: { ...headers, authorization: `Bearer ${access}` }, body: JSON.stringify(init) });
    expect(v2Token.status).toBe(401);
    expect(v2Token.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  it.skipIf(!available)('a body that is not JSON, or holds a NUL character, is a 400 JSON-RPC error (JSON-RPC 2.0 §5), not an HTML page', async () => {
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${await mcpToken('PROFILE_READ')}` };
    const cases: Array<[string, RegExp]> = [
      ['{"jsonrpc":"2.0","id":1,', /JSON/],
      [JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_profile', arguments: { note: 'a\u0000b' } } }), /NUL character/],
    ];
    for (const [body, problem] of cases) {
      const res = await fetch(`${t.server.url}/mcp`, { method: 'POST', headers, body });
      expect(res.status, body).toBe(400);
      expect(res.headers.get('content-type'), body).toMatch(/^application\/json/);
      const answer = (await res.json()) as { jsonrpc: string; id: null; error: { code: number; message: string } };
      expect(answer, body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
      expect(answer.error.message, body).toMatch(problem);
    }
  });
  it.skipIf(!available)('SECURITY.md: /mcp refuses a repeated JSON key as the OAuth endpoints do, as a -32700 JSON-RPC error naming the key; nothing runs', async () => {
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${await mcpToken('PROFILE_READ BOOKING_READ')}` };
    // The attack: JSON.parse keeps the last "name", so the call the client checked would not be the one run.
    const cases: Array<[string, string]> = [
      ['{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_profile","arguments":{},"name":"list_bookings"}}', 'name'],
      ['{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"list_bookings","arguments":{"status":"upcoming","st\\u0061tus":"past"}}}', 'status'],
      ['{"jsonrpc":"2.0","id":3,"method":"tools/list","method":"tools/call","params":{"name":"get_profile"}}', 'method'],
    ];
    for (const [body, key] of cases) {
      const res = await fetch(`${t.server.url}/mcp`, { method: 'POST', headers, body });
      expect(res.status, body).toBe(400);
      expect(res.headers.get('content-type'), body).toMatch(/^application\/json/);
      expect(await res.json(), body).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: `${key} was sent more than once` } });
      // The OAuth endpoints refuse the same body in the same words (RFC 6749 §3.1).
      const token = await fetch(`${t.server.url}/v2/auth/oauth2/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect(token.status, body).toBe(400);
      expect(await token.json(), body).toMatchObject({ error: 'invalid_request', error_description: `${key} was sent more than once` });
    }
  });

  it.skipIf(!available)('SECURITY.md: a JSON-RPC batch is answered with one -32600 JSON-RPC error saying batches are not supported; nothing runs', async () => {
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${await mcpToken('PROFILE_READ')}` };
    const call = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'get_profile', arguments: {} } });
    for (const batch of [[call(1), call(2)], [call(1)], []]) {
      const res = await fetch(`${t.server.url}/mcp`, { method: 'POST', headers, body: JSON.stringify(batch) });
      expect(res.status, JSON.stringify(batch)).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      const answer = (await res.json()) as { jsonrpc: string; id: null; error: { code: number; message: string } };
      expect(answer).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
      expect(answer.error.message).toMatch(/^JSON-RPC batches are not supported/);
    }
  });

  it.skipIf(!available)('JSON-RPC 2.0 §5.1: a tools/call whose name or arguments have the wrong shape is -32602 invalid params, naming the parameter', async () => {
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${await mcpToken('PROFILE_READ')}` };
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ name: 'get_profile', arguments: null }, /^params\.arguments must be an object/],
      [{ name: 'get_profile', arguments: 'me' }, /^params\.arguments must be an object/],
      [{ name: null, arguments: {} }, /^params\.name must be the name of a tool/],
      [{ arguments: {} }, /^params\.name must be the name of a tool/],
      // The MCP schema's example: a tool the server does not have is invalid params.
      [{ name: 'book_a_flight', arguments: {} }, /no tool is named book_a_flight/],
      [{ name: 'get_profile', arguments: { unexpected: 1 } }, /invalid arguments for get_profile/],
    ];
    for (const [params, problem] of cases) {
      const res = await fetch(`${t.server.url}/mcp`, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params }) });
      const answer = (await res.json()) as { jsonrpc: string; id: number; error: { code: number; message: string } };
      expect(answer, JSON.stringify(params)).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32602 } });
      expect(answer.error.message, JSON.stringify(params)).toMatch(problem);
    }
  });
});

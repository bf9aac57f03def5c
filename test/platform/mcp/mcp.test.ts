// The MCP server at /mcp (docs/rules.md#mcp-server) through real HTTP on both databases, one
// database per backend for every block below: the server and its SDK client, the booking and
// team tools, and Origin. The blocks about Origin and statement counts run servers of their
// own settings over that database; the others share one server.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../../helpers/backends.ts';
import { generateToken, hashToken, randomId } from '../../../src/oauth/token-format.ts';
import { buildWorld, fixtures, futureStart, mint, useServer, useWorld, type SharedServer, type World } from '../fixtures.ts';
import { startTestServer, type TestClient, type TestServer, type TestUser } from '../../helpers/server.ts';
import type { Browser } from '../../helpers/browser.ts';
import { startCountingServer, type StatementCounter } from '../../helpers/counting-server.ts';

/**
 * A developer who owns clients and a user, signed in, who authorizes them through the real
 * front channel (consent remembered after the first Allow), on the suite's server: what
 * test/http/token-endpoint/setup.ts's useTokenEndpoint gives on a server of its own.
 */
function useAuthorizingUser(shared: SharedServer, available: boolean) {
  const t = {} as {
    server: TestServer;
    dev: TestUser;
    user: TestUser;
    userBrowser: Browser;
    code(client: TestClient, extra?: Record<string, string>): Promise<string>;
    approvedClient(options?: Parameters<TestServer['client']>[1]): Promise<TestClient>;
    issued(extra?: Record<string, string>): Promise<{ client: TestClient; access: string }>;
  };
  beforeAll(async () => {
    if (!available) return;
    t.server = shared();
    t.dev = await t.server.user();
    t.user = await t.server.user({ name: 'Ada' });
    t.userBrowser = t.server.browser();
    await t.userBrowser.login(t.user.email, t.user.password);
  });
  t.code = async (client, extra = {}) => {
    const back = await t.server.authorize(t.userBrowser, { client_id: client.clientId, redirect_uri: client.redirectUri, response_type: 'code', scope: 'PROFILE_READ', state: 'xyz', ...extra });
    const value = back.searchParams.get('code');
    if (!value) throw new Error(`no code in ${back}`);
    return value;
  };
  t.approvedClient = async (options = {}) => t.server.client(t.dev, options);
  t.issued = async (extra = {}) => {
    const client = await t.approvedClient();
    const res = await t.server.exchange(client, await t.code(client, extra));
    expect(res.status).toBe(200);
    return { client, access: res.body.access_token as string };
  };
  return t;
}

describe.each(backends)('MCP at /mcp on $name', ({ name, available }) => {
  const shared = useServer(name, available, { LOG_LEVEL: 'warn' });

  // The MCP server at /mcp (docs/rules.md#mcp-server) through real HTTP on every backend, driven by the
  // SDK's own client: tools/list filtered by the token's scopes, a tool call served by the
  // route's handler, a call outside the scopes refused naming the scope, and the 401s that
  // send an agent to the resource metadata (RFC 9728 §5.1). Tokens must be bound to /mcp.
  describe('MCP server at /mcp', () => {
    const t = useAuthorizingUser(shared, available);

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

  // MCP write tools (docs/rules.md#mcp-server) through real HTTP on every backend: an agent books, then
  // cancels without the booker's manageToken through its BOOKING_WRITE scope — the same
  // service code and the same rules as POST /v2/bookings and /v2/bookings/:uid/cancel
  // (docs/rules.md#public-booking), with the token bound to /mcp.
  describe('MCP booking tools', () => {
    const attendee = { name: 'Ann Attendee', email: 'ann@example.com', timeZone: 'Europe/Berlin' };

    let server: TestServer;
    let w: World;
    useWorld(shared, available, (started) => ({ server, w } = started));

    /** An access token as the token endpoint stores one for resource={BASE_URL}/mcp. */
    async function mcpToken(userId: string, scopes: string[]): Promise<string> {
      const store = server.oauth;
      const now = server.clock();
      const grantId = randomId();
      const token = generateToken('accessToken');
      await store.createGrant({ id: grantId, userId, clientId: w.client.clientId, scopes, createdAt: now, revokedAt: null });
      await store.createAccessToken({ hash: hashToken(token), grantId, codeHash: null, clientId: w.client.clientId, userId, scopes, resources: [`${server.url}/mcp`], createdAt: now, expiresAt: now + 3600_000, revokedAt: null });
      return token;
    }

    const data = (result: unknown) => JSON.parse(((result as { content: Array<{ text: string }> }).content)[0]!.text) as Record<string, unknown>;

    it.skipIf(!available)('create_booking, then cancel_booking through BOOKING_WRITE without a manageToken; list_bookings shows it cancelled', async () => {
      const et = await fixtures(server).eventType({ userId: w.owner.id });
      const agent = new Client({ name: 'booking-agent', version: '1.0.0' });
      const token = await mcpToken(w.owner.id, ['BOOKING_READ', 'BOOKING_WRITE']);
      await agent.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
      const created = await agent.callTool({ name: 'create_booking', arguments: { eventTypeId: et.id, start: new Date(futureStart(server)).toISOString(), attendee } });
      expect(created.isError, JSON.stringify(created.content)).toBeFalsy();
      const uid = data(created).uid as string;
      expect(data(created).manageToken).toEqual(expect.any(String));

      const cancelled = await agent.callTool({ name: 'cancel_booking', arguments: { bookingUid: uid, cancellationReason: 'agent cancelled' } });
      expect(cancelled.isError, JSON.stringify(cancelled.content)).toBeFalsy();
      expect(data(cancelled).status).toBe('cancelled');
      const row = (await server.services.stores.bookings.find(uid))!;
      expect(row.status).toBe('cancelled');
      await agent.close();
    });

    it.skipIf(!available)('issue 37 item 5: list_free_slots answers what GET /v2/slots answers, with no scope of its own (as the route); a start it offers books, and is then offered no more; create_booking refuses a start it does not offer', async () => {
      const et = await fixtures(server).eventType({ userId: w.owner.id });
      const agent = new Client({ name: 'booking-agent', version: '1.0.0' });
      await agent.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${await mcpToken(w.owner.id, ['BOOKING_WRITE'])}` } } }));
      expect((await agent.listTools()).tools.map((t) => t.name)).toContain('list_free_slots');
      const day = (offsetDays: number) => new Date(server.clock() + offsetDays * 86_400_000).toISOString().slice(0, 10);
      const period = { eventTypeId: et.id, start: day(1), end: day(8), timeZone: 'UTC' };
      const starts = async () => Object.values(data(await agent.callTool({ name: 'list_free_slots', arguments: period }))).flat().map((s) => (s as { start: string }).start);
      const offered = await starts();
      const route = await server.api('GET', `/v2/slots?${new URLSearchParams({ ...period, eventTypeId: String(et.id) })}`, undefined, undefined, { 'cal-api-version': '2024-09-04' });
      expect(route.status).toBe(200);
      expect(offered).toEqual(Object.values(route.body.data as Record<string, Array<{ start: string }>>).flat().map((s) => s.start));
      expect(offered.length).toBeGreaterThan(0);

      const booked = await agent.callTool({ name: 'create_booking', arguments: { eventTypeId: et.id, start: offered[0]!, attendee } });
      expect(booked.isError, JSON.stringify(booked.content)).toBeFalsy();
      expect(await starts()).not.toContain(offered[0]);
      // docs/rules.md#booking-availability: a start it does not offer is the tool's failure saying why.
      const again = await agent.callTool({ name: 'create_booking', arguments: { eventTypeId: et.id, start: offered[0]!, attendee } });
      expect(again).toMatchObject({ isError: true, content: [{ type: 'text', text: 'start: the host is not available at that time' }] });
      const between = await agent.callTool({ name: 'create_booking', arguments: { eventTypeId: et.id, start: new Date(Date.parse(offered[1]!) + 10 * 60_000).toISOString(), attendee } });
      expect(between).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringMatching(/^start: is not a slot/) }] });
      const refused = await agent.callTool({ name: 'list_free_slots', arguments: { eventTypeId: et.id, start: day(8), end: day(1) } });
      expect(refused.isError).toBe(true);
      await agent.close();
    });

    it.skipIf(!available)("create_booking answers the event type's booking fields as the route does (docs/integrating.md#booking-fields): a missing answer is the tool's failure naming it", async () => {
      const size = { type: 'radio', slug: 'size', label: 'Size', required: true, options: ['S', 'M'], hidden: false, isDefault: false };
      const et = await fixtures(server).eventType({ userId: w.owner.id }, { bookingFields: [size] });
      const agent = new Client({ name: 'booking-agent', version: '1.0.0' });
      await agent.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${await mcpToken(w.owner.id, ['BOOKING_WRITE'])}` } } }));
      const start = () => new Date(futureStart(server)).toISOString();
      const unanswered = await agent.callTool({ name: 'create_booking', arguments: { eventTypeId: et.id, start: start(), attendee } });
      expect(unanswered).toMatchObject({ isError: true, content: [{ type: 'text', text: 'bookingFieldsResponses.size: is required by this event type ("Size")' }] });
      const answered = await agent.callTool({ name: 'create_booking', arguments: { eventTypeId: et.id, start: start(), attendee, bookingFieldsResponses: { size: 'M' } } });
      expect(answered.isError, JSON.stringify(answered.content)).toBeFalsy();
      expect(data(answered).bookingFieldsResponses).toMatchObject({ size: 'M', name: attendee.name });
      expect((await server.services.stores.bookings.find(data(answered).uid as string))!.responses).toEqual({ size: 'M' });
      await agent.close();
    });

    it.skipIf(!available)("reschedule_booking keeps the event type's minimum notice, as the route does", async () => {
      const et = await fixtures(server).eventType({ userId: w.owner.id }, { minimumBookingNotice: 1440 });
      const agent = new Client({ name: 'booking-agent', version: '1.0.0' });
      await agent.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${await mcpToken(w.owner.id, ['BOOKING_WRITE'])}` } } }));
      const created = await agent.callTool({ name: 'create_booking', arguments: { eventTypeId: et.id, start: new Date(futureStart(server)).toISOString(), attendee } });
      expect(created.isError, JSON.stringify(created.content)).toBeFalsy();
      const uid = data(created).uid as string;
      const soon = await agent.callTool({ name: 'reschedule_booking', arguments: { bookingUid: uid, start: new Date(server.clock() + 5 * 60_000).toISOString() } });
      expect(soon).toMatchObject({ isError: true, content: [{ type: 'text', text: 'start: must be at least 1440 minutes from now' }] });
      const row = (await server.services.stores.bookings.find(uid))!;
      expect(row.status).toBe('accepted');
      const later = await agent.callTool({ name: 'reschedule_booking', arguments: { bookingUid: uid, start: new Date(futureStart(server)).toISOString() } });
      expect(later.isError, JSON.stringify(later.content)).toBeFalsy();
      expect(data(later)).toMatchObject({ rescheduledFromUid: uid });
      await agent.close();
    });

    it.skipIf(!available)('mark_booking_absent marks the host and the booker absent as POST …/mark-absent does; list_booking_attendees and the route show it; BOOKING_READ alone cannot mark', async () => {
      const b = await fixtures(server).booking({ hostId: w.owner.id });
      const agent = new Client({ name: 'booking-agent', version: '1.0.0' });
      await agent.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${await mcpToken(w.owner.id, ['BOOKING_READ', 'BOOKING_WRITE'])}` } } }));
      const marked = await agent.callTool({ name: 'mark_booking_absent', arguments: { bookingUid: b.uid, host: true, attendees: [{ email: 'ann@example.com', absent: true }] } });
      expect(marked.isError, JSON.stringify(marked.content)).toBeFalsy();
      expect(data(marked)).toMatchObject({ uid: b.uid, absentHost: true, attendees: [{ email: 'ann@example.com', absent: true }] });
      const listed = await agent.callTool({ name: 'list_booking_attendees', arguments: { bookingUid: b.uid } });
      expect(JSON.parse((listed.content as Array<{ text: string }>)[0]!.text)).toMatchObject([{ email: 'ann@example.com', absent: true }]);
      expect((await server.services.stores.bookings.find(b.uid))!.absentHost).toBe(true);
      await agent.close();

      const reader = new Client({ name: 'booking-agent', version: '1.0.0' });
      await reader.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${await mcpToken(w.owner.id, ['BOOKING_READ'])}` } } }));
      expect((await reader.listTools()).tools.map((t) => t.name)).not.toContain('mark_booking_absent');
      await expect(reader.callTool({ name: 'mark_booking_absent', arguments: { bookingUid: b.uid, host: false } })).rejects.toThrow(/BOOKING_WRITE/);
      expect((await server.services.stores.bookings.find(b.uid))!.absentHost).toBe(true);
      await reader.close();
    });

    it.skipIf(!available)('a bad argument is refused with the field named, and nothing is written', async () => {
      const agent = new Client({ name: 'booking-agent', version: '1.0.0' });
      await agent.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${await mcpToken(w.owner.id, ['BOOKING_READ'])}` } } }));
      await expect(agent.callTool({ name: 'create_booking', arguments: { eventTypeId: 'x', start: 'not a date' } })).rejects.toThrow(/attendee|start/);
      await agent.close();
    });
  });

  // A team tool decides access as its REST route does (docs/rules.md#mcp-server, docs/rules.md#membership-rules): against a real team,
  // an outsider and a user who only holds a pending invitation (docs/rules.md#membership-invitations: not a
  // membership) are refused with the route's own message, and a member gets the route's
  // data. A tools/call reads the token once when the tool's route needs no membership.
  describe('MCP team tools against a real team', () => {
    let server: TestServer;
    let w: World;
    const counter: StatementCounter = { n: 0 };
    const open: Client[] = [];
    beforeAll(async () => {
      if (!available) return;
      server = await startCountingServer(name, counter, shared());
      w = await buildWorld(server);
    });
    afterAll(async () => {
      await Promise.all(open.map((client) => client.close()));
      await server?.close();
    });

    /** An agent of `user` whose token holds `scopes`, bound to /mcp (RFC 8707). */
    async function agent(user: TestUser, scopes: string[]): Promise<Client> {
      const token = await mint(server, w, user, scopes, [`${server.url}/mcp`]);
      const client = new Client({ name: 'gatehouse-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
      open.push(client);
      return client;
    }

    /** What the REST route answers the same user with the same scopes. */
    async function viaRest(user: TestUser, scopes: string[]) {
      return server.api('GET', `/v2/teams/${w.team.id}/event-types`, await mint(server, w, user, scopes));
    }

    const scopes = ['TEAM_EVENT_TYPE_READ'];

    it.skipIf(!available).each([
      ['docs/rules.md#membership-rules: an outsider of the team', 'outsider'],
      ['docs/rules.md#membership-invitations: a pending invitee (an invitation is not membership)', 'invitee'],
    ] as const)('%s is refused, as the REST route refuses them (403 forbidden)', async (_who, role) => {
      const rest = await viaRest(w[role], scopes);
      expect(rest.status).toBe(403);
      expect(rest.body).toEqual({ status: 'error', timestamp: expect.any(String), path: expect.any(String), error: { code: 'forbidden', message: 'this needs membership of the team' } });
      const mcp = await agent(w[role], scopes);
      await expect(mcp.callTool({ name: 'list_team_event_types', arguments: { teamId: w.team.id } })).rejects.toThrow('this needs membership of the team');
    });

    it.skipIf(!available)('docs/rules.md#mcp-server: a member gets the route\'s data', async () => {
      const rest = await viaRest(w.member, scopes);
      expect(rest.status).toBe(200);
      const mcp = await agent(w.member, scopes);
      const result = await mcp.callTool({ name: 'list_team_event_types', arguments: { teamId: w.team.id } });
      expect(result.isError).toBeFalsy();
      expect(JSON.parse((result.content as Array<{ text: string }>)[0]!.text)).toEqual(rest.body.data);
    });

    it.skipIf(!available)('a tools/call whose route needs no membership reads the token once: the POST\'s check serves the tool', async () => {
      const mcp = await agent(w.member, ['PROFILE_READ']);
      counter.n = 0;
      expect(await server.api('GET', '/v2/me', await mint(server, w, w.member, ['PROFILE_READ']))).toMatchObject({ status: 200 });
      const rest = counter.n;
      counter.n = 0;
      const result = await mcp.callTool({ name: 'get_profile', arguments: {} });
      expect(result.isError).toBeFalsy();
      // The same statements as the REST route: its one access read and its own queries.
      expect(counter.n).toBe(rest);
    });
  });

  // docs/rules.md#mcp-server: /mcp validates Origin (MCP Streamable HTTP, "Security Warning":
  // a present, invalid Origin is 403, against DNS rebinding). Served: requests without Origin
  // (agents outside a browser), the service's own origins (BASE_URL, APP_URL), the origins of
  // approved clients' redirect URIs (the same decision opens CORS for /mcp, http/cross-origin.ts)
  // and MCP_ALLOWED_ORIGINS. Anything else is refused before the token or the body is read.
  // Through real HTTP on both databases.
  describe('Origin at /mcp', () => {
    const PAGES = 'https://pages.example.com';
    const LISTED = ['https://agent.example.net', 'http://localhost:6274'];
    /** The redirect URI of the world's client (TestServer.client's default). */
    const CLIENT_ORIGIN = 'https://app.example.com';

    const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

    let server: TestServer;
    let w: World;
    let f: ReturnType<typeof fixtures>;
    // A server of these settings over the suite's database.
    let own: TestServer | undefined;
    beforeAll(async () => {
      if (available) own = await startTestServer(name, { APP_URL: PAGES, MCP_ALLOWED_ORIGINS: LISTED.join(', '), LOG_LEVEL: 'warn' }, shared());
    });
    afterAll(async () => own?.close());
    useWorld(() => own!, available, (started) => ({ server, w, f } = started));

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
});

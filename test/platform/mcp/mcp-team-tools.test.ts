// A team tool decides access as its REST route does (docs/rules.md#mcp-server, docs/rules.md#membership-rules): against a real team,
// an outsider and a user who only holds a pending invitation (docs/rules.md#membership-invitations: not a
// membership) are refused with the route's own message, and a member gets the route's
// data. A tools/call reads the token once when the tool's route needs no membership.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../../helpers/backends.ts';
import { startCountingServer, type StatementCounter } from '../../helpers/counting-server.ts';
import type { TestServer, TestUser } from '../../helpers/server.ts';
import { buildWorld, mint, type World } from '../fixtures.ts';

describe.each(backends)('MCP team tools against a real team on $name', ({ name, available }) => {
  let server: TestServer;
  let w: World;
  const counter: StatementCounter = { n: 0 };
  const open: Client[] = [];
  beforeAll(async () => {
    if (!available) return;
    server = await startCountingServer(name, counter);
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

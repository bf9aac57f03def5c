// Issue 34 item 7b: a team created through the API left no audit event. It is now audited as
// `team.created`, by the token's user through its application, written with the team
// (docs/rules.md#audit-events); a refused creation writes none.
import { describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.ts';
import type { TestServer } from '../helpers/server.ts';
import { auditEvents } from '../helpers/stores.ts';
import { mint, useWorld, type World } from './fixtures.ts';

describe.each(backends)('team creation through the API is audited ($name)', ({ name, available }) => {
  let server: TestServer;
  let w: World;
  useWorld(name, available, (started) => ({ server, w } = started));

  it.skipIf(!available)('POST /v2/teams: team.created by the user, through the application, about the new owner', async () => {
    const res = await server.api('POST', '/v2/teams', await mint(server, w, w.member, ['TEAM_PROFILE_WRITE']), { name: 'Audited side project' });
    expect(res.status).toBe(201);
    const teamId = String(res.body.data.id);
    const events = await auditEvents(server, { userId: w.member.id, type: 'team.created' });
    expect(events.filter((e) => e.data?.teamId === teamId)).toEqual([
      { id: expect.any(Number), type: 'team.created', actorId: w.member.id, clientId: w.client.clientId, userId: w.member.id, data: { teamId, organizationId: null }, createdAt: expect.any(Number) },
    ]);
  });

  it.skipIf(!available)("POST /v2/organizations/:orgId/teams: team.created in the organization, by its admin; a refused one writes nothing", async () => {
    const token = await mint(server, w, w.orgAdmin, ['ORG_PROFILE_WRITE']);
    const res = await server.api('POST', `/v2/organizations/${w.org.id}/teams`, token, { name: 'Audited org team' });
    expect(res.status).toBe(201);
    const teamId = String(res.body.data.id);
    const events = await auditEvents(server, { userId: w.orgAdmin.id, type: 'team.created' });
    expect(events.map((e) => [e.actorId, e.clientId, e.data])).toEqual([[w.orgAdmin.id, w.client.clientId, { teamId, organizationId: w.org.id }]]);

    // A slug already taken: 409, and no event.
    const taken = await server.api('POST', `/v2/organizations/${w.org.id}/teams`, token, { name: 'Again', slug: w.team.slug });
    expect(taken.status).toBe(409);
    expect(await auditEvents(server, { userId: w.orgAdmin.id, type: 'team.created' })).toHaveLength(1);
  });
});

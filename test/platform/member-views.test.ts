// Views that Cal.com API v2 offers beside the resources' routes: a user's default schedule, the
// teams one belongs to, the teams of an organization one is in (docs/rules.md#membership-rules), and
// an organization's teams' event types and one of its memberships, through real HTTP on both databases.
import { describe, expect, it } from 'vitest';
import { addMember } from '../../src/services/teams/teams.ts';
import { backends } from '../helpers/backends.ts';
import type { TestServer } from '../helpers/server.ts';
import { fixtures, mint, quickUser, type World, useWorld } from './fixtures.ts';

describe.each(backends)("a user's own views on $name", ({ name, available }) => {
  let server: TestServer;
  let w: World;
  useWorld(name, available, (started) => ({ server, w } = started));

  it.skipIf(!available)('GET /v2/schedules/default: null until the user has a schedule, then the default one — never taken for a schedule id', async () => {
    const user = await quickUser(server);
    const token = await mint(server, w, user, ['SCHEDULE_READ', 'SCHEDULE_WRITE']);
    const before = await server.api('GET', '/v2/schedules/default', token);
    expect(before.status).toBe(200);
    expect(before.body).toEqual({ status: 'success', data: null });

    const created = await server.api('POST', '/v2/schedules', token, { name: 'Office hours', timeZone: 'Europe/Berlin' });
    expect(created.status).toBe(201);
    await server.api('POST', '/v2/schedules', token, { name: 'Evenings', timeZone: 'Europe/Berlin' });
    const after = await server.api('GET', '/v2/schedules/default', token);
    expect(after.status).toBe(200);
    expect(after.body.data).toMatchObject({ id: created.body.data.id, name: 'Office hours', isDefault: true });
  });

  it.skipIf(!available)("GET /v2/schedules/default needs SCHEDULE_READ and shows only the caller's own", async () => {
    const other = await quickUser(server);
    await fixtures(server).schedule({ userId: other.id });
    const noScope = await server.api('GET', '/v2/schedules/default', await mint(server, w, other, ['PROFILE_READ']));
    expect(noScope.status).toBe(403);
    expect(noScope.body.error.code).toBe('insufficient_scope');
    // Someone else's default is not the caller's: a user without one gets null, never another's.
    const someone = await quickUser(server);
    const theirs = await server.api('POST', '/v2/schedules', await mint(server, w, someone, ['SCHEDULE_WRITE']), { name: 'Theirs', timeZone: 'UTC' });
    expect(theirs.status).toBe(201);
    const mine = await server.api('GET', '/v2/schedules/default', await mint(server, w, other, ['SCHEDULE_READ']));
    expect(mine.body).toEqual({ status: 'success', data: null });
  });

  it.skipIf(!available)('GET /v2/teams: the teams the user is a member of, not those of others nor those only invited to', async () => {
    const owner = await server.api('GET', '/v2/teams', await mint(server, w, w.owner, ['TEAM_PROFILE_READ']));
    expect(owner.status).toBe(200);
    expect(owner.body.data.map((t: { id: string }) => t.id)).toEqual([Number(w.team.id), Number(w.loneTeam.id)]);
    const invitee = await server.api('GET', '/v2/teams', await mint(server, w, w.invitee, ['TEAM_PROFILE_READ']));
    expect(invitee.body).toEqual({ status: 'success', data: [] });
    const paged = await server.api('GET', '/v2/teams?limit=1&offset=1', await mint(server, w, w.owner, ['TEAM_PROFILE_READ']));
    expect(paged.body.data.map((t: { id: string }) => t.id)).toEqual([Number(w.loneTeam.id)]);
    // The platform's take/skip page every list the same way, and win over limit/offset.
    const platformPaged = await server.api('GET', '/v2/teams?take=1&skip=1&limit=5&offset=0', await mint(server, w, w.owner, ['TEAM_PROFILE_READ']));
    expect(platformPaged.body.data.map((t: { id: string }) => t.id)).toEqual([Number(w.loneTeam.id)]);
    const tooMany = await server.api('GET', '/v2/teams?take=1000', await mint(server, w, w.owner, ['TEAM_PROFILE_READ']));
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.message).toContain('take');
  });

  it.skipIf(!available)("GET /v2/organizations/:orgId/teams/me: a plain member sees the organization's teams they are in, and only those", async () => {
    const user = await quickUser(server);
    await addMember(server.services, { organizationId: w.org.id }, user.id, 'member');
    const token = await mint(server, w, user, ['ORG_PROFILE_READ']);
    const none = await server.api('GET', `/v2/organizations/${w.org.id}/teams/me`, token);
    expect(none.body).toEqual({ status: 'success', data: [] });

    await addMember(server.services, { teamId: w.team.id }, user.id, 'member');
    await addMember(server.services, { teamId: w.loneTeam.id }, user.id, 'member');
    const mine = await server.api('GET', `/v2/organizations/${w.org.id}/teams/me`, token);
    expect(mine.status).toBe(200);
    expect(mine.body.data.map((t: { id: string; organizationId: string }) => [t.id, t.organizationId])).toEqual([[Number(w.team.id), Number(w.org.id)]]);

    // The fixed segment is not a team id: /teams/:teamId still answers for a real one.
    const team = await server.api('GET', `/v2/organizations/${w.org.id}/teams/${w.team.id}`, await mint(server, w, w.owner, ['TEAM_PROFILE_READ']));
    expect(team.body.data.id).toBe(Number(w.team.id));
  });

  it.skipIf(!available)("GET /v2/organizations/:orgId/teams/event-types: the event types of the organization's teams, not its members' own", async () => {
    const f = fixtures(server);
    const teams = await f.eventType({ teamId: w.team.id });
    const own = await f.eventType({ userId: w.orgAdmin.id });
    const token = await mint(server, w, w.orgAdmin, ['ORG_EVENT_TYPE_READ']);
    const listed = await server.api('GET', `/v2/organizations/${w.org.id}/teams/event-types`, token);
    expect(listed.status).toBe(200);
    const ids = listed.body.data.map((e: { id: string }) => e.id);
    expect(ids).toContain(Number(teams.id));
    expect(ids).not.toContain(Number(own.id));
    const everything = await server.api('GET', `/v2/organizations/${w.org.id}/event-types`, token);
    expect(everything.body.data.map((e: { id: string }) => e.id)).toContain(Number(own.id));
  });

  it.skipIf(!available)('GET /v2/organizations/:orgId/memberships/:membershipId: one membership of the organization; one of another organization is 404', async () => {
    const f = fixtures(server);
    const { user, membership } = await f.membership({ organizationId: w.org.id }, 'member');
    const token = await mint(server, w, w.orgAdmin, ['ORG_MEMBERSHIP_READ']);
    const found = await server.api('GET', `/v2/organizations/${w.org.id}/memberships/${membership.id}`, token);
    expect(found.status).toBe(200);
    expect(found.body.data).toMatchObject({ id: Number(membership.id), userId: Number(user.id), role: 'MEMBER', accepted: true, teamId: Number(w.org.id), attributes: [] });
    const elsewhere = await f.membership({ organizationId: w.otherOrg.id }, 'member');
    const missing = await server.api('GET', `/v2/organizations/${w.org.id}/memberships/${elsewhere.membership.id}`, token);
    expect(missing.status).toBe(404);
  });
});

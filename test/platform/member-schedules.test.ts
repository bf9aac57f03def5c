// A member's own schedules reached through their organization or team, at Cal.com API v2's
// addresses (/v2/organizations/:orgId/users/:userId/schedules…, /v2/teams/:teamId/users/:userId/schedules):
// an organization admin manages a member's schedules as the member would; a user who is not a
// member of the path's organization or team is as unknown as one who does not exist
// (docs/rules.md#membership-rules). Real HTTP, both databases.
import { describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.ts';
import type { TestServer } from '../helpers/server.ts';
import { fixtures, mint, type World, useWorld } from './fixtures.ts';

describe.each(backends)("a member's schedules through the organization on $name", ({ name, available }) => {
  let server: TestServer;
  let w: World;
  useWorld(name, available, (started) => ({ server, w } = started));

  const adminToken = () => mint(server, w, w.orgAdmin, ['ORG_SCHEDULE_READ', 'ORG_SCHEDULE_WRITE']);

  it.skipIf(!available)("an organization admin creates, reads, changes and deletes a member's schedule; the first becomes the member's default", async () => {
    const { user } = await fixtures(server).membership({ organizationId: w.org.id });
    const base = `/v2/organizations/${w.org.id}/users/${user.id}/schedules`;
    const token = await adminToken();
    const created = await server.api('POST', base, token, { name: 'Set by admin', timeZone: 'Europe/Madrid', availability: [{ days: ['Monday'], startTime: '08:00', endTime: '12:00' }] });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ name: 'Set by admin', ownerId: Number(user.id), isDefault: true });
    const id = created.body.data.id as string;

    // The member sees it as their own default.
    const own = await server.api('GET', '/v2/schedules/default', await mint(server, w, user, ['SCHEDULE_READ']));
    expect(own.body.data.id).toBe(id);

    expect((await server.api('GET', base, token)).body.data.map((s: { id: string }) => s.id)).toEqual([id]);
    expect((await server.api('GET', `${base}/${id}`, token)).body.data.name).toBe('Set by admin');
    const changed = await server.api('PATCH', `${base}/${id}`, token, { name: 'Renamed by admin' });
    expect(changed.status).toBe(200);
    expect(changed.body.data.name).toBe('Renamed by admin');
    expect((await server.api('DELETE', `${base}/${id}`, token)).status).toBe(200);
    expect(await server.services.stores.api.schedules.find({ userId: user.id }, id)).toBeUndefined();
  });

  it.skipIf(!available)('a user outside the organization, or a schedule of another user, is 404 and nothing changes', async () => {
    const token = await adminToken();
    const outsider = await server.api('GET', `/v2/organizations/${w.org.id}/users/${w.outsider.id}/schedules`, token);
    expect(outsider.status).toBe(404);
    expect(outsider.body.error.message).toContain('user in this organization');
    const write = await server.api('POST', `/v2/organizations/${w.org.id}/users/${w.outsider.id}/schedules`, token, { name: 'Sneaky', timeZone: 'UTC' });
    expect(write.status).toBe(404);
    expect(await server.services.stores.api.schedules.list({ userId: w.outsider.id }, 10, 0)).toEqual([]);

    const { user } = await fixtures(server).membership({ organizationId: w.org.id });
    const othersSchedule = await fixtures(server).schedule({ userId: w.orgAdmin.id });
    const crossed = await server.api('PATCH', `/v2/organizations/${w.org.id}/users/${user.id}/schedules/${othersSchedule.id}`, token, { name: 'Crossed' });
    expect(crossed.status).toBe(404);
    expect((await server.services.stores.api.schedules.find({ userId: w.orgAdmin.id }, othersSchedule.id))?.name).toBe(othersSchedule.name);
  });

  it.skipIf(!available)("GET /v2/teams/:teamId/users/:userId/schedules: any member of the team reads a teammate's schedules; a user outside the team is 404", async () => {
    const mine = await fixtures(server).schedule({ userId: w.teamAdmin.id });
    const token = await mint(server, w, w.member, ['TEAM_SCHEDULE_READ']);
    const listed = await server.api('GET', `/v2/teams/${w.team.id}/users/${w.teamAdmin.id}/schedules`, token);
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((s: { id: string }) => s.id)).toContain(Number(mine.id));
    const viaOrg = await server.api('GET', `/v2/organizations/${w.org.id}/teams/${w.team.id}/users/${w.teamAdmin.id}/schedules`, token);
    expect(viaOrg.body.data.map((s: { id: string }) => s.id)).toContain(Number(mine.id));
    const stranger = await server.api('GET', `/v2/teams/${w.team.id}/users/${w.outsider.id}/schedules`, token);
    expect(stranger.status).toBe(404);
  });
});

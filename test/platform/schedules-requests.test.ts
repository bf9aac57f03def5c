// Schedules as Cal.com API v2's clients send and read them (docs/integrating.md#schedules): an
// override of 00:00 to 00:00, which Cal.com's MCP server sends to mark a date unavailable, on the
// personal, team and organization routes; and ownerId a number in every list, as
// ScheduleOutput_2024_06_11 requires, a team's schedule naming the team's owner; and a member's
// schedules at /v2/organizations/:orgId/users/:userId/schedules and /v2/teams/:teamId/users/:userId/schedules,
// the path's user as their owner. The rules themselves (the default, days off on every kind of
// schedule, equal times, whose schedule) are test/services/platform/schedules.test.ts's, the
// path's member check memberOfPath's (test/services/platform/out-of-office.test.ts), the scopes and
// membership rules of every route platform-access's and team-access's. Real HTTP, both databases.
import { describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.ts';
import type { TestServer } from '../helpers/server.ts';
import { fixtures, mint, type World, useWorld } from './fixtures.ts';

/** The version the platform documents for schedules, and the one its MCP server sends with every call. */
const SCHEDULES = { 'cal-api-version': '2024-06-11' };
const MCP = { 'cal-api-version': '2024-08-13' };
const DAY_OFF = { date: '2030-12-25', startTime: '00:00', endTime: '00:00' };

describe.each(backends)('schedules as the platform’s clients use them on $name', ({ name, available }) => {
  let server: TestServer;
  let w: World;
  useWorld(name, available, (started) => ({ server, w } = started));

  it.skipIf(!available)('POST and PATCH /v2/schedules with an override of 00:00-00:00 → 201/200, the date shown unavailable as sent (it was 400 "endTime must be later than startTime")', async () => {
    const token = await mint(server, w, w.member, ['SCHEDULE_READ', 'SCHEDULE_WRITE']);
    // The headers and body of Cal.com's MCP create_schedule tool.
    const created = await server.api('POST', '/v2/schedules', token, { name: 'Holidays', timeZone: 'Europe/Berlin', isDefault: false, overrides: [DAY_OFF] }, MCP);
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ name: 'Holidays', ownerId: Number(w.member.id), overrides: [DAY_OFF] });
    const id = created.body.data.id as number;

    const newYear = { date: '2031-01-01', startTime: '00:00', endTime: '00:00' };
    const changed = await server.api('PATCH', `/v2/schedules/${id}`, token, { overrides: [newYear, { date: '2031-01-02', startTime: '10:00', endTime: '12:00' }] }, MCP);
    expect(changed.status).toBe(200);
    expect(changed.body.data.overrides).toEqual([newYear, { date: '2031-01-02', startTime: '10:00', endTime: '12:00' }]);
    expect((await server.api('GET', `/v2/schedules/${id}`, token, undefined, SCHEDULES)).body.data.overrides[0]).toEqual(newYear);
    expect((await server.services.stores.api.schedules.find({ userId: w.member.id }, String(id)))?.overrides[0]).toEqual(newYear);
  });

  it.skipIf(!available)("team and organization lists give every schedule's ownerId as a number: a team's names the team's owner (it was null)", async () => {
    const teamSchedule = await fixtures(server).schedule({ teamId: w.team.id });
    const personal = await fixtures(server).schedule({ userId: w.owner.id });
    const token = await mint(server, w, w.owner, ['ORG_SCHEDULE_READ', 'TEAM_SCHEDULE_READ']);
    const ownerOf = async (path: string) => {
      const res = await server.api('GET', path, token, undefined, SCHEDULES);
      expect(res.status).toBe(200);
      return new Map((res.body.data as Array<{ id: number; ownerId: unknown; teamId: unknown }>).map((s) => [String(s.id), { ownerId: s.ownerId, teamId: s.teamId }]));
    };
    const team = { ownerId: Number(w.owner.id), teamId: Number(w.team.id) };
    expect((await ownerOf(`/v2/teams/${w.team.id}/schedules`)).get(teamSchedule.id)).toEqual(team);
    expect((await ownerOf(`/v2/organizations/${w.org.id}/teams/${w.team.id}/schedules`)).get(teamSchedule.id)).toEqual(team);
    const organization = await ownerOf(`/v2/organizations/${w.org.id}/schedules`);
    expect(organization.get(teamSchedule.id)).toEqual(team);
    expect(organization.get(personal.id)).toEqual({ ownerId: Number(w.owner.id), teamId: null });
    for (const { ownerId } of organization.values()) expect(typeof ownerId).toBe('number');
    const one = await server.api('GET', `/v2/teams/${w.team.id}/schedules/${teamSchedule.id}`, token, undefined, SCHEDULES);
    expect(one.body.data.ownerId).toBe(Number(w.owner.id));
  });

  it.skipIf(!available)("…/users/:userId/schedules: an organization admin's schedule is the path member's own, their default; a team member reads a teammate's; a user outside, or another user's schedule, is 404 and nothing changes", async () => {
    const f = fixtures(server);
    const { user } = await f.membership({ organizationId: w.org.id });
    const base = `/v2/organizations/${w.org.id}/users/${user.id}/schedules`;
    const token = await mint(server, w, w.orgAdmin, ['ORG_SCHEDULE_READ', 'ORG_SCHEDULE_WRITE']);
    const created = await server.api('POST', base, token, { name: 'Set by admin', timeZone: 'Europe/Madrid', availability: [{ days: ['Monday'], startTime: '08:00', endTime: '12:00' }] });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ name: 'Set by admin', ownerId: Number(user.id), isDefault: true });
    const id = created.body.data.id as string;
    // The member sees it as their own default.
    expect((await server.api('GET', '/v2/schedules/default', await mint(server, w, user, ['SCHEDULE_READ']))).body.data.id).toBe(id);
    expect((await server.api('GET', base, token)).body.data.map((s: { id: string }) => s.id)).toEqual([id]);
    expect((await server.api('GET', `${base}/${id}`, token)).body.data.name).toBe('Set by admin');
    const changed = await server.api('PATCH', `${base}/${id}`, token, { name: 'Renamed by admin' });
    expect(changed.status).toBe(200);
    expect(changed.body.data.name).toBe('Renamed by admin');
    expect((await server.api('DELETE', `${base}/${id}`, token)).status).toBe(200);
    expect(await server.services.stores.api.schedules.find({ userId: user.id }, id)).toBeUndefined();

    const outsider = await server.api('POST', `/v2/organizations/${w.org.id}/users/${w.outsider.id}/schedules`, token, { name: 'Sneaky', timeZone: 'UTC' });
    expect(outsider.status).toBe(404);
    expect(outsider.body.error.message).toBe('no such user in this organization');
    expect(await server.services.stores.api.schedules.list({ userId: w.outsider.id }, 10, 0)).toEqual([]);
    const othersSchedule = await f.schedule({ userId: w.orgAdmin.id });
    const crossed = await server.api('PATCH', `${base}/${othersSchedule.id}`, token, { name: 'Crossed' });
    expect(crossed.status).toBe(404);
    expect((await server.services.stores.api.schedules.find({ userId: w.orgAdmin.id }, othersSchedule.id))?.name).toBe(othersSchedule.name);

    const teammates = await f.schedule({ userId: w.teamAdmin.id });
    const memberToken = await mint(server, w, w.member, ['TEAM_SCHEDULE_READ']);
    const listed = await server.api('GET', `/v2/teams/${w.team.id}/users/${w.teamAdmin.id}/schedules`, memberToken);
    expect(listed.body.data.map((s: { id: string }) => s.id)).toContain(Number(teammates.id));
    expect((await server.api('GET', `/v2/teams/${w.team.id}/users/${w.outsider.id}/schedules`, memberToken)).status).toBe(404);
  });
});

// Schedules as Cal.com API v2's clients send and read them (docs/integrating.md#schedules): an
// override of 00:00 to 00:00, which Cal.com's MCP server sends to mark a date unavailable, on the
// personal, team and organization routes; and ownerId a number in every list, as
// ScheduleOutput_2024_06_11 requires, a team's schedule naming the team's owner. The rules
// themselves are test/services/platform/schedules.test.ts's. Real HTTP, both databases.
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

  it.skipIf(!available)('a date both off and given hours, or other equal times, is 400 naming the override; nothing changes', async () => {
    const token = await mint(server, w, w.member, ['SCHEDULE_WRITE']);
    const mine = await fixtures(server).schedule({ userId: w.member.id });
    const both = await server.api('PATCH', `/v2/schedules/${mine.id}`, token, { overrides: [DAY_OFF, { ...DAY_OFF, startTime: '09:00', endTime: '10:00' }] }, SCHEDULES);
    expect(both.status).toBe(400);
    expect(both.body.error.message).toBe('overrides.1: 2030-12-25 is marked unavailable (00:00-00:00) by another override: give the date hours or mark it unavailable, not both');
    const empty = await server.api('PATCH', `/v2/schedules/${mine.id}`, token, { overrides: [{ ...DAY_OFF, startTime: '10:00', endTime: '10:00' }] }, SCHEDULES);
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toContain('overrides.0.endTime: must be later than startTime');
    expect((await server.services.stores.api.schedules.find({ userId: w.member.id }, mine.id))?.overrides).toEqual([]);
  });

  it.skipIf(!available)('team, organization and organization-member schedules take a day off on create and change', async () => {
    const teamAdmin = await mint(server, w, w.teamAdmin, ['TEAM_SCHEDULE_READ', 'TEAM_SCHEDULE_WRITE']);
    const team = await server.api('POST', `/v2/teams/${w.team.id}/schedules`, teamAdmin, { name: 'Desk', timeZone: 'UTC', overrides: [DAY_OFF] }, SCHEDULES);
    expect(team.status).toBe(201);
    expect(team.body.data.overrides).toEqual([DAY_OFF]);
    const teamChange = await server.api('PATCH', `/v2/teams/${w.team.id}/schedules/${team.body.data.id}`, teamAdmin, { overrides: [{ ...DAY_OFF, date: '2030-12-26' }] }, SCHEDULES);
    expect(teamChange.status).toBe(200);
    expect(teamChange.body.data.overrides).toEqual([{ ...DAY_OFF, date: '2030-12-26' }]);

    const orgAdmin = await mint(server, w, w.orgAdmin, ['ORG_SCHEDULE_READ', 'ORG_SCHEDULE_WRITE']);
    const orgChange = await server.api('PATCH', `/v2/organizations/${w.org.id}/schedules/${team.body.data.id}`, orgAdmin, { overrides: [DAY_OFF] }, SCHEDULES);
    expect(orgChange.status).toBe(200);
    expect(orgChange.body.data.overrides).toEqual([DAY_OFF]);

    const { user } = await fixtures(server).membership({ organizationId: w.org.id });
    const base = `/v2/organizations/${w.org.id}/users/${user.id}/schedules`;
    const made = await server.api('POST', base, orgAdmin, { name: 'Theirs', timeZone: 'UTC', isDefault: true, overrides: [DAY_OFF] }, SCHEDULES);
    expect(made.status).toBe(201);
    expect(made.body.data).toMatchObject({ ownerId: Number(user.id), overrides: [DAY_OFF] });
    const changed = await server.api('PATCH', `${base}/${made.body.data.id}`, orgAdmin, { overrides: [] }, SCHEDULES);
    expect(changed.status).toBe(200);
    expect(changed.body.data.overrides).toEqual([]);
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
});

// A user's availability at Cal.com API v2's addresses, through real HTTP on both databases, one
// server for both resources the SCHEDULE_* scopes guard.
//
// Out-of-office entries (docs/rules.md#out-of-office): what only HTTP shows — the view, Cal.com's query mapped to the
// service, the path's user as the subject, and concurrent requests. The rules (the order of the
// times, who covers, no overlap, whose entries, the path's member) are
// test/services/platform/out-of-office.test.ts's; the scopes and membership rules of every route,
// the organization's twins of the team routes among them, platform-access's and team-access's.
//
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
import { addMember } from '../../src/services/teams/teams.ts';
import { backends } from '../helpers/backends.ts';
import { type TestServer, type TestUser } from '../helpers/server.ts';
import { fixtures, futureStart, mint, quickUser, type World, useWorld } from './fixtures.ts';

const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();
/** The version the platform documents for schedules, and the one its MCP server sends with every call. */
const SCHEDULES = { 'cal-api-version': '2024-06-11' };
const MCP = { 'cal-api-version': '2024-08-13' };
const DAY_OFF = { date: '2030-12-25', startTime: '00:00', endTime: '00:00' };

describe.each(backends)('schedules and out-of-office entries on $name', ({ name, available }) => {
  let server: TestServer;
  let w: World;
  let f: ReturnType<typeof fixtures>;
  useWorld(name, available, (started) => ({ server, w, f } = started));

  const token = (user: TestUser, scopes: string[]) => mint(server, w, user, scopes);
  const stored = (userId: string, id: string) => server.services.stores.api.outOfOffice.find(userId, id);
  /** A window of `hours` at a distinct future time. */
  const window = (hours = 2) => {
    const start = futureStart(server);
    return { start, end: start + hours * HOUR, body: { start: iso(start), end: iso(start + hours * HOUR) } };
  };

  it.skipIf(!available)('/v2/me/ooo: create, list, change and delete your own entry; DELETE answers the deleted entry', async () => {
    const user = await quickUser(server);
    await addMember(server.services, { teamId: w.team.id }, user.id, 'member');
    const t = await token(user, ['SCHEDULE_READ', 'SCHEDULE_WRITE']);
    const { start, end, body } = window();

    const created = await server.api('POST', '/v2/me/ooo', t, { ...body, notes: 'Holiday', reason: 'vacation', toUserId: w.member.id });
    expect(created.status).toBe(201);
    const entry = created.body.data;
    expect(created.body).toEqual({
      status: 'success',
      data: { id: entry.id, uuid: entry.uuid, userId: Number(user.id), toUserId: Number(w.member.id), start: iso(start), end: iso(end), notes: 'Holiday', reason: 'vacation' },
    });
    expect(entry.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(await stored(user.id, String(entry.id))).toMatchObject({ start, end, toUserId: w.member.id, reason: 'vacation' });

    const listed = await server.api('GET', '/v2/me/ooo', t);
    expect(listed.body).toEqual({ status: 'success', data: [entry] });

    const changed = await server.api('PATCH', `/v2/me/ooo/${entry.id}`, t, { end: iso(end + HOUR), toUserId: null, reason: 'travel' });
    expect(changed.status).toBe(200);
    // No one covering is said by leaving toUserId out: the platform types it a number, never null.
    const { toUserId: _covered, ...uncovered } = entry;
    expect(changed.body.data).toEqual({ ...uncovered, end: iso(end + HOUR), reason: 'travel' });
    expect(changed.body.data).not.toHaveProperty('toUserId');

    const deleted = await server.api('DELETE', `/v2/me/ooo/${entry.id}`, t);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toEqual(changed.body.data);
    expect(await stored(user.id, entry.id)).toBeUndefined();
    expect((await server.api('DELETE', `/v2/me/ooo/${entry.id}`, t)).status).toBe(404);
  });

  it.skipIf(!available)("lists: Cal.com's sortStart, sortEnd, take/skip, limit/offset and the organization's email reach the service; a sort it does not know is 400 naming it", async () => {
    const user = await quickUser(server);
    const t = await token(user, ['SCHEDULE_READ']);
    const base = futureStart(server) + 100 * HOUR;
    const long = await f.ooo(user.id, { start: base, end: base + 10 * HOUR });
    const short = await f.ooo(user.id, { start: base + 20 * HOUR, end: base + 21 * HOUR });
    const ids = async (query: string) => (await server.api('GET', `/v2/me/ooo${query}`, t)).body.data.map((e: { id: number }) => String(e.id));
    expect(await ids('')).toEqual([long.id, short.id]);
    expect(await ids('?sortStart=desc')).toEqual([short.id, long.id]);
    expect(await ids('?sortEnd=desc')).toEqual([short.id, long.id]);
    expect(await ids('?take=1&skip=1')).toEqual([short.id]);
    expect(await ids('?limit=1&offset=1')).toEqual([short.id]);
    const bad = await server.api('GET', '/v2/me/ooo?sortStart=sideways', t);
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('sortStart');

    const a = await f.membership({ organizationId: w.org.id });
    const b = await f.membership({ organizationId: w.org.id });
    const ea = await f.ooo(a.user.id, { start: base + 500 * HOUR, end: base + 501 * HOUR });
    const eb = await f.ooo(b.user.id, { start: base + 502 * HOUR, end: base + 503 * HOUR });
    const orgToken = await token(w.orgAdmin, ['ORG_SCHEDULE_READ']);
    const orgIds = async (query: string) => (await server.api('GET', `/v2/organizations/${w.org.id}/ooo${query}`, orgToken)).body.data.map((e: { id: number }) => String(e.id));
    expect((await orgIds('?sortStart=desc&take=250')).slice(0, 2)).toEqual([eb.id, ea.id]);
    expect(await orgIds(`?email=${encodeURIComponent(b.user.email.toUpperCase())}`)).toEqual([eb.id]);
  });

  it.skipIf(!available)('two concurrent overlapping entries of one user: exactly one is written', async () => {
    const user = await quickUser(server);
    const t = await token(user, ['SCHEDULE_READ', 'SCHEDULE_WRITE']);
    const { body } = window();
    const answers = await Promise.all([1, 2, 3].map(() => server.api('POST', '/v2/me/ooo', t, body)));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409]);
    expect((await server.api('GET', '/v2/me/ooo', t)).body.data).toHaveLength(1);
  });

  it.skipIf(!available)("/v2/teams/:teamId/users/:userId/ooo: a team admin manages the path member's entries, a plain member reads them, a path user outside the team is 404", async () => {
    const { user } = await f.membership({ teamId: w.team.id });
    const base = `/v2/teams/${w.team.id}/users/${user.id}/ooo`;
    const admin = await token(w.teamAdmin, ['TEAM_SCHEDULE_READ', 'TEAM_SCHEDULE_WRITE']);
    const created = await server.api('POST', base, admin, { ...window().body, toUserId: w.member.id, reason: 'sick' });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ userId: Number(user.id), toUserId: Number(w.member.id), reason: 'sick' });
    const id = created.body.data.id;

    const memberToken = await token(w.member, ['TEAM_SCHEDULE_READ']);
    expect((await server.api('GET', base, memberToken)).body.data.map((e: { id: string }) => e.id)).toEqual([id]);

    const changed = await server.api('PATCH', `${base}/${id}`, admin, { notes: 'Flu' });
    expect(changed.body.data.notes).toBe('Flu');
    const deleted = await server.api('DELETE', `${base}/${id}`, admin);
    expect(deleted.body.data).toEqual(changed.body.data);
    expect(await stored(user.id, id)).toBeUndefined();
    // A path user who is no member of the team is as unknown as no user (the rule: memberOfPath's test).
    const outsider = await server.api('GET', `/v2/teams/${w.team.id}/users/${w.outsider.id}/ooo`, admin);
    expect(outsider.status).toBe(404);
    expect(outsider.body.error).toEqual({ code: 'not_found', message: 'no such user in this team' });
  });

  it.skipIf(!available)("/v2/organizations/:orgId/users/:userId/ooo: an organization admin manages a member's entries; a member outside it is 404", async () => {
    const { user } = await f.membership({ organizationId: w.org.id });
    const base = `/v2/organizations/${w.org.id}/users/${user.id}/ooo`;
    const orgAdmin = await token(w.orgAdmin, ['ORG_SCHEDULE_READ', 'ORG_SCHEDULE_WRITE']);
    const created = await server.api('POST', base, orgAdmin, { ...window().body, toUserId: w.orgAdmin.id });
    expect(created.status).toBe(201);
    // Notes never given are left out, as the platform's schema (a string, never null) has it.
    expect(created.body.data).not.toHaveProperty('notes');
    const id = created.body.data.id;
    expect((await server.api('GET', base, orgAdmin)).body.data.map((e: { id: string }) => e.id)).toEqual([id]);
    expect((await server.api('PATCH', `${base}/${id}`, orgAdmin, { reason: 'public_holiday' })).body.data.reason).toBe('public_holiday');
    expect((await server.api('DELETE', `${base}/${id}`, orgAdmin)).body.data.id).toBe(id);
    expect(await stored(user.id, id)).toBeUndefined();

    // A member only of one of the organization's teams is not a user of the organization (the rule: memberOfPath's test).
    const teamOnly = await server.api('POST', `/v2/organizations/${w.org.id}/users/${w.member.id}/ooo`, orgAdmin, window().body);
    expect(teamOnly.status).toBe(404);
    expect(teamOnly.body.error.message).toBe('no such user in this organization');
  });


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
    const teamSchedule = await f.schedule({ teamId: w.team.id });
    const personal = await f.schedule({ userId: w.owner.id });
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

// Out-of-office entries at Cal.com API v2's addresses (docs/rules.md#out-of-office), through real
// HTTP on both databases: a user's own, a team member's and an organization user's; who may
// reach whose (docs/rules.md#membership-rules), the order of the times, the one who covers, and
// that one user's entries never overlap.
import { describe, expect, it } from 'vitest';
import { addMember, createTeam } from '../../src/services/teams/teams.ts';
import { backends } from '../helpers/backends.ts';
import { type TestServer, type TestUser } from '../helpers/server.ts';
import { fixtures, futureStart, mint, quickUser, type World, useWorld } from './fixtures.ts';

const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

describe.each(backends)('out-of-office entries on $name', ({ name, available }) => {
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

  it.skipIf(!available)("/v2/me/ooo: another user's entry is 404 to change or delete, and is not listed", async () => {
    const other = await quickUser(server);
    const theirs = await f.ooo(other.id);
    const t = await token(await quickUser(server), ['SCHEDULE_READ', 'SCHEDULE_WRITE']);
    for (const [method, body] of [['PATCH', { notes: 'mine now' }], ['DELETE', undefined]] as const) {
      const res = await server.api(method, `/v2/me/ooo/${theirs.id}`, t, body);
      expect(res.status).toBe(404);
      expect(res.body.error).toEqual({ code: 'not_found', message: 'no such out-of-office entry' });
    }
    expect((await server.api('GET', '/v2/me/ooo', t)).body.data).toEqual([]);
    expect(await stored(other.id, theirs.id)).toEqual(theirs);
  });

  it.skipIf(!available)('lists: sortStart and sortEnd order them; take/skip and limit/offset page them', async () => {
    const user = await quickUser(server);
    const t = await token(user, ['SCHEDULE_READ']);
    const base = futureStart(server) + 100 * HOUR;
    const long = await f.ooo(user.id, { start: base, end: base + 10 * HOUR });
    const short = await f.ooo(user.id, { start: base + 20 * HOUR, end: base + 21 * HOUR });
    const ids = async (query: string) => (await server.api('GET', `/v2/me/ooo${query}`, t)).body.data.map((e: { id: number }) => String(e.id));
    expect(await ids('')).toEqual([long.id, short.id]);
    expect(await ids('?sortStart=desc')).toEqual([short.id, long.id]);
    expect(await ids('?sortEnd=asc')).toEqual([long.id, short.id]);
    expect(await ids('?sortEnd=desc')).toEqual([short.id, long.id]);
    expect(await ids('?take=1&skip=1')).toEqual([short.id]);
    expect(await ids('?limit=1&offset=1')).toEqual([short.id]);
    const bad = await server.api('GET', '/v2/me/ooo?sortStart=sideways', t);
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('sortStart');
  });

  it.skipIf(!available)('an end before (or at) the start is 400 naming end, on create and on change; nothing is written', async () => {
    const user = await quickUser(server);
    const t = await token(user, ['SCHEDULE_READ', 'SCHEDULE_WRITE']);
    const { start } = window();
    for (const end of [start - HOUR, start]) {
      const res = await server.api('POST', '/v2/me/ooo', t, { start: iso(start), end: iso(end) });
      expect(res.status).toBe(400);
      expect(res.body.error).toEqual({ code: 'validation_error', message: 'end: must be later than start' });
    }
    const entry = await f.ooo(user.id, { start, end: start + HOUR });
    const moved = await server.api('PATCH', `/v2/me/ooo/${entry.id}`, t, { start: iso(start + 2 * HOUR) });
    expect(moved.status).toBe(400);
    expect(moved.body.error.message).toBe('start: must be earlier than end');
    const notADate = await server.api('POST', '/v2/me/ooo', t, { start: 'tomorrow', end: iso(start) });
    expect(notADate.status).toBe(400);
    expect(notADate.body.error.message).toContain('start');
    expect((await server.api('GET', '/v2/me/ooo', t)).body.data.map((e: { id: string }) => e.id)).toEqual([Number(entry.id)]);
    expect(await stored(user.id, entry.id)).toEqual(entry);
  });

  it.skipIf(!available)("overlapping entries of one user are 409 on create and on change; touching ones and another user's are fine", async () => {
    const user = await quickUser(server);
    const t = await token(user, ['SCHEDULE_READ', 'SCHEDULE_WRITE']);
    const { start, end, body } = window(4);
    expect((await server.api('POST', '/v2/me/ooo', t, body)).status).toBe(201);

    const overlapping = await server.api('POST', '/v2/me/ooo', t, { start: iso(start + HOUR), end: iso(end + HOUR) });
    expect(overlapping.status).toBe(409);
    expect(overlapping.body.error.code).toBe('conflict');
    expect(overlapping.body.error.message).toContain('overlapping');

    const after = await server.api('POST', '/v2/me/ooo', t, { start: iso(end), end: iso(end + HOUR) });
    expect(after.status).toBe(201);
    const stretched = await server.api('PATCH', `/v2/me/ooo/${after.body.data.id}`, t, { start: iso(end - HOUR) });
    expect(stretched.status).toBe(409);
    // Changing an entry within its own time is no overlap with itself.
    expect((await server.api('PATCH', `/v2/me/ooo/${after.body.data.id}`, t, { end: iso(end + 30 * 60_000) })).status).toBe(200);

    const someoneElse = await token(await quickUser(server), ['SCHEDULE_WRITE']);
    expect((await server.api('POST', '/v2/me/ooo', someoneElse, body)).status).toBe(201);
    expect((await server.api('GET', '/v2/me/ooo', t)).body.data).toHaveLength(2);
  });

  it.skipIf(!available)('two concurrent overlapping entries of one user: exactly one is written', async () => {
    const user = await quickUser(server);
    const t = await token(user, ['SCHEDULE_READ', 'SCHEDULE_WRITE']);
    const { body } = window();
    const answers = await Promise.all([1, 2, 3].map(() => server.api('POST', '/v2/me/ooo', t, body)));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409]);
    expect((await server.api('GET', '/v2/me/ooo', t)).body.data).toHaveLength(1);
  });

  it.skipIf(!available)('toUserId: yourself, someone you share no team or organization with, a pending invitee, or no account at all is 400 with one message', async () => {
    const user = await quickUser(server);
    await addMember(server.services, { teamId: w.team.id }, user.id, 'member');
    const t = await token(user, ['SCHEDULE_WRITE']);
    const self = await server.api('POST', '/v2/me/ooo', t, { ...window().body, toUserId: user.id });
    expect(self.status).toBe(400);
    expect(self.body.error).toEqual({ code: 'validation_error', message: 'toUserId: must be someone other than the user who is out of office' });
    const unrelated = 'toUserId: must be an accepted member of a team or organization that the user is in';
    for (const toUserId of [w.outsider.id, w.invitee.id, '9000000001']) {
      const res = await server.api('POST', '/v2/me/ooo', t, { ...window().body, toUserId });
      expect(res.status).toBe(400);
      expect(res.body.error).toEqual({ code: 'validation_error', message: unrelated });
    }
    const entry = await f.ooo(user.id);
    const patched = await server.api('PATCH', `/v2/me/ooo/${entry.id}`, t, { toUserId: w.outsider.id });
    expect(patched.body.error.message).toBe(unrelated);
    expect(await stored(user.id, entry.id)).toEqual(entry);
    // A member of the same team covers.
    expect((await server.api('PATCH', `/v2/me/ooo/${entry.id}`, t, { toUserId: w.teamAdmin.id })).body.data.toUserId).toBe(Number(w.teamAdmin.id));
  });

  it.skipIf(!available)("/v2/teams/:teamId/users/:userId/ooo: a team admin manages a member's entries; a plain member reads them", async () => {
    const { user } = await f.membership({ teamId: w.team.id });
    const base = `/v2/teams/${w.team.id}/users/${user.id}/ooo`;
    const admin = await token(w.teamAdmin, ['TEAM_SCHEDULE_READ', 'TEAM_SCHEDULE_WRITE']);
    const created = await server.api('POST', base, admin, { ...window().body, toUserId: w.member.id, reason: 'sick' });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ userId: Number(user.id), toUserId: Number(w.member.id), reason: 'sick' });
    const id = created.body.data.id;

    const memberToken = await token(w.member, ['TEAM_SCHEDULE_READ', 'TEAM_SCHEDULE_WRITE']);
    expect((await server.api('GET', base, memberToken)).body.data.map((e: { id: string }) => e.id)).toEqual([id]);
    for (const [method, path, body] of [['POST', base, window().body], ['PATCH', `${base}/${id}`, { notes: 'x' }], ['DELETE', `${base}/${id}`, undefined]] as const) {
      const res = await server.api(method, path, memberToken, body);
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('forbidden');
    }

    const changed = await server.api('PATCH', `${base}/${id}`, admin, { notes: 'Flu' });
    expect(changed.body.data.notes).toBe('Flu');
    const deleted = await server.api('DELETE', `${base}/${id}`, admin);
    expect(deleted.body.data).toEqual(changed.body.data);
    expect(await stored(user.id, id)).toBeUndefined();
  });

  it.skipIf(!available)("team routes: a path user who is not an accepted member of the team is 404, as an unknown user; an outsider of the team is 403", async () => {
    const admin = await token(w.teamAdmin, ['TEAM_SCHEDULE_READ', 'TEAM_SCHEDULE_WRITE']);
    const outsidersEntry = await f.ooo(w.outsider.id);
    for (const userId of [w.outsider.id, w.invitee.id, 'noSuchUser']) {
      const base = `/v2/teams/${w.team.id}/users/${userId}/ooo`;
      for (const [method, path, body] of [['GET', base, undefined], ['POST', base, window().body], ['PATCH', `${base}/${outsidersEntry.id}`, { notes: 'x' }], ['DELETE', `${base}/${outsidersEntry.id}`, undefined]] as const) {
        const res = await server.api(method, path, admin, body);
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(res.body.error).toEqual({ code: 'not_found', message: 'no such user in this team' });
      }
    }
    expect(await stored(w.outsider.id, outsidersEntry.id)).toEqual(outsidersEntry);
    const res = await server.api('GET', `/v2/teams/${w.team.id}/users/${w.member.id}/ooo`, await token(w.outsider, ['TEAM_SCHEDULE_READ']));
    expect(res.status).toBe(403);
    // An entry of another member is not reached through a member's path.
    const { user } = await f.membership({ teamId: w.team.id });
    const notTheirs = await server.api('DELETE', `/v2/teams/${w.team.id}/users/${user.id}/ooo/${(await f.ooo(w.member.id)).id}`, admin);
    expect(notTheirs.status).toBe(404);
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

    // A member only of one of the organization's teams is not a user of the organization.
    for (const userId of [w.member.id, w.outsider.id, w.invitee.id]) {
      const res = await server.api('POST', `/v2/organizations/${w.org.id}/users/${userId}/ooo`, orgAdmin, window().body);
      expect(res.status).toBe(404);
      expect(res.body.error.message).toBe('no such user in this organization');
    }
    // A plain member of the organization may not use these routes.
    const plain = await token(user, ['ORG_SCHEDULE_READ']);
    expect((await server.api('GET', base, plain)).status).toBe(403);
  });

  it.skipIf(!available)("GET /v2/organizations/:orgId/ooo: every member's entries, one member's by email, nobody outside", async () => {
    const a = await f.membership({ organizationId: w.org.id });
    const b = await f.membership({ organizationId: w.org.id });
    const base = futureStart(server) + 500 * HOUR;
    const ea = await f.ooo(a.user.id, { start: base, end: base + HOUR });
    const eb = await f.ooo(b.user.id, { start: base + 2 * HOUR, end: base + 3 * HOUR });
    const outside = await f.ooo(w.outsider.id, { start: base, end: base + HOUR });
    const t = await token(w.orgAdmin, ['ORG_SCHEDULE_READ']);
    const ids = async (query: string) => (await server.api('GET', `/v2/organizations/${w.org.id}/ooo${query}`, t)).body.data.map((e: { id: number }) => String(e.id));
    const all = await ids('?sortStart=desc&take=250');
    expect(all.slice(0, 2)).toEqual([eb.id, ea.id]);
    expect(all).not.toContain(outside.id);
    expect(await ids(`?email=${encodeURIComponent(b.user.email.toUpperCase())}`)).toEqual([eb.id]);
    expect(await ids(`?email=${encodeURIComponent(w.outsider.email)}`)).toEqual([]);
    const wrongOrg = await server.api('GET', `/v2/organizations/${w.otherOrg.id}/ooo`, t);
    expect(wrongOrg.status).toBe(403);
  });

  it.skipIf(!available)('the team routes under the organization: an organization admin reaches a member of its team', async () => {
    const team = await createTeam(server.services, { name: 'Support', ownerId: w.owner.id, organizationId: w.org.id });
    const { user } = await f.membership({ teamId: team.id });
    const res = await server.api('POST', `/v2/organizations/${w.org.id}/teams/${team.id}/users/${user.id}/ooo`, await token(w.orgAdmin, ['ORG_SCHEDULE_WRITE']), window().body);
    expect(res.status).toBe(201);
    expect(res.body.data.userId).toBe(Number(user.id));
  });
});

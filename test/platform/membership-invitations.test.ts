// Memberships are invitations (docs/rules.md#membership-invitations): adding someone to a team or organization
// through the API grants nothing until they accept in the web app, and the answer to an
// invitation by e-mail is the same whether or not the address belongs to an account. Every
// request here is the one an attacker holding an admin's token would send.
import { describe, expect, it } from 'vitest';
import { createTeam } from '../../src/services/teams/teams.ts';
import { createUser } from '../../src/services/accounts/users.ts';
import { backends } from '../helpers/backends.ts';
import { browserFor, csrfOf, open, postForm } from '../helpers/pages.ts';
import { type TestServer, type TestUser } from '../helpers/server.ts';
import { fixtures, futureStart, mint, uniq, type World, useWorld } from './fixtures.ts';

const TEAMS = '/settings/teams';
const iso = (ms: number) => new Date(ms).toISOString();

/** Every id an answer names, at any depth: the values of `id` and of the fields ending in `Id`. */
function idFields(value: unknown): unknown[] {
  if (Array.isArray(value)) return value.flatMap(idFields);
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, v]) => [...(key === 'id' || key.endsWith('Id') ? [v] : []), ...idFields(v)]);
}

/** Every key path of a JSON value ("data.user", "data.createdAt", ...), sorted. */
function keyPaths(value: unknown, prefix = ''): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
  return Object.entries(value as Record<string, unknown>)
    .flatMap(([k, v]) => [prefix + k, ...keyPaths(v, `${prefix}${k}.`)])
    .sort();
}

describe.each(backends)('membership invitations on $name', ({ name, available }) => {
  let server: TestServer;
  let w: World;
  let f: ReturnType<typeof fixtures>;
  useWorld(name, available, (started) => ({ server, w, f } = started));

  /** The invited user accepts in /settings/teams, as a person does: logged in, with the page's CSRF token. */
  async function acceptInPage(user: TestUser, invitationId: string) {
    const browser = await browserFor(server, user);
    const page = await open(browser, TEAMS);
    const res = await postForm(browser, `${TEAMS}/invitations/${invitationId}/accept`, { _csrf: csrfOf(page.body) });
    expect(res.status).toBe(303);
    expect(res.location).toMatch(/^\/settings\/teams/);
  }

  it.skipIf(!available)("an organization admin who invites a user by e-mail cannot read, rename or edit that user's data until the user accepts (docs/rules.md#membership-invitations, docs/rules.md#membership-rules)", async () => {
    const victim = await server.user({ name: 'Vic Victim' });
    const eventType = await f.eventType({ userId: victim.id });
    const schedule = await f.schedule({ userId: victim.id });
    const booking = await f.booking({ hostId: victim.id });
    const admin = await mint(server, w, w.orgAdmin, [
      'ORG_MEMBERSHIP_READ',
      'ORG_MEMBERSHIP_WRITE',
      'ORG_EVENT_TYPE_READ',
      'ORG_EVENT_TYPE_WRITE',
      'ORG_SCHEDULE_READ',
      'ORG_SCHEDULE_WRITE',
      'ORG_BOOKING_READ',
    ]);
    const org = `/v2/organizations/${w.org.id}`;

    const invited = await server.api('POST', `${org}/memberships`, admin, { email: victim.email.toUpperCase(), role: 'member' });
    expect(invited.status).toBe(201);
    expect(invited.body.data).toMatchObject({ state: 'invited', userId: null, user: null, organizationId: Number(w.org.id), teamId: Number(w.org.id), role: 'MEMBER', accepted: false, invitedEmail: victim.email });
    expect(idFields(invited.body)).not.toContain(Number(victim.id));
    expect(JSON.stringify(invited.body)).not.toContain('Vic Victim');

    const seen = async () => ({
      users: (await server.api('GET', `${org}/users?limit=100`, admin)).body.data.map((u: { id: number }) => String(u.id)) as string[],
      eventTypes: (await server.api('GET', `${org}/event-types?limit=100`, admin)).body.data.map((e: { id: number }) => String(e.id)) as string[],
      schedules: (await server.api('GET', `${org}/schedules?limit=100`, admin)).body.data.map((s: { id: number }) => String(s.id)) as string[],
      bookings: (await server.api('GET', `${org}/bookings?limit=100`, admin)).body.data.map((b: { uid: string }) => b.uid) as string[],
    });
    const before = await seen();
    expect(before.users).not.toContain(victim.id);
    expect(before.eventTypes).not.toContain(eventType.id);
    expect(before.schedules).not.toContain(schedule.id);
    expect(before.bookings).not.toContain(booking.uid);

    // Not a member yet: every write answers as for a stranger (404), and nothing changes.
    const rename = await server.api('PATCH', `${org}/users/${victim.id}`, admin, { name: 'Renamed by admin' });
    expect(rename.status).toBe(404);
    expect(rename.body.error.code).toBe('not_found');
    const edit = await server.api('PATCH', `${org}/event-types/${eventType.id}`, admin, { title: 'Edited by admin' });
    expect(edit.status).toBe(404);
    const editSchedule = await server.api('PATCH', `${org}/schedules/${schedule.id}`, admin, { name: 'Edited by admin' });
    expect(editSchedule.status).toBe(404);
    const stores = server.services.stores;
    expect((await stores.users.findById(victim.id))!.name).toBe('Vic Victim');
    expect((await stores.api.eventTypes.findOwned({ userId: victim.id }, eventType.id))!.title).toBe('Intro call');
    expect((await stores.api.schedules.find({ userId: victim.id }, schedule.id))!.name).toBe('Working hours');
    // GET /v2/me does not report an organization the user never joined.
    expect((await server.api('GET', '/v2/me', await mint(server, w, victim, ['PROFILE_READ']))).body.data.organizationId).toBeNull();

    await acceptInPage(victim, invited.body.data.id);

    // Accepted: the organization sees and manages the member as before.
    const after = await seen();
    expect(after.users).toContain(victim.id);
    expect(after.eventTypes).toContain(eventType.id);
    expect(after.schedules).toContain(schedule.id);
    expect(after.bookings).toContain(booking.uid);
    expect((await server.api('PATCH', `${org}/users/${victim.id}`, admin, { name: 'Renamed by admin' })).status).toBe(200);
    expect((await server.api('PATCH', `${org}/event-types/${eventType.id}`, admin, { title: 'Edited by admin' })).status).toBe(200);
    const memberships = (await server.api('GET', `${org}/memberships?limit=100`, admin)).body.data as Array<{ id: string; state: string; userId: string | null }>;
    expect(memberships.find((m) => m.id === invited.body.data.id)).toMatchObject({ state: 'accepted', userId: Number(victim.id) });
    expect((await server.api('GET', '/v2/me', await mint(server, w, victim, ['PROFILE_READ']))).body.data.organizationId).toBe(Number(w.org.id));
  });

  it.skipIf(!available)('answers an invitation of an unregistered e-mail exactly as one of a registered user: same status, same body keys, nothing about the account (docs/rules.md#membership-invitations)', async () => {
    const known = await server.user({ name: 'Kim Known' });
    const unknownEmail = `nobody-${uniq()}@example.com`;
    const admin = await mint(server, w, w.teamAdmin, ['TEAM_MEMBERSHIP_READ', 'TEAM_MEMBERSHIP_WRITE']);
    const base = `/v2/teams/${w.team.id}/memberships`;

    const a = await server.api('POST', base, admin, { email: known.email, role: 'member' });
    const b = await server.api('POST', base, admin, { email: unknownEmail, role: 'member' });
    expect(a.status).toBe(201);
    expect(b.status).toBe(a.status);
    expect(keyPaths(b.body)).toEqual(keyPaths(a.body));
    for (const [res, email] of [[a, known.email], [b, unknownEmail]] as const) {
      expect(res.body.data).toMatchObject({ state: 'invited', userId: null, user: null, invitedEmail: email, invitedUserId: null, teamId: Number(w.team.id), role: 'MEMBER' });
      expect(res.headers.get('cache-control')).toBe(a.headers.get('cache-control'));
    }
    expect(idFields(a.body)).not.toContain(Number(known.id));
    expect(JSON.stringify(a.body)).not.toContain('Kim Known');

    // Reading the invitation back, and inviting the same address again, answer alike too.
    const getA = await server.api('GET', `${base}/${a.body.data.id}`, admin);
    const getB = await server.api('GET', `${base}/${b.body.data.id}`, admin);
    expect(getA.status).toBe(200);
    expect(getB.status).toBe(200);
    expect(keyPaths(getB.body)).toEqual(keyPaths(getA.body));
    const againA = await server.api('POST', base, admin, { email: known.email, role: 'admin' });
    const againB = await server.api('POST', base, admin, { email: unknownEmail, role: 'admin' });
    expect(againA.status).toBe(409);
    expect(againB.status).toBe(409);
    expect(againB.body.error.message).toBe(againA.body.error.message);

  });

  it.skipIf(!available)('an invited user cannot use the team endpoints (403 forbidden) until they accept; then they can (docs/rules.md#membership-invitations, docs/rules.md#membership-rules)', async () => {
    const invitee = await server.user();
    const admin = await mint(server, w, w.teamAdmin, ['TEAM_MEMBERSHIP_READ', 'TEAM_MEMBERSHIP_WRITE']);
    const invited = await server.api('POST', `/v2/teams/${w.team.id}/memberships`, admin, { userId: invitee.id, role: 'admin' });
    expect(invited.status).toBe(201);
    expect(invited.body.data).toMatchObject({ state: 'invited', accepted: false, userId: Number(invitee.id), invitedUserId: Number(invitee.id), role: 'ADMIN' });
    const token = await mint(server, w, invitee, ['TEAM_PROFILE_READ', 'TEAM_EVENT_TYPE_WRITE']);

    const read = await server.api('GET', `/v2/teams/${w.team.id}`, token);
    expect(read.status).toBe(403);
    expect(read.body.error).toEqual({ code: 'forbidden', message: 'this needs membership of the team' });
    const write = await server.api('POST', `/v2/teams/${w.team.id}/event-types`, token, { title: 'Sneaky', slug: `sneaky-${uniq().toLowerCase()}`, lengthInMinutes: 15 });
    expect(write.status).toBe(403);

    // The team lists the invitation as such: the user it names, not yet accepted.
    const list = (await server.api('GET', `/v2/teams/${w.team.id}/memberships?limit=100`, admin)).body.data as Array<{ id: string; state: string }>;
    expect(list.find((m) => m.id === invited.body.data.id)).toMatchObject({ state: 'invited', accepted: false, userId: Number(invitee.id), user: { email: invitee.email } });

    await acceptInPage(invitee, invited.body.data.id);
    expect((await server.api('GET', `/v2/teams/${w.team.id}`, token)).status).toBe(200);
    const got = await server.api('GET', `/v2/teams/${w.team.id}/memberships/${invited.body.data.id}`, admin);
    expect(got.body.data).toMatchObject({ state: 'accepted', userId: Number(invitee.id), role: 'ADMIN', accepted: true, user: { email: invitee.email } });
  });

  it.skipIf(!available)('an invited user is never picked as the host of a team booking, nor can one be reassigned to them, until they accept (docs/rules.md#membership-invitations)', async () => {
    const team = await createTeam(server.services, { name: 'Round robin', ownerId: w.owner.id });
    const eventType = await f.eventType({ teamId: team.id }, { roundRobin: true });
    // The owner already hosts one upcoming booking: round robin would prefer anyone idle.
    const busy = await f.booking({ hostId: w.owner.id, teamId: team.id, eventTypeId: eventType.id });
    const invitee = await server.user();
    const owner = await mint(server, w, w.owner, ['TEAM_MEMBERSHIP_WRITE', 'TEAM_BOOKING_WRITE']);
    const invited = await server.api('POST', `/v2/teams/${team.id}/memberships`, owner, { email: invitee.email, role: 'member' });
    expect(invited.status).toBe(201);

    const book = () => server.api('POST', '/v2/bookings', undefined, { eventTypeId: eventType.id, start: iso(futureStart(server)), attendee: { name: 'Pat', email: 'pat@example.com', timeZone: 'UTC' } });
    const first = await book();
    expect(first.status).toBe(201);
    expect(first.body.data.hostId).toBe(Number(w.owner.id));
    const reassign = await server.api('POST', `/v2/bookings/${busy.uid}/reassign`, await mint(server, w, w.owner, ['BOOKING_WRITE']), { userId: invitee.id });
    expect(reassign.status).toBe(400);
    expect(reassign.body.error.message).toBe("userId: is not a member of the booking's team");

    await acceptInPage(invitee, invited.body.data.id);
    const second = await book();
    expect(second.status).toBe(201);
    expect(second.body.data.hostId).toBe(Number(invitee.id));
  });

  it.skipIf(!available)('an invitation sent to an address before it has an account is waiting when that person registers (docs/rules.md#membership-invitations)', async () => {
    const email = `later-${uniq()}@example.com`;
    const admin = await mint(server, w, w.orgAdmin, ['ORG_MEMBERSHIP_READ', 'ORG_MEMBERSHIP_WRITE']);
    const invited = await server.api('POST', `/v2/organizations/${w.org.id}/memberships`, admin, { email, role: 'member' });
    expect(invited.status).toBe(201);
    const password = `pw-${uniq()}`;
    const row = await createUser(server.services, { email, name: 'Late Comer', password });
    await acceptInPage({ id: row.id, email, password }, invited.body.data.id);
    const users = (await server.api('GET', `/v2/organizations/${w.org.id}/users?limit=100`, admin)).body.data as Array<{ id: string }>;
    expect(users.map((u) => u.id)).toContain(Number(row.id));
  });
});

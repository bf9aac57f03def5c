// Teams' and organizations' memberships over real HTTP on both databases, one server per
// database for every block below (each block builds a world of its own on it): Cal.com's
// membership requests, invitations, team invite links and organization-made accounts, as
// only HTTP shows them. The rules themselves are tested in process
// (test/services/platform/memberships.test.ts, test/services/teams/).
import { beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.ts';
import { loadReference, referenceAvailable } from '../helpers/calcom-reference.ts';
import type { TestClient, TestServer, TestUser } from '../helpers/server.ts';
import { buildWorld, fixtures, futureStart, mint, quickUser, uniq, useServer, useWorld, type World } from './fixtures.ts';
import { addMember, createTeam } from '../../src/services/teams/teams.ts';
import { createUser, resetPassword, verifyPassword } from '../../src/services/accounts/users.ts';
import { browserFor, csrfOf, loggedIn, open, postForm, submit, textOf, visibleText } from '../helpers/pages.ts';
import { hashToken } from '../../src/oauth/token-format.ts';
import { listAuthorizedApps } from '../../src/services/clients/authorized-apps.ts';
import { INVITE_LINK_TTL_MS } from '../../src/services/teams/invite-links.ts';
import { inviteMember } from '../../src/services/teams/invitations.ts';
import { auditEvents } from '../helpers/stores.ts';
import { formFields } from '../helpers/browser.ts';

describe.each(backends)('memberships over HTTP on $name', ({ name, available }) => {
  const shared = useServer(name, available);

  // Cal.com API v2's own membership requests, as its OpenAPI description writes them and its MCP
  // server sends them (`cal-api-version: 2024-08-13`, a JSON body with `userId` a number): upper-case
  // roles, a role left out on create, `accepted` and `disableImpersonation`, a PATCH with any
  // subset of fields; Gatehouse's own (lower-case roles) keep working. Memberships stay
  // invitations (docs/rules.md#membership-invitations): `accepted: true` accepts for no one but an
  // organization's own account, which its admins add to its teams (docs/rules.md#organization-made-accounts),
  // and a pending membership is answered in the platform's shape.
  describe('the platform’s membership requests', () => {
    /** The headers Cal.com's MCP server sends with every request, beside its bearer token. */
    const CALCOM_HEADERS = { 'cal-api-version': '2024-08-13' };

    /** Where Cal.com's answer to an operation is documented: null when it matches, else what differs; null too without the reference. */
    function documentedMismatch(method: string, path: string, status: number, body: unknown): string | null {
      if (!referenceAvailable) return null;
      const { operations, checkResponse } = loadReference();
      const op = operations.find((o) => o.method === method && o.path === path)!;
      return checkResponse(op, status, body);
    }

    let server: TestServer;
    let w: World;
    let f: ReturnType<typeof fixtures>;
    let owner: string;
    beforeAll(async () => {
      if (!available) return;
      server = shared();
      w = await buildWorld(server);
      f = fixtures(server);
      owner = await mint(server, w, w.owner, ['TEAM_MEMBERSHIP_READ', 'TEAM_MEMBERSHIP_WRITE', 'ORG_MEMBERSHIP_READ', 'ORG_MEMBERSHIP_WRITE']);
    });

    const stored = (target: { teamId: string } | { organizationId: string }, id: string) =>
      server.services.stores.api.memberships.findInvitation(target, id);

    it.skipIf(!available)('POST /v2/teams/{teamId}/memberships with the platform’s {userId: number-like, role: ADMIN, accepted: false, disableImpersonation} → 201, an admin invitation stored lower-case', async () => {
      const invitee = await quickUser(server);
      const res = await server.api('POST', `/v2/teams/${w.team.id}/memberships`, owner, { userId: invitee.id, role: 'ADMIN', accepted: false, disableImpersonation: true });
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({ state: 'invited', accepted: false, role: 'ADMIN', userId: Number(invitee.id), user: { email: invitee.email }, invitedUserId: Number(invitee.id), teamId: Number(w.team.id) });
      expect(await stored({ teamId: w.team.id }, String(res.body.data.id))).toMatchObject({ role: 'admin', invitedUserId: invitee.id });
    });

    it.skipIf(!available)('POST without a role invites a member (the platform’s default MEMBER); the lower-case role of Gatehouse’s own request still works', async () => {
      const a = await quickUser(server);
      const b = await quickUser(server);
      const noRole = await server.api('POST', `/v2/organizations/${w.org.id}/memberships`, owner, { userId: a.id });
      expect(noRole.status).toBe(201);
      expect(noRole.body.data).toMatchObject({ state: 'invited', role: 'MEMBER' });
      // An organization's membership names the organization as its teamId (the platform's organization is a team) and has no attributes.
      expect(noRole.body.data).toMatchObject({ accepted: false, teamId: Number(w.org.id), organizationId: Number(w.org.id), attributes: [] });
      const lower = await server.api('POST', `/v2/organizations/${w.org.id}/teams/${w.team.id}/memberships`, owner, { userId: b.id, role: 'owner' });
      expect(lower.status).toBe(201);
      expect(lower.body.data.role).toBe('OWNER');
      expect(lower.body.data).not.toHaveProperty('attributes');
      expect(await stored({ teamId: w.team.id }, String(lower.body.data.id))).toMatchObject({ role: 'owner' });
    });

    it.skipIf(!available)("Cal.com's {userId, accepted: true, role} for a user the organization did not make, on each of the three routes → 201, a pending membership in Cal.com's shape (userId and user of the invitee, accepted: false), and the user is no member (docs/rules.md#membership-invitations)", async () => {
      const routes = [
        ['/v2/teams/{teamId}/memberships', `/v2/teams/${w.team.id}/memberships`, { teamId: w.team.id }],
        ['/v2/organizations/{orgId}/teams/{teamId}/memberships', `/v2/organizations/${w.org.id}/teams/${w.team.id}/memberships`, { teamId: w.team.id }],
        ['/v2/organizations/{orgId}/memberships', `/v2/organizations/${w.org.id}/memberships`, { organizationId: w.org.id }],
      ] as const;
      for (const [documented, path, target] of routes) {
        const invitee = await quickUser(server, 'Ina Invitee');
        const res = await server.api('POST', path, owner, { userId: Number(invitee.id), accepted: true, role: 'MEMBER' }, CALCOM_HEADERS);
        expect(res.status, path).toBe(201);
        expect(res.body.data, path).toMatchObject({ userId: Number(invitee.id), accepted: false, role: 'MEMBER', user: { email: invitee.email, name: 'Ina Invitee' }, state: 'invited' });
        expect(documentedMismatch('POST', documented, res.status, res.body), path).toBeNull();
        expect(await server.services.stores.teams.findMembershipOfUser(target, invitee.id), path).toBeUndefined();
        expect(await stored(target, String(res.body.data.id)), path).toMatchObject({ invitedUserId: invitee.id });
        // Listed and read back in the same shape until the invitee answers.
        const got = await server.api('GET', `${path}/${res.body.data.id}`, owner, undefined, CALCOM_HEADERS);
        expect(got.body.data, path).toEqual(res.body.data);
      }
    });

    it.skipIf(!available)("an organization admin's {userId, accepted: true} of an account the organization made → 201, an accepted member of its team at once; a team admin who is not the organization's admin gets an invitation (docs/rules.md#organization-made-accounts)", async () => {
      const orgAdmin = await mint(server, w, w.orgAdmin, ['ORG_MEMBERSHIP_WRITE', 'TEAM_MEMBERSHIP_WRITE']);
      const made = async () => {
        const res = await server.api('POST', `/v2/organizations/${w.org.id}/users`, orgAdmin, { email: `made-${uniq()}@example.com` }, CALCOM_HEADERS);
        expect(res.status).toBe(201);
        return { id: String(res.body.data.id), email: res.body.data.email as string };
      };
      const own = await made();
      const path = `/v2/organizations/${w.org.id}/teams/${w.team.id}/memberships`;
      const added = await server.api('POST', path, orgAdmin, { userId: Number(own.id), accepted: true, role: 'MEMBER' }, CALCOM_HEADERS);
      expect(added.status).toBe(201);
      expect(added.body.data).toMatchObject({ userId: Number(own.id), teamId: Number(w.team.id), accepted: true, role: 'MEMBER', user: { email: own.email }, state: 'accepted' });
      expect(documentedMismatch('POST', '/v2/organizations/{orgId}/teams/{teamId}/memberships', added.status, added.body)).toBeNull();
      expect(await server.services.stores.teams.findMembershipOfUser({ teamId: w.team.id }, own.id)).toMatchObject({ id: String(added.body.data.id), role: 'member' });

      const another = await made();
      const teamAdmin = await mint(server, w, w.teamAdmin, ['TEAM_MEMBERSHIP_WRITE']);
      const invited = await server.api('POST', `/v2/teams/${w.team.id}/memberships`, teamAdmin, { userId: Number(another.id), accepted: true, role: 'MEMBER' }, CALCOM_HEADERS);
      expect(invited.status).toBe(201);
      expect(invited.body.data).toMatchObject({ userId: Number(another.id), accepted: false, state: 'invited', user: { email: another.email } });
      expect(await server.services.stores.teams.findMembershipOfUser({ teamId: w.team.id }, another.id)).toBeUndefined();
    });

    it.skipIf(!available)('POST naming a userId that no account has → 404 saying so, and nothing is stored', async () => {
      const before = await server.services.stores.api.memberships.listRoster({ teamId: w.team.id }, 100, 0);
      const res = await server.api('POST', `/v2/teams/${w.team.id}/memberships`, owner, { userId: 9_000_000_001, role: 'MEMBER' }, CALCOM_HEADERS);
      expect(res.status).toBe(404);
      expect(res.body.error).toEqual({ code: 'not_found', message: 'no such user 9000000001' });
      expect(await server.services.stores.api.memberships.listRoster({ teamId: w.team.id }, 100, 0)).toEqual(before);
    });

    it.skipIf(!available)('PATCH with the platform’s upper-case role alone, or with only accepted/disableImpersonation, answers 200 and stores what it says', async () => {
      const { membership } = await f.membership({ teamId: w.team.id });
      const path = `/v2/teams/${w.team.id}/memberships/${membership.id}`;
      const promoted = await server.api('PATCH', path, owner, { role: 'ADMIN' });
      expect(promoted.status).toBe(200);
      expect(promoted.body.data).toMatchObject({ id: Number(membership.id), state: 'accepted', accepted: true, role: 'ADMIN' });
      expect(await server.services.stores.api.memberships.findMember({ teamId: w.team.id }, membership.id)).toMatchObject({ role: 'admin' });
      const flags = await server.api('PATCH', path, owner, { accepted: true, disableImpersonation: false });
      expect(flags.status).toBe(200);
      expect(flags.body.data).toMatchObject({ state: 'accepted', role: 'ADMIN' });
      const orgMember = await f.membership({ organizationId: w.org.id });
      const org = await server.api('PATCH', `/v2/organizations/${w.org.id}/memberships/${orgMember.membership.id}`, owner, { role: 'admin' });
      expect(org.status).toBe(200);
      expect(org.body.data.role).toBe('ADMIN');
    });

    it.skipIf(!available)('PATCH accepted: true of an invitation → 400 and it stays invited; accepted: false of a membership → 400 (remove it instead)', async () => {
      const invitee = await quickUser(server);
      const invited = await server.api('POST', `/v2/teams/${w.team.id}/memberships`, owner, { userId: invitee.id });
      const res = await server.api('PATCH', `/v2/teams/${w.team.id}/memberships/${invited.body.data.id}`, owner, { accepted: true });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(/^accepted: /);
      expect(await stored({ teamId: w.team.id }, String(invited.body.data.id))).toMatchObject({ id: String(invited.body.data.id), role: 'member' });
      expect((await server.api('GET', `/v2/teams/${w.team.id}/memberships/${invited.body.data.id}`, owner)).body.data).toMatchObject({ state: 'invited', accepted: false, userId: Number(invitee.id) });
      const { membership } = await f.membership({ teamId: w.team.id });
      const leave = await server.api('PATCH', `/v2/teams/${w.team.id}/memberships/${membership.id}`, owner, { accepted: false });
      expect(leave.status).toBe(400);
      expect(leave.body.error.message).toMatch(/^accepted: .*DELETE/);
    });

    it.skipIf(!available)('DELETE of a team or organization membership, or of an invitation → 200 and the membership as it was, with deleted: true', async () => {
      const { membership, user } = await f.membership({ teamId: w.team.id });
      const team = await server.api('DELETE', `/v2/teams/${w.team.id}/memberships/${membership.id}`, owner);
      expect(team.status).toBe(200);
      expect(team.body.data).toMatchObject({ id: Number(membership.id), userId: Number(user.id), teamId: Number(w.team.id), accepted: true, role: 'MEMBER', user: { email: user.email }, deleted: true });
      expect(await server.services.stores.api.memberships.findMember({ teamId: w.team.id }, membership.id)).toBeUndefined();
      // Audited as the CLI's removal is, by the person the token acts for.
      expect(await server.services.stores.auditLog.list({ userId: user.id })).toEqual([expect.objectContaining({ type: 'membership.removed', actorId: w.owner.id, data: { teamId: w.team.id, role: 'member' } })]);
      const orgMember = await f.membership({ organizationId: w.org.id });
      const org = await server.api('DELETE', `/v2/organizations/${w.org.id}/memberships/${orgMember.membership.id}`, owner);
      expect(org.body.data).toMatchObject({ id: Number(orgMember.membership.id), userId: Number(orgMember.user.id), teamId: Number(w.org.id), accepted: true, attributes: [], deleted: true });
      const invitee = await quickUser(server);
      const invited = await server.api('POST', `/v2/teams/${w.team.id}/memberships`, owner, { userId: invitee.id });
      const withdrawn = await server.api('DELETE', `/v2/teams/${w.team.id}/memberships/${invited.body.data.id}`, owner);
      expect(withdrawn.body.data).toEqual({ ...invited.body.data, deleted: true });
      expect(await stored({ teamId: w.team.id }, String(invited.body.data.id))).toBeUndefined();
    });

    it.skipIf(!available)('GET /v2/organizations/{orgId}/users → each user with hideBranding false, createdDate and the profile of their organization membership', async () => {
      const { user, membership } = await f.membership({ organizationId: w.org.id });
      const res = await server.api('GET', `/v2/organizations/${w.org.id}/users?take=100`, owner);
      expect(res.status).toBe(200);
      const row = (await server.services.stores.users.findById(user.id))!;
      const listed = res.body.data.find((u: { id: number }) => u.id === Number(user.id));
      expect(listed).toMatchObject({
        email: user.email,
        hideBranding: false,
        createdDate: new Date(row.createdAt).toISOString(),
        profile: { id: Number(membership.id), organizationId: Number(w.org.id), userId: Number(user.id), username: row.username },
      });
      const changed = await server.api('PATCH', `/v2/organizations/${w.org.id}/users/${user.id}`, owner, { name: 'Changed Name' });
      expect(changed.body.data).toEqual({ ...listed, name: 'Changed Name', defaultScheduleId: null, organizationId: Number(w.org.id), avatarUrl: null, bio: null });
    });

    it.skipIf(!available)('PATCH /v2/organizations/{orgId}/users/{userId} with the platform’s empty body → 200, the user as they are; a name still changes', async () => {
      const { user } = await f.membership({ organizationId: w.org.id });
      const before = (await server.services.stores.users.findById(user.id))!;
      const empty = await server.api('PATCH', `/v2/organizations/${w.org.id}/users/${user.id}`, owner, {});
      expect(empty.status).toBe(200);
      expect(empty.body.data).toMatchObject({ id: Number(user.id), name: before.name });
      expect((await server.services.stores.users.findById(user.id))!.updatedAt).toBe(before.updatedAt);
      const renamed = await server.api('PATCH', `/v2/organizations/${w.org.id}/users/${user.id}`, owner, { name: 'New Name' });
      expect(renamed.status).toBe(200);
      expect((await server.services.stores.users.findById(user.id))!.name).toBe('New Name');
    });
  });

  // Memberships are invitations (docs/rules.md#membership-invitations): adding someone to a team or organization
  // through the API grants nothing until they accept in the web app, and the answer to an
  // invitation by e-mail is the same whether or not the address belongs to an account. Every
  // request here is the one an attacker holding an admin's token would send.
  describe('membership invitations', () => {
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

    let server: TestServer;
    let w: World;
    let f: ReturnType<typeof fixtures>;
    useWorld(shared, available, (started) => ({ server, w, f } = started));

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

  // Team invite links (docs/rules.md#membership-invitations) at the platform's addresses,
  // POST /v2/teams/{teamId}/invite and its organization form: a team admin makes a link, the
  // token is shown once and kept only as a hash, and whoever opens the link signed in (or logs
  // in first) joins the team as an accepted member until it expires. Through real HTTP, on
  // both databases.
  describe('team invite links', () => {
    const SCOPES = ['TEAM_MEMBERSHIP_WRITE'];
    /** What a link that no longer works answers, whatever ended it. */
    const GONE = 'This invite link does not work: it expired, was revoked, or whoever made it can no longer invite to the team. Ask the team for a new one.';
    /** What someone who left or was removed gets from a link made before. */
    const LEFT = 'You left this team, or were removed from it, after this link was made: ask its admins for a new invitation.';

    let server: TestServer;
    let w: World;
    useWorld(shared, available, (started) => ({ server, w } = started));

    const membershipOf = async (userId: string, teamId: string) => (await server.services.stores.teams.listMembershipsOfUser(userId)).find((m) => m.teamId === teamId);
    const rowsAt = (rows: Array<{ created_at: number | string; expires_at: number | string }>) => ({ created_at: Number(rows[0]!.created_at), expires_at: Number(rows[0]!.expires_at) });
    /** The path and query of an invite link, as the browser opens it. */
    const pathOf = (link: string) => link.slice(server.url.length);

    it.skipIf(!available)('POST /v2/teams/{teamId}/invite answers the platform shape: a token and the link to the web app page, not cached; only the hash is stored', async () => {
      const admin = await mint(server, w, w.teamAdmin, SCOPES);
      const res = await server.api('POST', `/v2/teams/${w.team.id}/invite`, admin);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.body.status).toBe('success');
      const { token, inviteLink, expiresAt } = res.body.data;
      expect(token).toMatch(/^gti_[0-9A-Za-z]{49}$/);
      expect(inviteLink).toBe(`${server.url}/teams/join?token=${token}`);
      const created = rowsAt(await server.db.selectFrom('team_invite_links').select(['created_at', 'expires_at']).where('token_hash', '=', hashToken(token)).execute());
      expect(Date.parse(expiresAt)).toBe(created.expires_at);
      expect(created.expires_at - created.created_at).toBe(INVITE_LINK_TTL_MS);

      const rows = await server.db.selectFrom('team_invite_links').selectAll().where('team_id', '=', w.team.id).execute();
      expect(rows.map((r) => r.token_hash)).toContain(hashToken(token));
      expect(JSON.stringify(rows)).not.toContain(token);

      // Each call makes a new link.
      const again = await server.api('POST', `/v2/teams/${w.team.id}/invite`, admin);
      expect(again.body.data.token).not.toBe(token);
    });

    it.skipIf(!available)('the organization form answers for a team of that organization; another organization\'s path is 404', async () => {
      const orgAdmin = await mint(server, w, w.orgAdmin, SCOPES);
      const res = await server.api('POST', `/v2/organizations/${w.org.id}/teams/${w.team.id}/invite`, orgAdmin);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data.inviteLink).toContain('/teams/join?token=gti_');
      expect((await server.api('POST', `/v2/organizations/${w.otherOrg.id}/teams/${w.team.id}/invite`, orgAdmin)).status).toBe(404);
    });

    it.skipIf(!available)('opening the link signed out asks to log in first and comes back; Join makes an accepted member and takes the pending invitation with it', async () => {
      const made = await server.api('POST', `/v2/teams/${w.team.id}/invite`, await mint(server, w, w.teamAdmin, SCOPES));
      const path = pathOf(made.body.data.inviteLink);
      const { user, browser } = await loggedIn(server, { name: 'Lin Linker' });
      await inviteMember(server.services, { teamId: w.team.id }, { email: user.email }, 'admin', w.owner.id);

      const anonymous = await server.browser().get(path);
      expect(anonymous.status).toBe(303);
      expect(anonymous.location).toBe(`/login?next=${encodeURIComponent(path)}`);
      // The token never reaches the log in clear, even inside the login's next.
      expect(server.logs.join('\n')).not.toContain(made.body.data.token);

      const page = await open(browser, path);
      expect(page.status).toBe(200);
      expect(page.headers.get('cache-control')).toBe('no-store');
      expect(textOf(page.body, 'join-title')).toBe('Join Sales?');
      expect(visibleText(page.body)).toContain('This link makes you a member of the team.');
      expect(textOf(page.body, 'join-consequence')).toContain('If you accept, you become a host of the team’s bookings');
      expect(await membershipOf(user.id, w.team.id)).toBeUndefined();

      const joined = await postForm(browser, '/teams/join', { _csrf: csrfOf(page.body), token: formFields(page.body).token! });
      expect(joined.status).toBe(303);
      const membership = await membershipOf(user.id, w.team.id);
      expect(membership).toMatchObject({ role: 'member', teamId: w.team.id });
      expect(joined.location).toBe(`/settings/teams?accepted=${membership!.id}`);
      expect(textOf((await browser.follow(joined)).body, 'flash')).toBe('You joined Sales.');
      expect(await server.services.stores.invitations.listFor({ id: user.id, email: user.email })).toEqual([]);

      // The team sees an accepted member through the API.
      const listed = await server.api('GET', `/v2/teams/${w.team.id}/memberships`, await mint(server, w, w.teamAdmin, ['TEAM_MEMBERSHIP_READ']));
      expect(listed.body.data).toContainEqual(expect.objectContaining({ userId: Number(user.id), accepted: true, role: 'MEMBER' }));

      // Joining again changes nothing; the link still works for someone else until it expires.
      const twice = await postForm(browser, '/teams/join', { _csrf: csrfOf(page.body), token: formFields(page.body).token! });
      expect(twice.location).toBe(`/settings/teams?accepted=${membership!.id}`);
      const second = await loggedIn(server, { name: 'Sam Second' });
      const secondPage = await open(second.browser, path);
      expect(secondPage.status).toBe(200);
      expect((await postForm(second.browser, '/teams/join', { _csrf: csrfOf(secondPage.body), token: formFields(secondPage.body).token! })).status).toBe(303);
      expect(await membershipOf(second.user.id, w.team.id)).toMatchObject({ role: 'member' });
    });

    it.skipIf(!available)('an expired, unknown or malformed token is 404 with a page saying to ask for a new link, and joins nothing', async () => {
      const made = await server.api('POST', `/v2/teams/${w.loneTeam.id}/invite`, await mint(server, w, w.owner, SCOPES));
      expect(made.status).toBe(200);
      const { user, browser } = await loggedIn(server);
      const page = await open(browser, pathOf(made.body.data.inviteLink));
      expect(page.status).toBe(200);
      const csrf = csrfOf(page.body);

      // Its seven days are over (the clock stays, so the session does too).
      await server.db.updateTable('team_invite_links').set({ expires_at: server.clock() - 1 }).where('token_hash', '=', hashToken(made.body.data.token)).execute();
      const expired = await browser.get(pathOf(made.body.data.inviteLink));
      expect(expired.status).toBe(404);
      expect(visibleText(expired.body)).toContain(GONE);
      expect((await postForm(browser, '/teams/join', { _csrf: csrf, token: made.body.data.token })).status).toBe(404);
      for (const token of ['', 'nope', `gti_${'A'.repeat(49)}`]) {
        expect((await browser.get(`/teams/join?token=${encodeURIComponent(token)}`)).status).toBe(404);
      }
      expect((await browser.get('/teams/join')).status).toBe(404);
      expect(await membershipOf(user.id, w.loneTeam.id)).toBeUndefined();
    });

    /** The link the token's user makes for the team through the API. */
    async function linkBy(token: string, teamId = w.team.id): Promise<{ token: string; inviteLink: string }> {
      const made = await server.api('POST', `/v2/teams/${teamId}/invite`, token);
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      return made.body.data;
    }

    /** Someone new opens the link signed in: the join page's status. */
    const newcomerOpens = async (link: { inviteLink: string }) => (await (await loggedIn(server)).browser.get(pathOf(link.inviteLink))).status;

    it.skipIf(!available)('docs/rules.md#invite-links: an admin the owner removed opens the link they made while admin and chooses Join: refused, and the team stays closed to them', async () => {
      const { user: ex, browser } = await loggedIn(server, { name: 'Exa Ex-Admin' });
      const adminship = await addMember(server.services, { teamId: w.team.id }, ex.id, 'admin');
      const exToken = await mint(server, w, ex, [...SCOPES, 'TEAM_MEMBERSHIP_READ', 'TEAM_BOOKING_READ']);
      const link = await linkBy(exToken);
      const page = await open(browser, pathOf(link.inviteLink));

      const removed = await server.api('DELETE', `/v2/teams/${w.team.id}/memberships/${adminship.id}`, await mint(server, w, w.owner, SCOPES));
      expect(removed.status, JSON.stringify(removed.body)).toBe(200);

      const again = await browser.get(pathOf(link.inviteLink));
      expect(again.status).toBe(404);
      expect(visibleText(again.body)).toContain(GONE);
      const join = await postForm(browser, '/teams/join', { _csrf: csrfOf(page.body), token: formFields(page.body).token! });
      expect(join.status).toBe(404);
      expect(visibleText(join.body)).toContain(GONE);
      expect(await membershipOf(ex.id, w.team.id)).toBeUndefined();
      for (const path of [`/v2/teams/${w.team.id}/memberships`, `/v2/teams/${w.team.id}/bookings`]) {
        expect((await server.api('GET', path, exToken)).status, path).toBe(403);
      }
      // Nor does anyone else join through it: its maker can no longer invite.
      expect(await newcomerOpens(link)).toBe(404);
    });

    it.skipIf(!available)('docs/rules.md#invite-links: a member removed, or who left, cannot come back through a link made before, though its maker still administers the team; a later link works', async () => {
      const adminToken = await mint(server, w, w.teamAdmin, SCOPES);
      const { user: rex, browser } = await loggedIn(server, { name: 'Rex Removed' });
      const membership = await addMember(server.services, { teamId: w.team.id }, rex.id, 'member');
      const before = await linkBy(adminToken);
      const page = await open(browser, pathOf(before.inviteLink));
      expect((await server.api('DELETE', `/v2/teams/${w.team.id}/memberships/${membership.id}`, adminToken)).status).toBe(200);

      const reopened = await browser.get(pathOf(before.inviteLink));
      expect(reopened.status).toBe(403);
      expect(visibleText(reopened.body)).toContain(LEFT);
      const join = await postForm(browser, '/teams/join', { _csrf: csrfOf(page.body), token: before.token });
      expect(join.status).toBe(403);
      expect(await membershipOf(rex.id, w.team.id)).toBeUndefined();
      // The link itself still works for others.
      expect(await newcomerOpens(before)).toBe(200);

      // A link made after the removal takes them back...
      const after = await linkBy(adminToken);
      const afterPage = await open(browser, pathOf(after.inviteLink));
      expect((await postForm(browser, '/teams/join', { _csrf: csrfOf(afterPage.body), token: after.token })).status).toBe(303);
      const back = await membershipOf(rex.id, w.team.id);
      expect(back).toMatchObject({ role: 'member' });
      // ...until they leave: then it no longer does.
      expect((await submit(browser, `/settings/teams/memberships/${back!.id}/leave`, `/settings/teams/memberships/${back!.id}/leave`, {})).status).toBe(303);
      expect((await browser.get(pathOf(after.inviteLink))).status).toBe(403);
      expect((await postForm(browser, '/teams/join', { _csrf: csrfOf(afterPage.body), token: after.token })).status).toBe(403);
      expect(await membershipOf(rex.id, w.team.id)).toBeUndefined();
    });

    it.skipIf(!available)("docs/rules.md#invite-links: a link works only while its maker administers the team or its organization, and again once they do", async () => {
      const orgAdmin = await quickUser(server, 'Oda Org-Admin');
      const orgRole = await addMember(server.services, { organizationId: w.org.id }, orgAdmin.id, 'admin');
      const teamAdmin = await quickUser(server, 'Tia Team-Admin');
      const teamRole = await addMember(server.services, { teamId: w.team.id }, teamAdmin.id, 'admin');
      const byOrgAdmin = await linkBy(await mint(server, w, orgAdmin, SCOPES));
      const byTeamAdmin = await linkBy(await mint(server, w, teamAdmin, SCOPES));
      expect(await newcomerOpens(byOrgAdmin)).toBe(200);
      expect(await newcomerOpens(byTeamAdmin)).toBe(200);

      const teams = server.services.stores.teams;
      await teams.setMembershipRole(orgRole.id, 'member', server.clock());
      await teams.setMembershipRole(teamRole.id, 'member', server.clock());
      expect(await newcomerOpens(byOrgAdmin)).toBe(404);
      expect(await newcomerOpens(byTeamAdmin)).toBe(404);
      await teams.setMembershipRole(orgRole.id, 'owner', server.clock());
      await teams.setMembershipRole(teamRole.id, 'admin', server.clock());
      expect(await newcomerOpens(byOrgAdmin)).toBe(200);
      expect(await newcomerOpens(byTeamAdmin)).toBe(200);
    });

    it.skipIf(!available)('docs/rules.md#invite-links: a link an application made with a team token dies with that grant when the admin revokes the application', async () => {
      const { user: ann, browser } = await loggedIn(server, { name: 'Ann App-User' });
      await addMember(server.services, { teamId: w.team.id }, ann.id, 'admin');
      const back = await server.authorize(browser, { client_id: w.client.clientId, redirect_uri: w.client.redirectUri, response_type: 'code', scope: 'TEAM_MEMBERSHIP_WRITE', state: 's', team_slug: w.team.slug });
      const exchanged = await server.exchange(w.client, back.searchParams.get('code')!);
      expect(exchanged.status).toBe(200);
      const link = await linkBy(exchanged.body.access_token as string);
      const { browser: newcomer } = await loggedIn(server, { name: 'Nia Newcomer' });
      const page = await open(newcomer, pathOf(link.inviteLink));

      const [grant] = await listAuthorizedApps(server.services, ann.id);
      const revokePath = `/settings/authorized-apps/grants/${grant!.grantId}/revoke`;
      const revoked = await submit(browser, revokePath, revokePath, {});
      expect(revoked.status).toBe(303);
      expect((await newcomer.get(pathOf(link.inviteLink))).status).toBe(404);
      expect((await postForm(newcomer, '/teams/join', { _csrf: csrfOf(page.body), token: link.token })).status).toBe(404);
      // The admin's own standing is untouched: a link they make now works.
      expect(await newcomerOpens(await linkBy(await mint(server, w, ann, SCOPES)))).toBe(200);
    });

    it.skipIf(!available)("docs/rules.md#invite-links: a team's admins list its live links, who made each and through which application, and revoke one; a member cannot", async () => {
      const { user: lia, browser } = await loggedIn(server, { name: 'Lia Lister' });
      await addMember(server.services, { teamId: w.loneTeam.id }, lia.id, 'admin');
      const first = await linkBy(await mint(server, w, lia, SCOPES), w.loneTeam.id);
      const second = await linkBy(await mint(server, w, w.owner, SCOPES), w.loneTeam.id);
      const idOf = async (link: { token: string }) => (await server.services.stores.inviteLinks.findLive(hashToken(link.token), server.clock()))!.id;
      const [firstId, secondId] = [await idOf(first), await idOf(second)];
      const path = `/settings/teams/${w.loneTeam.id}/invite-links`;

      expect((await open(browser, '/settings/teams')).body).toContain(`href="${path}"`);
      const page = await open(browser, path);
      expect(page.headers.get('cache-control')).toBe('no-store');
      expect(textOf(page.body, 'invite-links-title')).toBe('Invite links of Lone');
      expect(textOf(page.body, `link-${firstId}`)).toContain('Made by Lia Lister through Test App');
      expect(textOf(page.body, `link-${secondId}`)).toContain('Made by Olive Owner through Test App');
      expect(page.body).not.toContain(first.token);

      const revoked = await postForm(browser, `${path}/${firstId}/revoke`, { _csrf: csrfOf(page.body) });
      expect(revoked.status).toBe(303);
      expect(revoked.location).toBe(`${path}?revoked=1`);
      const after = await browser.follow(revoked);
      expect(textOf(after.body, 'flash')).toBe('The link was revoked: nobody can join through it any more.');
      expect(textOf(after.body, `link-${firstId}`)).toBeNull();
      expect(await newcomerOpens(first)).toBe(404);
      expect(await newcomerOpens(second)).toBe(200);
      const events = (await auditEvents(server, { type: 'invite_link.revoked' })).filter((e) => e.actorId === lia.id);
      expect(events).toEqual([expect.objectContaining({ data: { teamId: w.loneTeam.id, linkId: firstId } })]);

      const { user: mo, browser: memberBrowser } = await loggedIn(server, { name: 'Mo Member' });
      await addMember(server.services, { teamId: w.loneTeam.id }, mo.id, 'member');
      expect((await memberBrowser.get(path)).status).toBe(404);
      expect((await open(memberBrowser, '/settings/teams')).body).not.toContain(`href="${path}"`);
      const refused = await postForm(memberBrowser, `${path}/${secondId}/revoke`, { _csrf: csrfOf((await open(memberBrowser, `/settings/teams/memberships/${(await membershipOf(mo.id, w.loneTeam.id))!.id}/leave`)).body) });
      expect(refused.status).toBe(404);
      expect(await newcomerOpens(second)).toBe(200);
    });
  });

  // Accounts an organization's admin makes and deletes at Cal.com API v2's addresses
  // (POST /v2/organizations/{orgId}/users, DELETE …/users/{userId}; docs/rules.md#organization-made-accounts):
  // a made account is an accepted member with no password, nothing of a password is answered,
  // and it signs in once an operator sets one; a delete removes the account only when the
  // organization made it, it belongs nowhere else and it owns no OAuth client and gave no grant;
  // any other user only leaves the organization.
  describe('organization-made accounts', () => {
    const WRITE = ['ORG_MEMBERSHIP_READ', 'ORG_MEMBERSHIP_WRITE'];

    let server: TestServer;
    let w: World;
    let f: ReturnType<typeof fixtures>;
    let admin: string;
    let base: string;
    beforeAll(async () => {
      if (!available) return;
      server = shared();
      w = await buildWorld(server);
      f = fixtures(server);
      admin = await mint(server, w, w.orgAdmin, WRITE);
      base = `/v2/organizations/${w.org.id}/users`;
    });

    const newAddress = () => `made-${uniq().toLowerCase()}@example.com`;
    const create = (body: unknown, token = admin) => server.api('POST', base, token, body);
    const orgUserIds = async () => (await server.services.stores.api.memberships.listOrganizationUsers(w.org.id, 100, 0)).map((u) => u.id);

    it.skipIf(!available)('POST …/users → 201: an accepted member in the platform shape, no password made, mailed or answered; the audit names the admin', async () => {
      const email = newAddress();
      const res = await create({ email, username: 'Made.User-1', timeZone: 'Europe/Berlin', weekday: 'Sunday', timeFormat: 12, organizationRole: 'MEMBER', autoAccept: true, bio: 'not kept' });
      expect(res.status).toBe(201);
      const id = String(res.body.data.id);
      expect(res.body.data).toMatchObject({
        email,
        username: 'made.user-1',
        name: 'Made.User-1',
        timeZone: 'Europe/Berlin',
        weekStart: 'Sunday',
        timeFormat: 12,
        organizationId: Number(w.org.id),
        role: 'member',
        hideBranding: false,
        profile: { organizationId: Number(w.org.id), userId: Number(id), username: 'made.user-1' },
      });
      expect(JSON.stringify(res.body)).not.toMatch(/password|argon2|not kept/i);
      expect(await orgUserIds()).toContain(id);
      const listed = await server.api('GET', base, admin);
      expect(listed.body.data.map((u: { id: number }) => String(u.id))).toContain(id);
      const [event] = await server.services.stores.auditLog.list({ userId: id });
      expect(event).toMatchObject({ type: 'user.created_by_organization', actorId: w.orgAdmin.id, userId: id, data: { organizationId: w.org.id, role: 'member' } });
      // No password signs in until an operator sets one; then that one does.
      expect(await verifyPassword(server.services, email, '')).toBeUndefined();
      expect(await verifyPassword(server.services, email, '!no-password')).toBeUndefined();
      await resetPassword(server.services, email, 'a new long password', null);
      expect((await verifyPassword(server.services, email, 'a new long password'))?.id).toBe(id);
    });

    it.skipIf(!available)('POST …/users with only an email → 201: the name is the mailbox, the defaults of a new account', async () => {
      const email = newAddress();
      const res = await create({ email });
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({ email, name: email.split('@')[0], timeZone: 'UTC', weekStart: 'Monday', timeFormat: 24, role: 'member' });
    });

    it.skipIf(!available)('POST …/users refusals: a taken address or username → 409, an admin making an owner → 403, bad fields → 400 naming them; nothing is made', async () => {
      const before = await orgUserIds();
      const taken = await create({ email: w.outsider.email });
      expect(taken.status).toBe(409);
      expect(taken.body.error.message).toMatch(/already exists/);
      const username = `u-${uniq().toLowerCase()}`;
      expect((await create({ email: newAddress(), username })).status).toBe(201);
      const sameName = await create({ email: newAddress(), username });
      expect(sameName.status).toBe(409);
      expect(sameName.body.error.message).toMatch(/username/);
      const owner = await create({ email: newAddress(), organizationRole: 'OWNER' });
      expect(owner.status).toBe(403);
      const cases: Array<[unknown, RegExp]> = [
        [{}, /email/],
        [{ email: 'not an address' }, /email/],
        [{ email: newAddress(), autoAccept: false }, /^autoAccept: /],
        [{ email: newAddress(), timeZone: 'Mars/Olympus' }, /^timeZone: /],
        [{ email: newAddress(), weekday: 'Someday' }, /weekday/],
        [{ email: newAddress(), timeFormat: 13 }, /timeFormat/],
        [{ email: newAddress(), username: '-bad name' }, /username/],
        [{ email: newAddress(), organizationRole: 'KING' }, /organizationRole/],
      ];
      for (const [body, message] of cases) {
        const res = await create(body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.error.message, JSON.stringify(body)).toMatch(message);
      }
      expect((await orgUserIds()).length).toBe(before.length + 1);
    });

    it.skipIf(!available)('DELETE …/users/{id} of an account the organization made and that belongs nowhere else → 200 "account deleted": the account is gone, audited', async () => {
      const made = await create({ email: newAddress() });
      const id = String(made.body.data.id);
      const res = await server.api('DELETE', `${base}/${id}`, admin);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ id: Number(id), email: made.body.data.email, outcome: 'account deleted' });
      expect(await server.services.stores.users.findById(id)).toBeUndefined();
      expect(await orgUserIds()).not.toContain(id);
      const [event] = await server.services.stores.auditLog.list({ userId: id });
      expect(event).toMatchObject({ type: 'user.deleted_by_organization', actorId: w.orgAdmin.id, data: { organizationId: w.org.id, userId: id, email: made.body.data.email } });
    });

    it.skipIf(!available)('DELETE …/users/{id} of a user who signed up on their own, or of a made account that joined elsewhere → 200 "removed from the organization": the account stays', async () => {
      const { user } = await f.membership({ organizationId: w.org.id });
      const res = await server.api('DELETE', `${base}/${user.id}`, admin);
      expect(res.status).toBe(200);
      expect(res.body.data.outcome).toBe('removed from the organization');
      expect(await server.services.stores.users.findById(user.id)).toBeDefined();
      expect(await orgUserIds()).not.toContain(user.id);
      const [event] = await server.services.stores.auditLog.list({ userId: user.id });
      expect(event).toMatchObject({ type: 'membership.removed', actorId: w.orgAdmin.id, data: { organizationId: w.org.id, role: 'member' } });

      const made = await create({ email: newAddress() });
      const madeId = String(made.body.data.id);
      await addMember(server.services, { organizationId: w.otherOrg.id }, madeId, 'member');
      const joined = await server.api('DELETE', `${base}/${madeId}`, admin);
      expect(joined.status).toBe(200);
      expect(joined.body.data.outcome).toBe('removed from the organization');
      expect(await server.services.stores.users.findById(madeId)).toBeDefined();
      expect(await server.services.stores.api.memberships.isMember({ organizationId: w.otherOrg.id }, madeId)).toBe(true);
    });

    /** An account the organization made, also in a team of the organization: all its memberships are the organization's. */
    async function madeAccount(): Promise<{ id: string; email: string; password: string }> {
      const email = newAddress();
      const made = await create({ email });
      expect(made.status).toBe(201);
      const id = String(made.body.data.id);
      await addMember(server.services, { teamId: w.team.id }, id, 'member');
      const password = `pw-${uniq()}-long enough`;
      await resetPassword(server.services, email, password, null);
      return { id, email, password };
    }

    /** The DELETE answer when the account is kept: the user as they were, only removed from the organization. */
    async function expectOnlyRemoved(account: { id: string; email: string }): Promise<void> {
      const res = await server.api('DELETE', `${base}/${account.id}`, admin);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ id: Number(account.id), email: account.email, outcome: 'removed from the organization' });
      expect(await server.services.stores.users.findById(account.id)).toMatchObject({ id: account.id, email: account.email });
      expect(await orgUserIds()).not.toContain(account.id);
      const [event] = await server.services.stores.auditLog.list({ userId: account.id });
      expect(event).toMatchObject({ type: 'membership.removed', actorId: w.orgAdmin.id, data: { organizationId: w.org.id, role: 'member' } });
    }

    const introspect = (client: TestClient, token: string) =>
      server.post('/v2/auth/oauth2/introspect', new URLSearchParams({ token, client_id: client.clientId, client_secret: client.secret! }).toString(), { 'content-type': 'application/x-www-form-urlencoded' });

    it.skipIf(!available)('docs/rules.md#organization-made-accounts: DELETE …/users/{id} of a made account that owns an OAuth client → 200 "removed from the organization": the account and its client stay, and the client still authenticates', async () => {
      const account = await madeAccount();
      const app = await server.client(account);
      await expectOnlyRemoved(account);
      expect(await server.services.stores.clients.find(app.clientId)).toMatchObject({ id: app.clientId, ownerId: account.id, state: 'approved' });
      const answer = await introspect(app, 'gat_x');
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ active: false });
    });

    it.skipIf(!available)('docs/rules.md#organization-made-accounts: DELETE …/users/{id} of a made account that gave a grant → 200 "removed from the organization": the account stays, and so do the grant and its tokens, which still reach the API and refresh', async () => {
      const account = await madeAccount();
      const app = await server.client(await server.user());
      const tokens = await server.exchange(app, await server.code(app, account));
      expect(tokens.status).toBe(200);
      const access = tokens.body.access_token as string;
      await expectOnlyRemoved(account);
      const me = await server.api('GET', '/v2/me', access);
      expect(me.status).toBe(200);
      expect(me.body.data.email).toBe(account.email);
      expect((await introspect(app, access)).body).toMatchObject({ active: true, client_id: app.clientId });
      const refreshed = await server.token({ grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token as string, client_id: app.clientId, client_secret: app.secret! });
      expect(refreshed.status).toBe(200);

      // "Gave no grant": a grant revoked since was still given, and its row stays with the tokens that point at it.
      const revoker = await madeAccount();
      const given = await server.exchange(app, await server.code(app, revoker));
      const revoked = await server.post('/v2/auth/oauth2/revoke', new URLSearchParams({ token: given.body.refresh_token as string, client_id: app.clientId, client_secret: app.secret! }).toString(), { 'content-type': 'application/x-www-form-urlencoded' });
      expect(revoked.status).toBe(200);
      expect((await server.api('GET', '/v2/me', given.body.access_token as string)).status).toBe(401);
      await expectOnlyRemoved(revoker);
    });

    it.skipIf(!available)('docs/rules.md#organization-made-accounts: a made account like those, in the same organization and team and signed in, that owns no client and gave no grant is deleted: "account deleted", its memberships gone', async () => {
      const account = await madeAccount();
      const browser = server.browser();
      expect((await browser.login(account.email, account.password)).status).toBe(303);
      expect((await browser.get('/settings/webhooks')).status).toBe(200);
      const res = await server.api('DELETE', `${base}/${account.id}`, admin);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ id: Number(account.id), email: account.email, outcome: 'account deleted' });
      expect(await server.services.stores.users.findById(account.id)).toBeUndefined();
      expect(await server.services.stores.teams.listMembershipsOfUser(account.id)).toEqual([]);
      expect(await orgUserIds()).not.toContain(account.id);
      // Its session ended with it.
      expect((await browser.get('/settings/webhooks')).status).toBe(303);
    });

    it.skipIf(!available)("DELETE of another organization's user or of no member → 404, and they stay; the last owner stays (409); only an owner removes an owner (403)", async () => {
      for (const id of [w.outsider.id, w.member.id, '999999']) {
        const res = await server.api('DELETE', `${base}/${id}`, admin);
        expect(res.status, id).toBe(404);
      }
      expect(await server.services.stores.users.findById(w.outsider.id)).toBeDefined();
      const byAdmin = await server.api('DELETE', `${base}/${w.owner.id}`, admin);
      expect(byAdmin.status).toBe(403);
      const ownerToken = await mint(server, w, w.owner, WRITE);
      const last = await server.api('DELETE', `${base}/${w.owner.id}`, ownerToken);
      expect(last.status).toBe(409);
      expect(last.body.error.message).toMatch(/at least one owner/);
      expect(await orgUserIds()).toContain(w.owner.id);
    });

    it.skipIf(!available)('a token without ORG_MEMBERSHIP_WRITE is 403 insufficient_scope naming it; a member who is not an admin, or an admin of another organization, is 403', async () => {
      const readOnly = await mint(server, w, w.orgAdmin, ['ORG_MEMBERSHIP_READ']);
      const { user } = await f.membership({ organizationId: w.org.id });
      for (const [method, path, body] of [['POST', base, { email: newAddress() }], ['DELETE', `${base}/${user.id}`, undefined]] as const) {
        const res = await server.api(method, path, readOnly, body);
        expect(res.status, method).toBe(403);
        expect(res.body.error.code).toBe('insufficient_scope');
        expect(res.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="ORG_MEMBERSHIP_WRITE"');
      }
      const memberToken = await mint(server, w, user, WRITE);
      const byMember = await server.api('POST', base, memberToken, { email: newAddress() });
      expect(byMember.status).toBe(403);
      expect(byMember.body.error.message).toMatch(/admin or owner of the organization/);
      const elsewhere = await server.api('POST', `/v2/organizations/${w.otherOrg.id}/users`, admin, { email: newAddress() });
      expect(elsewhere.status).toBe(403);
      expect(await orgUserIds()).toContain(user.id);
    });
  });
});

// Cal.com API v2's own membership requests, as its OpenAPI description writes them and its MCP
// server sends them (`cal-api-version: 2024-08-13`, a JSON body with `userId` a number): upper-case
// roles, a role left out on create, `accepted` and `disableImpersonation`, a PATCH with any
// subset of fields; Gatehouse's own (lower-case roles) keep working. Memberships stay
// invitations (docs/rules.md#membership-invitations): `accepted: true` accepts for no one but an
// organization's own account, which its admins add to its teams (docs/rules.md#organization-made-accounts),
// and a pending membership is answered in the platform's shape.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.ts';
import { loadReference, referenceAvailable } from '../helpers/calcom-reference.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { buildWorld, fixtures, mint, quickUser, uniq, type World } from './fixtures.ts';

/** The headers Cal.com's MCP server sends with every request, beside its bearer token. */
const CALCOM_HEADERS = { 'cal-api-version': '2024-08-13' };

/** Where Cal.com's answer to an operation is documented: null when it matches, else what differs; null too without the reference. */
function documentedMismatch(method: string, path: string, status: number, body: unknown): string | null {
  if (!referenceAvailable) return null;
  const { operations, checkResponse } = loadReference();
  const op = operations.find((o) => o.method === method && o.path === path)!;
  return checkResponse(op, status, body);
}

describe.each(backends)('the platform’s membership requests on $name', ({ name, available }) => {
  let server: TestServer;
  let w: World;
  let f: ReturnType<typeof fixtures>;
  let owner: string;
  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer(name);
    w = await buildWorld(server);
    f = fixtures(server);
    owner = await mint(server, w, w.owner, ['TEAM_MEMBERSHIP_READ', 'TEAM_MEMBERSHIP_WRITE', 'ORG_MEMBERSHIP_READ', 'ORG_MEMBERSHIP_WRITE']);
  });
  afterAll(async () => server?.close());

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

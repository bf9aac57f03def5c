// Cal.com API v2's own membership requests, as its OpenAPI description writes them: upper-case
// roles, a role left out on create, `accepted` and `disableImpersonation`, a PATCH with any
// subset of fields; Gatehouse's own (lower-case roles) keep working. Memberships stay
// invitations (docs/rules.md#membership-invitations): `accepted: true` never accepts for anyone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { buildWorld, fixtures, mint, quickUser, type World } from './fixtures.ts';

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
    expect(res.body.data).toMatchObject({ state: 'invited', accepted: false, role: 'ADMIN', invitedUserId: Number(invitee.id), teamId: Number(w.team.id) });
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

  it.skipIf(!available)('POST with accepted: true → 400 naming accepted, and no invitation is stored: only the invitee accepts (docs/rules.md#membership-invitations)', async () => {
    const invitee = await quickUser(server);
    const before = await server.services.stores.api.memberships.listRoster({ teamId: w.team.id }, 100, 0);
    const res = await server.api('POST', `/v2/teams/${w.team.id}/memberships`, owner, { userId: invitee.id, role: 'MEMBER', accepted: true });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'validation_error', message: expect.stringMatching(/^accepted: .*invitee accepts/) });
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
    expect((await server.api('GET', `/v2/teams/${w.team.id}/memberships/${invited.body.data.id}`, owner)).body.data).toMatchObject({ state: 'invited', accepted: false, userId: null });
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

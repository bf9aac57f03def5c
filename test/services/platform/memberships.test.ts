// The roster's and an organization's users' rules (src/platform/memberships/service.ts), called
// in process: an invitation names exactly one of a user and an address and is never accepted by
// the inviter (but an organization's admin adds the organization's own accounts to its teams at
// once), one by user id shows that user, only an owner touches the owner role, the last owner stays, another team's
// membership is 404, and an organization's accounts are made, changed and deleted as
// docs/rules.md#organization-made-accounts says. What only HTTP shows (the scopes, the roles the
// guard checks, the answers' shape) is tested in test/platform/memberships*.test.ts.
import { describe, expect } from 'vitest';
import {
  addMembership,
  changeMembership,
  createOrganizationUser,
  deleteUserOfOrganization,
  findMembership,
  listOrganizationUsers,
  listRoster,
  removeMembership,
  updateOrganizationUser,
  type PendingInvitation,
  type RosterScope,
} from '../../../src/platform/memberships/service.ts';
import { it, type PlatformWorld } from './world.ts';

const teamScope = (teamId: string, callerIsOwner = true): RosterScope => ({ kind: 'team', target: { teamId }, callerIsOwner });
const orgScope = (organizationId: string, callerIsOwner = true): RosterScope => ({ kind: 'organization', target: { organizationId }, callerIsOwner });

/** The team's accepted membership of the user, as the roster lists it. */
async function membershipOf(world: PlatformWorld, teamId: string, userId: string): Promise<string> {
  const entry = (await listRoster(world.ctx, { teamId }, 100, 0)).find((e) => e.state === 'accepted' && e.userId === userId);
  return entry!.id;
}

/** The roster's accepted membership of the user. */
const ownerIdOf = (roster: { state: string; id: string; userId?: string | null }[], userId: string) => roster.find((e) => e.state === 'accepted' && e.userId === userId)!.id;

describe('the roster', () => {
  it('an invitation names exactly one of userId and email, is never accepted by the inviter, and shows in the roster as invited', async ({ world }) => {
    const owner = await world.user();
    const teamId = await world.team(owner);
    const scope = teamScope(teamId);
    await expect(addMembership(world.ctx, scope, { role: 'member' }, owner)).rejects.toMatchObject({ kind: 'validation', message: 'userId: give exactly one of userId and email' });
    await expect(addMembership(world.ctx, scope, { role: 'member', userId: owner, email: 'a@example.com' }, owner)).rejects.toMatchObject({ kind: 'validation', message: 'userId: give exactly one of userId and email' });
    expect((await listRoster(world.ctx, { teamId }, 100, 0)).map((e) => e.state)).toEqual(['accepted']);

    const { invitation } = (await addMembership(world.ctx, scope, { role: 'admin', email: ' Ana@Example.com ', accepted: false }, owner)) as { invitation: PendingInvitation };
    expect(invitation).toEqual({ id: expect.any(String), teamId, organizationId: null, role: 'admin', invitedEmail: 'ana@example.com', invitedUserId: null, invitee: null, createdAt: world.now(), updatedAt: world.now() });
    const roster = await listRoster(world.ctx, { teamId }, 100, 0);
    expect(roster.map((e) => [e.state, e.id])).toEqual([['accepted', expect.any(String)], ['invited', invitation.id]]);
    expect(await findMembership(world.ctx, { teamId }, invitation.id)).toEqual({ invitation });
  });

  it("an invitation by address shows nothing of the account it may belong to, even one of the address's own", async ({ world }) => {
    const owner = await world.user();
    const teamId = await world.team(owner);
    await world.user({ email: 'kim@example.com', name: 'Kim Known' });
    const known = await addMembership(world.ctx, teamScope(teamId), { role: 'member', email: 'kim@example.com' }, owner);
    const unknown = await addMembership(world.ctx, teamScope(teamId), { role: 'member', email: 'nobody@example.com' }, owner);
    expect(known).toMatchObject({ invitation: { invitedEmail: 'kim@example.com', invitedUserId: null, invitee: null } });
    expect(unknown).toMatchObject({ invitation: { invitedEmail: 'nobody@example.com', invitedUserId: null, invitee: null } });
    expect((await listRoster(world.ctx, { teamId }, 100, 0)).filter((e) => e.state === 'invited').map((e) => 'invitee' in e && e.invitee)).toEqual([null, null]);
  });

  it('an invitation by user id shows that user, as the platform answers a pending membership; an id that names no account is 404 and stores nothing', async ({ world }) => {
    const owner = await world.user();
    const teamId = await world.team(owner);
    const ada = await world.user({ email: 'ada@example.com', name: 'Ada' });
    const invited = await addMembership(world.ctx, teamScope(teamId), { role: 'member', userId: ada }, owner);
    expect(invited).toEqual({
      invitation: expect.objectContaining({ teamId, role: 'member', invitedEmail: null, invitedUserId: ada, invitee: { email: 'ada@example.com', name: 'Ada', username: `user-${ada}` } }),
    });
    expect((await listRoster(world.ctx, { teamId }, 100, 0))[1]).toMatchObject({ state: 'invited', invitedUserId: ada, invitee: { email: 'ada@example.com' } });
    await expect(addMembership(world.ctx, teamScope(teamId), { role: 'member', userId: '999999' }, owner)).rejects.toMatchObject({ kind: 'not_found', message: 'no such user 999999' });
    expect(await listRoster(world.ctx, { teamId }, 100, 0)).toHaveLength(2);
  });

  it('accepted: true from the inviter is an invitation like any other, answered as one, for a team or an organization, by id or address', async ({ world }) => {
    const owner = await world.user();
    const organizationId = await world.organization(owner);
    const teamId = await world.team(owner, { organizationId });
    const ben = await world.user();
    for (const [scope, input] of [
      [teamScope(teamId), { userId: ben }],
      [orgScope(organizationId), { userId: ben }],
      [teamScope(teamId), { email: 'cy@example.com' }],
    ] as const) {
      const added = await addMembership(world.ctx, scope, { role: 'member', accepted: true, ...input }, owner);
      expect(added).toMatchObject({ invitation: { role: 'member' } });
    }
    expect(await world.ctx.stores.teams.findMembershipOfUser({ teamId }, ben)).toBeUndefined();
    expect(await world.ctx.stores.teams.findMembershipOfUser({ organizationId }, ben)).toBeUndefined();
  });

  it('only an owner invites an owner', async ({ world }) => {
    const owner = await world.user();
    const teamId = await world.team(owner);
    await expect(addMembership(world.ctx, teamScope(teamId, false), { role: 'owner', email: 'a@example.com' }, owner)).rejects.toMatchObject({
      kind: 'forbidden',
      message: 'only an owner of the team may grant, change or remove the owner role',
    });
    expect(await addMembership(world.ctx, teamScope(teamId, false), { role: 'member', email: 'a@example.com' }, owner)).toMatchObject({ invitation: { role: 'member' } });
  });

  it("another team's membership or invitation is 404, and neither changes nor goes", async ({ world }) => {
    const owner = await world.user();
    const mine = await world.team(owner);
    const theirs = await world.team(await world.user());
    const { invitation } = (await addMembership(world.ctx, teamScope(theirs), { role: 'member', email: 'a@example.com' }, owner)) as { invitation: PendingInvitation };
    const theirMember = await world.user();
    await world.join({ teamId: theirs }, theirMember);
    const member = await membershipOf(world, theirs, theirMember);
    for (const id of [invitation.id, member, '999999']) {
      await expect(findMembership(world.ctx, { teamId: mine }, id)).rejects.toMatchObject({ kind: 'not_found', message: 'no such membership' });
      await expect(changeMembership(world.ctx, teamScope(mine), id, { role: 'admin' })).rejects.toMatchObject({ kind: 'not_found' });
      await expect(removeMembership(world.ctx, teamScope(mine), id, owner)).rejects.toMatchObject({ kind: 'not_found' });
    }
    expect(await listRoster(world.ctx, { teamId: theirs }, 100, 0)).toHaveLength(3);
    expect(await findMembership(world.ctx, { teamId: theirs }, member)).toMatchObject({ member: { role: 'member' } });
  });

  it("an invitation's role changes at the clock, but it cannot be accepted by the inviter", async ({ world }) => {
    const owner = await world.user();
    const teamId = await world.team(owner);
    const { invitation } = (await addMembership(world.ctx, teamScope(teamId), { role: 'member', userId: await world.user() }, owner)) as { invitation: PendingInvitation };
    await expect(changeMembership(world.ctx, teamScope(teamId), invitation.id, { accepted: true })).rejects.toMatchObject({ kind: 'validation', message: expect.stringMatching(/^accepted: cannot be set to true/) });
    await expect(changeMembership(world.ctx, teamScope(teamId, false), invitation.id, { role: 'owner' })).rejects.toMatchObject({ kind: 'forbidden' });
    world.advance(5_000);
    expect(await changeMembership(world.ctx, teamScope(teamId), invitation.id, { role: 'admin' })).toEqual({ invitation: { ...invitation, role: 'admin', updatedAt: world.now() } });
    expect(await changeMembership(world.ctx, teamScope(teamId), invitation.id, {})).toMatchObject({ invitation: { role: 'admin' } });
  });

  it("a member's role changes, only an owner touches an owner's, accepted cannot be false, and the last owner stays owner", async ({ world }) => {
    const owner = await world.user();
    const teamId = await world.team(owner);
    const member = await world.user();
    await world.join({ teamId }, member);
    const id = await membershipOf(world, teamId, member);
    const ownerId = await membershipOf(world, teamId, owner);
    await expect(changeMembership(world.ctx, teamScope(teamId), id, { accepted: false })).rejects.toMatchObject({ kind: 'validation', message: expect.stringMatching(/^accepted: cannot be set to false/) });
    await expect(changeMembership(world.ctx, teamScope(teamId, false), id, { role: 'owner' })).rejects.toMatchObject({ kind: 'forbidden' });
    await expect(changeMembership(world.ctx, teamScope(teamId, false), ownerId, { role: 'member' })).rejects.toMatchObject({ kind: 'forbidden' });
    await expect(changeMembership(world.ctx, teamScope(teamId), ownerId, { role: 'admin' })).rejects.toMatchObject({ kind: 'conflict', message: 'the team must keep at least one owner: make someone else owner first' });
    expect(await changeMembership(world.ctx, teamScope(teamId, false), id, { role: 'admin' })).toMatchObject({ member: { role: 'admin' } });
    expect(await changeMembership(world.ctx, teamScope(teamId), id, { role: 'owner' })).toMatchObject({ member: { role: 'owner' } });
    // With a second owner, the first may step down.
    expect(await changeMembership(world.ctx, teamScope(teamId), ownerId, { role: 'member' })).toMatchObject({ member: { role: 'member' } });
  });

  it('removing withdraws an invitation or removes a member, answered as it was; the last owner stays', async ({ world }) => {
    const owner = await world.user();
    const teamId = await world.team(owner);
    const { invitation } = (await addMembership(world.ctx, teamScope(teamId), { role: 'owner', email: 'a@example.com' }, owner)) as { invitation: PendingInvitation };
    await expect(removeMembership(world.ctx, teamScope(teamId, false), invitation.id, owner)).rejects.toMatchObject({ kind: 'forbidden' });
    expect(await removeMembership(world.ctx, teamScope(teamId), invitation.id, owner)).toEqual({ invitation });
    const ownerId = await membershipOf(world, teamId, owner);
    await expect(removeMembership(world.ctx, teamScope(teamId), ownerId, owner)).rejects.toMatchObject({ kind: 'conflict', message: 'the team must keep at least one owner: make someone else owner first' });
    const member = await world.user();
    await world.join({ teamId }, member);
    const id = await membershipOf(world, teamId, member);
    expect(await removeMembership(world.ctx, teamScope(teamId, false), id, owner)).toMatchObject({ member: { id, userId: member } });
    expect((await listRoster(world.ctx, { teamId }, 100, 0)).map((e) => e.id)).toEqual([ownerId]);
  });

  it('a member removed through the API is audited as membership.removed by the caller, as the CLI does; a withdrawn invitation was no membership', async ({ world }) => {
    const owner = await world.user();
    const teamId = await world.team(owner);
    const member = await world.user();
    await world.join({ teamId }, member);
    await removeMembership(world.ctx, teamScope(teamId), await membershipOf(world, teamId, member), owner);
    expect(await world.ctx.stores.auditLog.list({ userId: member })).toEqual([expect.objectContaining({ type: 'membership.removed', actorId: owner, userId: member, data: { teamId, role: 'member' } })]);
    const invitee = await world.user();
    const { invitation } = (await addMembership(world.ctx, teamScope(teamId), { role: 'member', userId: invitee }, owner)) as { invitation: PendingInvitation };
    await removeMembership(world.ctx, teamScope(teamId), invitation.id, owner);
    expect((await world.ctx.stores.auditLog.list({ userId: invitee })).filter((e) => e.type === 'membership.removed')).toEqual([]);
  });

  it("removing an organization's member also clears the user's organization", async ({ world }) => {
    const owner = await world.user();
    const organizationId = await world.organization(owner);
    const member = await world.user();
    await world.join({ organizationId }, member);
    expect((await world.ctx.stores.users.findById(member))?.organizationId).toBe(organizationId);
    const id = (await listRoster(world.ctx, { organizationId }, 100, 0)).find((e) => e.state === 'accepted' && e.userId === member)!.id;
    await expect(removeMembership(world.ctx, orgScope(organizationId), ownerIdOf(await listRoster(world.ctx, { organizationId }, 100, 0), owner), owner)).rejects.toMatchObject({
      message: 'the organization must keep at least one owner: make someone else owner first',
    });
    await removeMembership(world.ctx, orgScope(organizationId), id, owner);
    expect((await world.ctx.stores.users.findById(member))?.organizationId).toBeNull();
  });
});

describe("an organization's own accounts join its teams at once (docs/rules.md#organization-made-accounts)", () => {
  /** An organization with an admin (not owner) and a team, and an account the organization made. */
  async function organizationWithOwnAccount(world: PlatformWorld) {
    const owner = await world.user();
    const organizationId = await world.organization(owner);
    const orgAdmin = await world.user();
    await world.join({ organizationId }, orgAdmin, 'admin');
    const teamId = await world.team(owner, { organizationId });
    const made = await createOrganizationUser(world.ctx, { organizationId, callerIsOwner: true }, { email: 'made@example.com', role: 'member' }, owner);
    return { owner, organizationId, orgAdmin, teamId, made: made.user.id };
  }

  it("with accepted: true, the organization's admin makes its account an accepted member of its team, the account's invitations there gone, audited; a second time is a conflict", async ({ world }) => {
    const { organizationId, orgAdmin, teamId, made } = await organizationWithOwnAccount(world);
    // A team admin's earlier invitation of the same person, by address.
    await addMembership(world.ctx, teamScope(teamId), { role: 'member', email: 'made@example.com' }, orgAdmin);
    world.advance(1000);

    const added = await addMembership(world.ctx, teamScope(teamId, false), { role: 'admin', userId: made, accepted: true }, orgAdmin);
    expect(added).toEqual({
      member: { id: expect.any(String), userId: made, teamId, organizationId: null, role: 'admin', user: { email: 'made@example.com', name: 'made', username: expect.any(String) }, createdAt: world.now(), updatedAt: world.now() },
    });
    expect((await listRoster(world.ctx, { teamId }, 100, 0)).map((e) => [e.state, 'userId' in e ? e.userId : null])).toEqual([['accepted', expect.any(String)], ['accepted', made]]);
    expect((await world.ctx.stores.auditLog.list({ userId: made }))[0]).toMatchObject({ type: 'membership.added', actorId: orgAdmin, data: { teamId, role: 'admin' } });
    expect((await world.ctx.stores.users.findById(made))?.organizationId).toBe(organizationId);

    await expect(addMembership(world.ctx, teamScope(teamId, false), { role: 'member', userId: made, accepted: true }, orgAdmin)).rejects.toMatchObject({
      kind: 'conflict',
      message: 'that user is already a member of this team',
    });
  });

  it("without accepted: true, or asked by the team's admin who is not the organization's, the organization's own account is invited as anyone is", async ({ world }) => {
    const { orgAdmin, teamId, made } = await organizationWithOwnAccount(world);
    const teamAdmin = await world.user();
    await world.join({ teamId }, teamAdmin, 'admin');
    expect(await addMembership(world.ctx, teamScope(teamId, false), { role: 'member', userId: made, accepted: true }, teamAdmin)).toMatchObject({ invitation: { invitedUserId: made } });
    const otherTeam = await world.team(orgAdmin, { organizationId: (await world.ctx.stores.teams.findTeam(teamId))!.organizationId! });
    expect(await addMembership(world.ctx, teamScope(otherTeam, false), { role: 'member', userId: made }, orgAdmin)).toMatchObject({ invitation: { invitedUserId: made } });
    expect(await addMembership(world.ctx, teamScope(otherTeam, false), { role: 'member', email: 'made@example.com', accepted: true }, orgAdmin)).toMatchObject({ invitation: { invitedEmail: 'made@example.com' } });
    expect(await world.ctx.stores.teams.findMembershipOfUser({ teamId }, made)).toBeUndefined();
    expect(await world.ctx.stores.teams.findMembershipOfUser({ teamId: otherTeam }, made)).toBeUndefined();
  });

  it("accepted: true is an invitation for every other account: one the organization did not make, another organization's, one that left the organization, and for the organization itself or a team outside it", async ({ world }) => {
    const { owner, organizationId, orgAdmin, teamId, made } = await organizationWithOwnAccount(world);
    const joined = await world.user();
    await world.join({ organizationId }, joined);
    const rivalOwner = await world.user();
    const rival = await world.organization(rivalOwner, 'Rival');
    const theirs = (await createOrganizationUser(world.ctx, { organizationId: rival, callerIsOwner: true }, { email: 'theirs@example.com', role: 'member' }, rivalOwner)).user.id;
    const left = (await createOrganizationUser(world.ctx, { organizationId, callerIsOwner: true }, { email: 'left@example.com', role: 'member' }, owner)).user.id;
    await world.join({ teamId: await world.team(rivalOwner) }, left);
    expect(await deleteUserOfOrganization(world.ctx, { organizationId, callerIsOwner: true }, left, owner)).toMatchObject({ outcome: 'removed from the organization' });
    const loneTeam = await world.team(orgAdmin);

    for (const userId of [joined, theirs, left]) {
      expect(await addMembership(world.ctx, teamScope(teamId, false), { role: 'member', userId, accepted: true }, orgAdmin), userId).toMatchObject({ invitation: { invitedUserId: userId } });
    }
    expect(await addMembership(world.ctx, teamScope(loneTeam), { role: 'member', userId: made, accepted: true }, orgAdmin)).toMatchObject({ invitation: { invitedUserId: made } });
    // The organization itself: its own account that was removed from it comes back only by accepting.
    const second = (await createOrganizationUser(world.ctx, { organizationId, callerIsOwner: true }, { email: 'second@example.com', role: 'member' }, owner)).user;
    await removeMembership(world.ctx, orgScope(organizationId), second.membershipId, owner);
    expect(await addMembership(world.ctx, orgScope(organizationId), { role: 'member', userId: second.id, accepted: true }, orgAdmin)).toMatchObject({ invitation: { invitedUserId: second.id } });
    expect((await listRoster(world.ctx, { teamId }, 100, 0)).filter((e) => e.state === 'accepted')).toHaveLength(1);
  });
});

describe("an organization's users", () => {
  it('an account the organization makes is its member at once, named from the username or the mailbox; its fields are checked first', async ({ world }) => {
    const owner = await world.user();
    const organizationId = await world.organization(owner);
    const scope = { organizationId, callerIsOwner: true };
    await expect(createOrganizationUser(world.ctx, scope, { email: 'x@example.com', role: 'member', autoAccept: false }, owner)).rejects.toMatchObject({ kind: 'validation', message: expect.stringMatching(/^autoAccept: must be true/) });
    await expect(createOrganizationUser(world.ctx, scope, { email: 'x@example.com', role: 'member', timeZone: 'Mars/Olympus' }, owner)).rejects.toMatchObject({ kind: 'validation', message: expect.stringMatching(/^timeZone: /) });
    await expect(createOrganizationUser(world.ctx, { organizationId, callerIsOwner: false }, { email: 'x@example.com', role: 'owner' }, owner)).rejects.toMatchObject({ kind: 'forbidden', message: 'only an owner of the organization may grant, change or remove the owner role' });
    await expect(createOrganizationUser(world.ctx, scope, { email: 'x@example.com', role: 'member', name: '   ' }, owner)).rejects.toMatchObject({ kind: 'validation', message: 'name: must not be blank' });
    await expect(createOrganizationUser(world.ctx, scope, { email: 'x@example.com', role: 'member', name: 'a\nb' }, owner)).rejects.toMatchObject({ kind: 'validation', message: expect.stringMatching(/^name: /) });
    expect(await listOrganizationUsers(world.ctx, organizationId, 100, 0)).toHaveLength(1);

    const made = await createOrganizationUser(world.ctx, scope, { email: ' Xena@Example.com ', role: 'admin', username: 'Xena.W', weekStart: 'Sunday', timeFormat: 24, timeZone: 'Europe/Berlin' }, owner);
    expect(made.user).toMatchObject({ email: 'xena@example.com', username: 'xena.w', name: 'Xena.W', role: 'admin', createdAt: world.now() });
    expect(made.profile).toMatchObject({ id: made.user.id, weekStart: 'Sunday', timeFormat: 24, timeZone: 'Europe/Berlin', organizationId });
    const byMailbox = await createOrganizationUser(world.ctx, scope, { email: 'yan@example.com', role: 'member' }, owner);
    expect(byMailbox.user.name).toBe('yan');
    expect((await listOrganizationUsers(world.ctx, organizationId, 100, 0)).map((u) => u.id)).toEqual([owner, made.user.id, byMailbox.user.id]);
  });

  it("an organization deletes its own account, only removes another's, keeps its last owner, and answers the user as they were", async ({ world }) => {
    const owner = await world.user();
    const organizationId = await world.organization(owner);
    const scope = { organizationId, callerIsOwner: true };
    const made = await createOrganizationUser(world.ctx, scope, { email: 'made@example.com', role: 'member' }, owner);
    const joined = await world.user();
    await world.join({ organizationId }, joined);
    const outsider = await world.user();

    await expect(deleteUserOfOrganization(world.ctx, scope, outsider, owner)).rejects.toMatchObject({ kind: 'not_found', message: 'no such user in this organization' });
    await expect(deleteUserOfOrganization(world.ctx, { organizationId, callerIsOwner: false }, owner, owner)).rejects.toMatchObject({ kind: 'forbidden' });
    await expect(deleteUserOfOrganization(world.ctx, scope, owner, owner)).rejects.toMatchObject({ kind: 'conflict', message: 'the organization must keep at least one owner: make someone else owner first' });

    const deleted = await deleteUserOfOrganization(world.ctx, scope, made.user.id, owner);
    expect(deleted).toMatchObject({ outcome: 'account deleted', user: { id: made.user.id, email: 'made@example.com' } });
    expect(await world.ctx.stores.users.findById(made.user.id)).toBeUndefined();
    expect(await deleteUserOfOrganization(world.ctx, scope, joined, owner)).toMatchObject({ outcome: 'removed from the organization', user: { id: joined } });
    expect(await world.ctx.stores.users.findById(joined)).toBeDefined();
    expect((await listOrganizationUsers(world.ctx, organizationId, 100, 0)).map((u) => u.id)).toEqual([owner]);
  });

  it("a user's profile changes only while they are the organization's member; no field changes nothing", async ({ world }) => {
    const owner = await world.user();
    const organizationId = await world.organization(owner);
    const member = await world.user({ name: 'Mia' });
    await world.join({ organizationId }, member);
    const outsider = await world.user({ name: 'Out' });
    await expect(updateOrganizationUser(world.ctx, organizationId, outsider, { name: 'Changed' })).rejects.toMatchObject({ kind: 'not_found', message: 'no such user in this organization' });
    expect((await world.ctx.stores.users.findById(outsider))?.name).toBe('Out');
    await expect(updateOrganizationUser(world.ctx, organizationId, member, { name: ' ' })).rejects.toMatchObject({ kind: 'validation', message: 'name: must not be blank' });
    expect(await updateOrganizationUser(world.ctx, organizationId, member, {})).toMatchObject({ profile: { name: 'Mia' }, user: { id: member, role: 'member' } });
    const changed = await updateOrganizationUser(world.ctx, organizationId, member, { name: ' Mia K ', timeZone: 'Asia/Tokyo' });
    expect(changed.profile).toMatchObject({ name: 'Mia K', timeZone: 'Asia/Tokyo' });
    expect(await world.ctx.stores.users.findById(member)).toMatchObject({ name: 'Mia K', timeZone: 'Asia/Tokyo' });
  });
});

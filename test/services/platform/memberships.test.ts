// The roster's and an organization's users' rules (src/platform/memberships/service.ts), called
// in process: an invitation names exactly one of a user and an address and is never accepted by
// the inviter, only an owner touches the owner role, the last owner stays, another team's
// membership is 404, and an organization's accounts are made, changed and deleted as
// docs/rules.md#organization-made-accounts says. What only HTTP shows (the scopes, the roles the
// guard checks, the answers' shape) is tested in test/platform/memberships*.test.ts.
import { describe, expect } from 'vitest';
import {
  changeMembership,
  createOrganizationUser,
  deleteUserOfOrganization,
  findMembership,
  invite,
  listOrganizationUsers,
  listRoster,
  removeMembership,
  updateOrganizationUser,
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
    await expect(invite(world.ctx, scope, { role: 'member' }, owner)).rejects.toMatchObject({ kind: 'validation', message: 'userId: give exactly one of userId and email' });
    await expect(invite(world.ctx, scope, { role: 'member', userId: owner, email: 'a@example.com' }, owner)).rejects.toMatchObject({ kind: 'validation', message: 'userId: give exactly one of userId and email' });
    await expect(invite(world.ctx, scope, { role: 'member', email: 'a@example.com', accepted: true }, owner)).rejects.toMatchObject({ kind: 'validation', message: expect.stringMatching(/^accepted: must be false or left out/) });
    expect((await listRoster(world.ctx, { teamId }, 100, 0)).map((e) => e.state)).toEqual(['accepted']);

    const invited = await invite(world.ctx, scope, { role: 'admin', email: ' Ana@Example.com ', accepted: false }, owner);
    expect(invited).toMatchObject({ teamId, role: 'admin', invitedEmail: 'ana@example.com', invitedUserId: null, createdAt: world.now() });
    const roster = await listRoster(world.ctx, { teamId }, 100, 0);
    expect(roster.map((e) => [e.state, e.id])).toEqual([['accepted', expect.any(String)], ['invited', invited.id]]);
    expect(await findMembership(world.ctx, { teamId }, invited.id)).toEqual({ invitation: invited });
  });

  it('only an owner invites an owner', async ({ world }) => {
    const owner = await world.user();
    const teamId = await world.team(owner);
    await expect(invite(world.ctx, teamScope(teamId, false), { role: 'owner', email: 'a@example.com' }, owner)).rejects.toMatchObject({
      kind: 'forbidden',
      message: 'only an owner of the team may grant, change or remove the owner role',
    });
    expect(await invite(world.ctx, teamScope(teamId, false), { role: 'member', email: 'a@example.com' }, owner)).toMatchObject({ role: 'member' });
  });

  it("another team's membership or invitation is 404, and neither changes nor goes", async ({ world }) => {
    const owner = await world.user();
    const mine = await world.team(owner);
    const theirs = await world.team(await world.user());
    const invitation = await invite(world.ctx, teamScope(theirs), { role: 'member', email: 'a@example.com' }, owner);
    const theirMember = await world.user();
    await world.join({ teamId: theirs }, theirMember);
    const member = await membershipOf(world, theirs, theirMember);
    for (const id of [invitation.id, member, '999999']) {
      await expect(findMembership(world.ctx, { teamId: mine }, id)).rejects.toMatchObject({ kind: 'not_found', message: 'no such membership' });
      await expect(changeMembership(world.ctx, teamScope(mine), id, { role: 'admin' })).rejects.toMatchObject({ kind: 'not_found' });
      await expect(removeMembership(world.ctx, teamScope(mine), id)).rejects.toMatchObject({ kind: 'not_found' });
    }
    expect(await listRoster(world.ctx, { teamId: theirs }, 100, 0)).toHaveLength(3);
    expect(await findMembership(world.ctx, { teamId: theirs }, member)).toMatchObject({ member: { role: 'member' } });
  });

  it("an invitation's role changes at the clock, but it cannot be accepted by the inviter", async ({ world }) => {
    const owner = await world.user();
    const teamId = await world.team(owner);
    const invitation = await invite(world.ctx, teamScope(teamId), { role: 'member', userId: await world.user() }, owner);
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
    const invitation = await invite(world.ctx, teamScope(teamId), { role: 'owner', email: 'a@example.com' }, owner);
    await expect(removeMembership(world.ctx, teamScope(teamId, false), invitation.id)).rejects.toMatchObject({ kind: 'forbidden' });
    expect(await removeMembership(world.ctx, teamScope(teamId), invitation.id)).toEqual({ invitation });
    const ownerId = await membershipOf(world, teamId, owner);
    await expect(removeMembership(world.ctx, teamScope(teamId), ownerId)).rejects.toMatchObject({ kind: 'conflict', message: 'the team must keep at least one owner: make someone else owner first' });
    const member = await world.user();
    await world.join({ teamId }, member);
    const id = await membershipOf(world, teamId, member);
    expect(await removeMembership(world.ctx, teamScope(teamId, false), id)).toMatchObject({ member: { id, userId: member } });
    expect((await listRoster(world.ctx, { teamId }, 100, 0)).map((e) => e.id)).toEqual([ownerId]);
  });

  it("removing an organization's member also clears the user's organization", async ({ world }) => {
    const owner = await world.user();
    const organizationId = await world.organization(owner);
    const member = await world.user();
    await world.join({ organizationId }, member);
    expect((await world.ctx.stores.users.findById(member))?.organizationId).toBe(organizationId);
    const id = (await listRoster(world.ctx, { organizationId }, 100, 0)).find((e) => e.state === 'accepted' && e.userId === member)!.id;
    await expect(removeMembership(world.ctx, orgScope(organizationId), ownerIdOf(await listRoster(world.ctx, { organizationId }, 100, 0), owner))).rejects.toMatchObject({
      message: 'the organization must keep at least one owner: make someone else owner first',
    });
    await removeMembership(world.ctx, orgScope(organizationId), id);
    expect((await world.ctx.stores.users.findById(member))?.organizationId).toBeNull();
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

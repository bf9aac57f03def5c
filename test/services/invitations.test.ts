// Memberships made by invitation (src/services/teams/invitations.ts) and the accounts an
// organization makes (src/services/teams/organization-accounts.ts), called in process over
// SQLite :memory: through the real adapters. The API's routes over them (who may invite, the
// 400 for `accepted: true`, only an owner grants owner) are tested in test/platform; the page
// the invitee answers on in test/web/teams-page.test.ts.
import { describe, expect } from 'vitest';
import { NO_PASSWORD } from '../../src/services/accounts/passwords.ts';
import { acceptInvitation, declineInvitation, inviteMember, listInvitationsFor } from '../../src/services/teams/invitations.ts';
import { createOrganizationAccount, deleteOrganizationUser, type NewOrganizationAccount } from '../../src/services/teams/organization-accounts.ts';
import { removeMemberByEmail } from '../../src/services/teams/teams.ts';
import { it, type PlatformWorld } from './platform/world.ts';

/** The account as an invitation's answerer: its id and its (lower-case) address. */
async function answerer(world: PlatformWorld, userId: string) {
  const user = (await world.ctx.stores.users.findById(userId))!;
  return { id: user.id, email: user.email };
}

describe('memberships are invitations (docs/rules.md#membership-invitations)', () => {
  it('inviting stores an open invitation and no membership: until accepted, nothing is shared', async ({ world }) => {
    const owner = await world.user();
    const teamId = await world.team(owner);
    const ada = await world.user({ email: 'ada@example.com' });
    world.advance(1000);
    const invitation = await inviteMember(world.ctx, { teamId }, { email: '  Ada@Example.COM ' }, 'admin', owner);
    expect(invitation).toMatchObject({ teamId, organizationId: null, email: 'ada@example.com', userId: null, role: 'admin', invitedBy: owner, createdAt: world.now() });
    expect(await world.ctx.stores.teams.findMembershipOfUser({ teamId }, ada)).toBeUndefined();
    expect((await world.ctx.stores.teams.listMembers({ teamId }, 10)).map((m) => m.userId)).toEqual([owner]);
    const listed = await listInvitationsFor(world.ctx, await answerer(world, ada));
    expect(listed.map((i) => [i.id, i.role, i.targetName, i.inviterName])).toEqual([[invitation.id, 'admin', expect.any(String), expect.any(String)]]);
  });

  it('the answer is the same whether or not the address belongs to an account, and no account is looked for', async ({ world }) => {
    const owner = await world.user();
    const teamId = await world.team(owner);
    await world.user({ email: 'ada@example.com' });
    const known = await inviteMember(world.ctx, { teamId }, { email: 'ada@example.com' }, 'member', owner);
    const unknown = await inviteMember(world.ctx, { teamId }, { email: 'nobody@example.com' }, 'member', owner);
    const shape = (i: typeof known) => Object.keys(i).sort().join() + [i.userId, i.role, i.teamId].join();
    expect(shape(unknown)).toBe(shape(known));
    expect(unknown.email).toBe('nobody@example.com');
    // An invitation by a user id is stored as given, existing or not.
    expect((await inviteMember(world.ctx, { teamId }, { userId: '999999' }, 'member', owner)).userId).toBe('999999');
  });

  it('an accepted member cannot be invited again, by address or by id; an open invitation cannot be repeated', async ({ world }) => {
    const owner = await world.user({ email: 'owner@example.com' });
    const organizationId = await world.organization(owner);
    await expect(inviteMember(world.ctx, { organizationId }, { email: 'OWNER@example.com' }, 'member', owner)).rejects.toMatchObject({
      kind: 'conflict',
      field: 'email',
      message: 'that user is already a member of this organization',
    });
    await expect(inviteMember(world.ctx, { organizationId }, { userId: owner }, 'member', owner)).rejects.toMatchObject({ kind: 'conflict', field: 'userId' });
    await inviteMember(world.ctx, { organizationId }, { email: 'ada@example.com' }, 'member', owner);
    await expect(inviteMember(world.ctx, { organizationId }, { email: 'ada@example.com' }, 'admin', owner)).rejects.toMatchObject({
      kind: 'conflict',
      message: 'that address is already invited to this organization: the invitation waits for an answer',
    });
    await expect(inviteMember(world.ctx, { organizationId }, { email: 'ada@example.com' }, 'chief', owner)).rejects.toMatchObject({ kind: 'validation', field: 'role' });
  });

  it('only the invitee accepts: anyone else finds no open invitation, and it stays open', async ({ world }) => {
    const owner = await world.user();
    const teamId = await world.team(owner);
    const ada = await world.user({ email: 'ada@example.com' });
    const invitation = await inviteMember(world.ctx, { teamId }, { email: 'ada@example.com' }, 'admin', owner);
    // The inviter and a stranger.
    for (const other of [owner, await world.user()]) {
      await expect(acceptInvitation(world.ctx, await answerer(world, other), invitation.id)).rejects.toMatchObject({ kind: 'not_found', message: expect.stringContaining('no longer open') });
      await expect(declineInvitation(world.ctx, await answerer(world, other), invitation.id)).rejects.toMatchObject({ kind: 'not_found' });
    }
    expect(await world.ctx.stores.teams.findMembershipOfUser({ teamId }, owner)).toMatchObject({ role: 'owner' });
    expect(await listInvitationsFor(world.ctx, await answerer(world, ada))).toHaveLength(1);

    const membership = await acceptInvitation(world.ctx, await answerer(world, ada), invitation.id);
    expect(membership).toMatchObject({ id: invitation.id, userId: ada, teamId, role: 'admin' });
    expect(await world.ctx.stores.teams.findMembershipOfUser({ teamId }, ada)).toEqual(membership);
    expect(await listInvitationsFor(world.ctx, await answerer(world, ada))).toEqual([]);
  });

  it('an invitation by user id is answered by that account alone; accepting is single use', async ({ world }) => {
    const owner = await world.user();
    const teamId = await world.team(owner);
    const ada = await world.user();
    const invitation = await inviteMember(world.ctx, { teamId }, { userId: ada }, 'member', owner);
    await acceptInvitation(world.ctx, await answerer(world, ada), invitation.id);
    await expect(acceptInvitation(world.ctx, await answerer(world, ada), invitation.id)).rejects.toMatchObject({ kind: 'not_found' });
    expect((await world.ctx.stores.teams.listMembers({ teamId }, 10)).map((m) => m.userId)).toEqual([owner, ada]);
  });

  it("accepting takes the account's other invitations to the same place with it, by address and by id, and leaves others", async ({ world }) => {
    const owner = await world.user();
    const teamId = await world.team(owner);
    const otherTeam = await world.team(owner);
    const ada = await world.user({ email: 'ada@example.com' });
    const byAddress = await inviteMember(world.ctx, { teamId }, { email: 'ada@example.com' }, 'member', owner);
    await inviteMember(world.ctx, { teamId }, { userId: ada }, 'admin', owner);
    const elsewhere = await inviteMember(world.ctx, { teamId: otherTeam }, { userId: ada }, 'member', owner);
    const membership = await acceptInvitation(world.ctx, await answerer(world, ada), byAddress.id);
    expect(membership.role).toBe('member');
    expect((await listInvitationsFor(world.ctx, await answerer(world, ada))).map((i) => i.id)).toEqual([elsewhere.id]);
  });

  it('accepting where the account became a member meanwhile changes nothing', async ({ world }) => {
    const owner = await world.user();
    const teamId = await world.team(owner);
    const ada = await world.user();
    const invitation = await inviteMember(world.ctx, { teamId }, { userId: ada }, 'owner', owner);
    await world.join({ teamId }, ada, 'member');
    const existing = await world.ctx.stores.teams.findMembershipOfUser({ teamId }, ada);
    expect(await acceptInvitation(world.ctx, await answerer(world, ada), invitation.id)).toEqual(existing);
    expect((await world.ctx.stores.teams.findMembershipOfUser({ teamId }, ada))?.role).toBe('member');
    expect(await listInvitationsFor(world.ctx, await answerer(world, ada))).toEqual([]);
  });

  it("accepting an organization's invitation makes it the user's organization (docs/rules.md#profile)", async ({ world }) => {
    const owner = await world.user();
    const organizationId = await world.organization(owner);
    const ada = await world.user();
    const invitation = await inviteMember(world.ctx, { organizationId }, { userId: ada }, 'member', owner);
    await acceptInvitation(world.ctx, await answerer(world, ada), invitation.id);
    expect((await world.ctx.stores.users.findById(ada))?.organizationId).toBe(organizationId);
  });

  it('declining deletes the invitation and shares nothing; it cannot be answered again', async ({ world }) => {
    const owner = await world.user();
    const teamId = await world.team(owner);
    const ada = await world.user({ email: 'ada@example.com' });
    const invitation = await inviteMember(world.ctx, { teamId }, { email: 'ada@example.com' }, 'member', owner);
    expect((await declineInvitation(world.ctx, await answerer(world, ada), invitation.id)).id).toBe(invitation.id);
    expect(await listInvitationsFor(world.ctx, await answerer(world, ada))).toEqual([]);
    expect(await world.ctx.stores.teams.findMembershipOfUser({ teamId }, ada)).toBeUndefined();
    await expect(acceptInvitation(world.ctx, await answerer(world, ada), invitation.id)).rejects.toMatchObject({ kind: 'not_found' });
    // Declined, the address may be invited again.
    await inviteMember(world.ctx, { teamId }, { email: 'ada@example.com' }, 'member', owner);
  });
});

describe('accounts an organization makes (docs/rules.md#organization-made-accounts)', () => {
  const account = (over: Partial<NewOrganizationAccount> = {}): NewOrganizationAccount => ({ email: 'new.hire@example.com', name: 'New Hire', role: 'member', ...over });

  it('the account is made without a password, remembers its organization, and is an accepted member at once, audited', async ({ world }) => {
    const owner = await world.user();
    const organizationId = await world.organization(owner);
    const { user, membership } = await createOrganizationAccount(world.ctx, organizationId, account({ role: 'admin', timeZone: 'Europe/Berlin', username: 'newhire' }), owner);
    expect(user).toMatchObject({ email: 'new.hire@example.com', username: 'newhire', timeZone: 'Europe/Berlin', organizationId });
    const stored = await world.ctx.stores.users.findById(user.id);
    expect(stored).toMatchObject({ passwordHash: NO_PASSWORD, createdByOrganizationId: organizationId, organizationId, isAdmin: false });
    expect(membership).toMatchObject({ userId: user.id, organizationId, role: 'admin' });
    expect(await world.ctx.stores.teams.findMembershipOfUser({ organizationId }, user.id)).toEqual(membership);
    expect((await world.ctx.stores.auditLog.list({ userId: user.id }))[0]).toMatchObject({ type: 'user.created_by_organization', actorId: owner, data: { organizationId, role: 'admin' } });
  });

  it('an address that has an account is a conflict (invite them instead); so is a taken username; nothing is written', async ({ world }) => {
    const owner = await world.user({ email: 'owner@example.com' });
    const organizationId = await world.organization(owner);
    await expect(createOrganizationAccount(world.ctx, organizationId, account({ email: 'owner@example.com' }), owner)).rejects.toMatchObject({
      kind: 'conflict',
      field: 'email',
      message: expect.stringContaining('invite them instead'),
    });
    const taken = (await world.ctx.stores.users.findById(owner))!.username;
    await expect(createOrganizationAccount(world.ctx, organizationId, account({ username: taken }), owner)).rejects.toMatchObject({ kind: 'conflict', field: 'username' });
    expect(await world.ctx.stores.users.findByEmail('new.hire@example.com')).toBeUndefined();
    expect((await world.ctx.stores.teams.listMembers({ organizationId }, 10)).map((m) => m.userId)).toEqual([owner]);
  });

  it("the organization's own account, in none but its places, is deleted: membership and all", async ({ world }) => {
    const owner = await world.user();
    const organizationId = await world.organization(owner);
    const teamId = await world.team(owner, { organizationId });
    const { user } = await createOrganizationAccount(world.ctx, organizationId, account(), owner);
    await world.join({ teamId }, user.id);
    expect(await deleteOrganizationUser(world.ctx, organizationId, user.id, owner, 'last owner')).toBe('account deleted');
    expect(await world.ctx.stores.users.findById(user.id)).toBeUndefined();
    expect(await world.ctx.stores.teams.findMembershipOfUser({ organizationId }, user.id)).toBeUndefined();
    expect(await world.ctx.stores.teams.findMembershipOfUser({ teamId }, user.id)).toBeUndefined();
    expect((await world.ctx.stores.auditLog.list({ userId: user.id }))[0]).toMatchObject({
      type: 'user.deleted_by_organization',
      actorId: owner,
      data: { organizationId, userId: user.id, role: 'member', email: 'new.hire@example.com' },
    });
  });

  it('any other user is only removed from the organization: one it did not make, one in another place, one that owns a client', async ({ world }) => {
    const owner = await world.user();
    const organizationId = await world.organization(owner);
    const elsewhere = await world.team(await world.user());

    const joined = await world.user();
    await world.join({ organizationId }, joined);
    const { user: alsoElsewhere } = await createOrganizationAccount(world.ctx, organizationId, account({ email: 'a@example.com' }), owner);
    await world.join({ teamId: elsewhere }, alsoElsewhere.id);
    const { user: developer } = await createOrganizationAccount(world.ctx, organizationId, account({ email: 'b@example.com' }), owner);
    await world.client(developer.id);

    for (const userId of [joined, alsoElsewhere.id, developer.id]) {
      expect(await deleteOrganizationUser(world.ctx, organizationId, userId, owner, 'last owner')).toBe('removed from the organization');
      expect(await world.ctx.stores.users.findById(userId)).toMatchObject({ id: userId, organizationId: null });
      expect(await world.ctx.stores.teams.findMembershipOfUser({ organizationId }, userId)).toBeUndefined();
      expect((await world.ctx.stores.auditLog.list({ userId }))[0]).toMatchObject({ type: 'membership.removed', actorId: owner, data: { organizationId, userId, role: 'member' } });
    }
    expect(await world.ctx.stores.teams.findMembershipOfUser({ teamId: elsewhere }, alsoElsewhere.id)).toBeDefined();
  });

  it("another organization's account is never deleted by this one", async ({ world }) => {
    const owner = await world.user();
    const ours = await world.organization(owner, 'Ours');
    const theirs = await world.organization(owner, 'Theirs');
    const { user } = await createOrganizationAccount(world.ctx, theirs, account(), owner);
    await world.join({ organizationId: ours }, user.id);
    // Even once it belongs to this organization alone, it is not this organization's to delete.
    await removeMemberByEmail(world.ctx, { organizationId: theirs }, user.email, 'cli');
    expect((await world.ctx.stores.teams.listMembershipsOfUser(user.id)).map((m) => m.organizationId)).toEqual([ours]);
    expect(await deleteOrganizationUser(world.ctx, ours, user.id, owner, 'last owner')).toBe('removed from the organization');
    expect(await world.ctx.stores.users.findById(user.id)).toBeDefined();
  });

  it('the last owner stays; a user who is not a member is not found', async ({ world }) => {
    const owner = await world.user();
    const organizationId = await world.organization(owner);
    await expect(deleteOrganizationUser(world.ctx, organizationId, owner, owner, 'the organization needs an owner')).rejects.toMatchObject({ kind: 'conflict', message: 'the organization needs an owner' });
    expect(await world.ctx.stores.teams.findMembershipOfUser({ organizationId }, owner)).toMatchObject({ role: 'owner' });
    const { user } = await createOrganizationAccount(world.ctx, organizationId, account({ role: 'owner' }), owner);
    // With a second owner, the organization's own account that is an owner may go.
    expect(await deleteOrganizationUser(world.ctx, organizationId, user.id, owner, 'last owner')).toBe('account deleted');
    await expect(deleteOrganizationUser(world.ctx, organizationId, await world.user(), owner, 'last owner')).rejects.toMatchObject({ kind: 'not_found' });
    await expect(deleteOrganizationUser(world.ctx, organizationId, '999999', owner, 'last owner')).rejects.toMatchObject({ kind: 'not_found' });
  });
});

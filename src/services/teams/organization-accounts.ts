// Accounts an organization's admin makes, adds to its teams and deletes through the API
// (docs/rules.md#organization-made-accounts). An account made so has no password: nothing is
// mailed and no password is answered; the person signs in once an operator sets one
// (`gatehouse users reset-password`). Deleting removes the account only when this
// organization made it and it belongs nowhere else; any other user is only removed from
// the organization, so no organization can delete an account that is not its own.
import type { ServiceContext } from '../context.ts';
import type { ServiceStores } from '../stores.ts';
import { conflict, notFound } from '../errors.ts';
import { NO_PASSWORD } from '../accounts/passwords.ts';
import { newUserRecord, type User } from '../accounts/users.ts';
import { insertMember, isAdmin, removeMember, type Membership, type Role } from './teams.ts';

export interface NewOrganizationAccount {
  /** Lower-case, checked by the caller. */
  email: string;
  name: string;
  username?: string;
  timeZone?: string;
  weekStart?: string;
  timeFormat?: number;
  role: Role;
}

/** Makes the account and its accepted membership of the organization, in one transaction, audited. */
export async function createOrganizationAccount(
  ctx: ServiceContext,
  organizationId: string,
  input: NewOrganizationAccount,
  actorId: string,
): Promise<{ user: User; membership: Membership }> {
  const { role, username, timeZone, weekStart, timeFormat, ...named } = input;
  const user = await newUserRecord(ctx, {
    ...named,
    passwordHash: NO_PASSWORD,
    createdByOrganizationId: organizationId,
    ...(username !== undefined ? { username } : {}),
    ...(timeZone !== undefined ? { timeZone } : {}),
    ...(weekStart !== undefined ? { weekStart } : {}),
    ...(timeFormat !== undefined ? { timeFormat } : {}),
  });
  return ctx.stores.transaction(async (tx) => {
    if (!(await tx.users.insert(user))) {
      const emailTaken = (await tx.users.findByEmail(user.email)) !== undefined;
      throw emailTaken ? conflict(`a user with email ${user.email} already exists: invite them instead (POST /v2/organizations/{orgId}/memberships)`, 'email') : conflict(`the username ${user.username} is taken`, 'username');
    }
    const now = ctx.clock();
    const membership = await insertMember(tx, { organizationId }, user.id, role, now);
    await tx.audit.append({ type: 'user.created_by_organization', actorId, userId: user.id, data: { organizationId, role } }, now);
    return { user: { ...user, organizationId }, membership };
  });
}

/**
 * An organization's admin adds an account the organization made, and that is still its
 * member, to one of its teams at once, accepted (docs/rules.md#organization-made-accounts): the
 * account is the organization's own, so no one else's consent is involved. Undefined, writing
 * nothing, for any other account, a team of no organization, or an actor who is not an admin
 * or owner of the team's organization: the caller then invites instead. In one transaction
 * with the membership, under the team's lock (taken only once the account qualifies, since it
 * marks the team changed): the account's open invitations to the team, which it no longer
 * needs, and the `membership.added` audit event.
 */
export async function addOrganizationAccountToTeam(ctx: ServiceContext, teamId: string, userId: string, role: Role, actorId: string): Promise<Membership | undefined> {
  const target = { teamId };
  return ctx.stores.transaction(async (tx) => {
    const organizationId = (await tx.teams.findTeam(teamId))?.organizationId ?? null;
    if (organizationId === null) return undefined;
    const user = await tx.users.findById(userId);
    if (user?.createdByOrganizationId !== organizationId) return undefined;
    if ((await tx.teams.findMembershipOfUser({ organizationId }, userId)) === undefined) return undefined;
    if (!isAdmin((await tx.teams.findMembershipOfUser({ organizationId }, actorId))?.role)) return undefined;
    const now = ctx.clock();
    await tx.teams.lockTarget(target, now);
    if ((await tx.teams.findMembershipOfUser(target, userId)) !== undefined) throw conflict('that user is already a member of this team', 'userId');
    await tx.invitations.deleteAllFor(target, { id: user.id, email: user.email });
    const membership = await insertMember(tx, target, userId, role, now);
    await tx.audit.append({ type: 'membership.added', actorId, userId, data: { teamId, role } }, now);
    return membership;
  });
}

/**
 * Whether the organization may delete the account: it made it, and every membership the
 * user has is of this organization or of one of its teams.
 */
async function ownedByOrganization(tx: ServiceStores, organizationId: string, user: User): Promise<boolean> {
  if (user.createdByOrganizationId !== organizationId) return false;
  for (const m of await tx.teams.listMembershipsOfUser(user.id)) {
    if (m.organizationId === organizationId) continue;
    if (m.teamId === null || (await tx.teams.findTeam(m.teamId))?.organizationId !== organizationId) return false;
  }
  return true;
}

/**
 * Deletes the organization's own account (see above) or else removes the user from the
 * organization; the last owner stays, checked under the organization's lock. Audited as
 * `user.deleted_by_organization` or `membership.removed`.
 */
export async function deleteOrganizationUser(
  ctx: ServiceContext,
  organizationId: string,
  userId: string,
  actorId: string,
  lastOwner: string,
): Promise<'account deleted' | 'removed from the organization'> {
  const target = { organizationId };
  return ctx.stores.transaction(async (tx) => {
    const now = ctx.clock();
    await tx.teams.lockTarget(target, now);
    const membership = await tx.teams.findMembershipOfUser(target, userId);
    const user = await tx.users.findById(userId);
    if (membership === undefined || user === undefined) throw notFound('user in this organization');
    if (membership.role === 'owner' && (await tx.teams.countOwners(target)) <= 1) throw conflict(lastOwner);
    const data = { organizationId, userId, role: membership.role };
    if ((await ownedByOrganization(tx, organizationId, user)) && (await tx.users.deleteUnlessClientsOrGrants(userId))) {
      await tx.audit.append({ type: 'user.deleted_by_organization', actorId, userId, data: { ...data, email: user.email } }, now);
      return 'account deleted';
    }
    await removeMember(tx, membership, now);
    await tx.audit.append({ type: 'membership.removed', actorId, userId, data }, now);
    return 'removed from the organization';
  });
}

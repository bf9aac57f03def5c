// The rules of a team's and an organization's roster (docs/rules.md#membership-invitations) and
// of an organization's users (docs/rules.md#organization-made-accounts), with every store call
// they make. Adding someone makes an invitation that only the invitee accepts, in the web app,
// except an organization's own account, which its admins add to its teams at once; only an
// owner grants, changes or removes the owner role; the last owner stays. A membership
// or a user outside the path's team or organization is as absent as a missing one.
import { addOrganizationAccountToTeam, createOrganizationAccount, deleteOrganizationUser, hasControlCharacters, inviteMember, keepingAnOwner, ONE_LINE, removeMember, type Role } from '../authorization-server.ts';
import { checkTimeZone, forbidden, invalid, notFound } from '../input.ts';
import type { Profile } from '../me/store.ts';
import { profileChanges, type ProfileInput } from '../me/service.ts';
import type { PlatformContext } from '../stores.ts';
import type { MembershipTarget, OrganizationUser, PendingInvitation, RosterEntry, RosterMember } from './store.ts';

export type { OrganizationUser, PendingInvitation, RosterEntry, RosterMember } from './store.ts';

/** Whose roster a call reaches, and whether its caller is an owner there (isTeamOwner / isOrgOwner of the guard's facts). */
export interface RosterScope {
  kind: 'team' | 'organization';
  target: MembershipTarget;
  callerIsOwner: boolean;
}

/** A member, or a pending invitation, of the target. */
export type Found = { member: RosterMember } | { invitation: PendingInvitation };

/** The roster's entry of what was found: an accepted member, or an invitation. */
export const entryOf = (found: Found): RosterEntry => ('member' in found ? { state: 'accepted', ...found.member } : { state: 'invited', ...found.invitation });

const ACCEPT_IN_WEB_APP = 'only the invitee accepts an invitation, in the web app (/settings/teams)';

function requireOwnerFor(scope: Pick<RosterScope, 'kind' | 'callerIsOwner'>, touchesOwner: boolean): void {
  if (touchesOwner && !scope.callerIsOwner) throw forbidden(`only an owner of the ${scope.kind} may grant, change or remove the owner role`);
}

const lastOwner = (kind: RosterScope['kind']) => `the ${kind} must keep at least one owner: make someone else owner first`;

/** Members and pending invitations together, so an invitee shows up before accepting. */
export function listRoster(ctx: PlatformContext, target: MembershipTarget, limit: number, offset: number): Promise<RosterEntry[]> {
  return ctx.stores.api.memberships.listRoster(target, limit, offset);
}

/** A member, or a pending invitation, of the target; 404 when the id is neither there. */
export async function findMembership(ctx: PlatformContext, target: MembershipTarget, id: string): Promise<Found> {
  const memberships = ctx.stores.api.memberships;
  const member = await memberships.findMember(target, id);
  if (member !== undefined) return { member };
  const invitation = await memberships.findInvitation(target, id);
  if (invitation !== undefined) return { invitation };
  throw notFound('membership');
}

/** Whom a request adds and how: exactly one of userId and email, and the platform's `accepted`. */
export interface MembershipInput {
  userId?: string;
  email?: string;
  role: Role;
  accepted?: boolean;
}

/**
 * docs/rules.md#membership-invitations: adding someone makes an invitation, which only the
 * invitee accepts, in the web app. `accepted: true` asks for more than the inviter may give, so
 * it is read as an invitation too, answered `accepted: false`, except where no one else's
 * consent is involved (docs/rules.md#organization-made-accounts): an admin of a team's
 * organization adds an account the organization made, still its member, to the team at once.
 * An invitation by address is answered alike whether or not the address has an account; one by
 * user id names an account, which the answer shows as the platform does (404 for an id that
 * names none).
 */
export async function addMembership(ctx: PlatformContext, scope: RosterScope, input: MembershipInput, actorId: string): Promise<Found> {
  if ((input.userId === undefined) === (input.email === undefined)) throw invalid('userId', 'give exactly one of userId and email');
  requireOwnerFor(scope, input.role === 'owner');
  if (input.email !== undefined) return findMembership(ctx, scope.target, (await inviteMember(ctx, scope.target, { email: input.email }, input.role, actorId)).id);
  const userId = input.userId!;
  if ((await ctx.stores.users.findById(userId)) === undefined) throw notFound(`user ${userId}`);
  if (input.accepted === true && 'teamId' in scope.target) {
    const added = await addOrganizationAccountToTeam(ctx, scope.target.teamId, userId, input.role, actorId);
    if (added !== undefined) return findMembership(ctx, scope.target, added.id);
  }
  return findMembership(ctx, scope.target, (await inviteMember(ctx, scope.target, { userId }, input.role, actorId)).id);
}

/** A change of a membership: its role, and the platform's `accepted`, which only the invitee sets to true. */
export interface MembershipChange {
  role?: Role;
  accepted?: boolean;
}

/**
 * Changes the role of a member or an invitation, as it now is. An invitation's role changes
 * freely (it holds no owner yet); a member's keeps the target's last owner.
 */
export async function changeMembership(ctx: PlatformContext, scope: RosterScope, id: string, change: MembershipChange): Promise<Found> {
  const { target } = scope;
  const found = await findMembership(ctx, target, id);
  const { role } = change;
  if ('invitation' in found) {
    if (change.accepted === true) throw invalid('accepted', `cannot be set to true: ${ACCEPT_IN_WEB_APP}`);
    if (role === undefined) return found;
    requireOwnerFor(scope, found.invitation.role === 'owner' || role === 'owner');
    await ctx.stores.api.memberships.setInvitationRole(found.invitation.id, role, ctx.clock());
    return findMembership(ctx, target, found.invitation.id);
  }
  const current = found.member;
  if (change.accepted === false) throw invalid('accepted', 'cannot be set to false: the membership is accepted; remove it (DELETE) instead');
  if (role === undefined) return found;
  requireOwnerFor(scope, current.role === 'owner' || role === 'owner');
  await keepingAnOwner(ctx, target, current.role === 'owner' && role !== 'owner', lastOwner(scope.kind), (tx) => tx.teams.setMembershipRole(current.id, role, ctx.clock()));
  return findMembership(ctx, target, current.id);
}

/**
 * Removes a member, or withdraws an invitation; the last owner stays. Answers it as it was.
 * A member's removal is audited as `membership.removed` by `actorId`, as the CLI's is.
 */
export async function removeMembership(ctx: PlatformContext, scope: RosterScope, id: string, actorId: string): Promise<Found> {
  const found = await findMembership(ctx, scope.target, id);
  if ('invitation' in found) {
    requireOwnerFor(scope, found.invitation.role === 'owner');
    await ctx.stores.api.memberships.deleteInvitation(found.invitation.id);
    return found;
  }
  const current = found.member;
  requireOwnerFor(scope, current.role === 'owner');
  await keepingAnOwner(ctx, scope.target, current.role === 'owner', lastOwner(scope.kind), async (tx) => {
    const now = ctx.clock();
    await removeMember(tx, { id: current.id, userId: current.userId, teamId: current.teamId, organizationId: current.organizationId }, now);
    await tx.audit.append({ type: 'membership.removed', actorId, userId: current.userId, data: { ...scope.target, role: current.role } }, now);
  });
  return found;
}

/** An organization's user as its admins see them in full: the profile and their place in the organization. */
export interface FullOrganizationUser {
  profile: Profile;
  user: OrganizationUser;
}

/** The organization's user in full; 404 for anyone who is not an accepted member there (docs/rules.md#membership-invitations). */
export async function findOrganizationUser(ctx: PlatformContext, organizationId: string, userId: string): Promise<FullOrganizationUser> {
  const user = await ctx.stores.api.memberships.findOrganizationUser(organizationId, userId);
  const profile = await ctx.stores.api.profiles.find(userId);
  if (user === undefined || profile === undefined) throw notFound('user in this organization');
  return { profile, user };
}

export function listOrganizationUsers(ctx: PlatformContext, organizationId: string, limit: number, offset: number): Promise<OrganizationUser[]> {
  return ctx.stores.api.memberships.listOrganizationUsers(organizationId, limit, offset);
}

/** An account an organization makes (CreateOrganizationUserInput as far as Gatehouse keeps it). */
export interface OrganizationAccountInput {
  email: string;
  username?: string;
  name?: string;
  timeZone?: string;
  weekStart?: string;
  timeFormat?: number;
  role: Role;
  autoAccept?: boolean;
}

/**
 * docs/rules.md#organization-made-accounts: an account the organization makes, its member at
 * once; no password is made, mailed or answered. The name defaults to the username, else the
 * address's mailbox.
 */
export async function createOrganizationUser(ctx: PlatformContext, scope: Pick<RosterScope, 'callerIsOwner'> & { organizationId: string }, input: OrganizationAccountInput, actorId: string): Promise<FullOrganizationUser> {
  if (input.autoAccept === false) throw invalid('autoAccept', 'must be true or left out: the account is made a member of the organization at once; to invite an existing user, POST /v2/organizations/{orgId}/memberships');
  checkTimeZone(input.timeZone);
  requireOwnerFor({ kind: 'organization', callerIsOwner: scope.callerIsOwner }, input.role === 'owner');
  const address = input.email.trim().toLowerCase();
  const name = (input.name ?? input.username ?? address.split('@')[0]!).trim();
  if (name === '') throw invalid('name', 'must not be blank');
  if (hasControlCharacters(name)) throw invalid('name', ONE_LINE);
  const { user } = await createOrganizationAccount(
    ctx,
    scope.organizationId,
    {
      email: address,
      name,
      role: input.role,
      ...(input.username !== undefined ? { username: input.username.toLowerCase() } : {}),
      ...(input.timeZone !== undefined ? { timeZone: input.timeZone } : {}),
      ...(input.weekStart !== undefined ? { weekStart: input.weekStart } : {}),
      ...(input.timeFormat !== undefined ? { timeFormat: input.timeFormat } : {}),
    },
    actorId,
  );
  return findOrganizationUser(ctx, scope.organizationId, user.id);
}

/**
 * docs/rules.md#organization-made-accounts: the account goes only when the organization made it
 * and it belongs nowhere else, else the user only leaves; `outcome` says which. Answers the user
 * as they were.
 */
export async function deleteUserOfOrganization(
  ctx: PlatformContext,
  scope: Pick<RosterScope, 'callerIsOwner'> & { organizationId: string },
  userId: string,
  actorId: string,
): Promise<FullOrganizationUser & { outcome: 'account deleted' | 'removed from the organization' }> {
  const before = await findOrganizationUser(ctx, scope.organizationId, userId);
  requireOwnerFor({ kind: 'organization', callerIsOwner: scope.callerIsOwner }, before.user.role === 'owner');
  const outcome = await deleteOrganizationUser(ctx, scope.organizationId, userId, actorId, lastOwner('organization'));
  return { ...before, outcome };
}

/** Changes an organization's user's profile (the checks of /v2/me's); no change answers the user as they are. */
export async function updateOrganizationUser(ctx: PlatformContext, organizationId: string, userId: string, input: ProfileInput): Promise<FullOrganizationUser> {
  if (!(await ctx.stores.api.memberships.isMember({ organizationId }, userId))) throw notFound('user in this organization');
  const changes = profileChanges(input);
  if (Object.keys(changes).length > 0) await ctx.stores.users.updateProfile(userId, changes, ctx.clock());
  const user = await ctx.stores.api.memberships.findOrganizationUser(organizationId, userId);
  if (user === undefined) throw notFound('user in this organization');
  return { profile: (await ctx.stores.api.profiles.find(userId))!, user };
}

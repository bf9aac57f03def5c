// Memberships are invitations (docs/rules.md#membership-invitations). Adding someone through the API stores an
// invitation of the address or user id the inviter named, without looking for an account:
// the answer, and the work done, are the same whether one exists or not. The invitee
// accepts or declines in /settings/teams; until then nothing is shared either way.
import type { ServiceContext } from '../context.ts';
import { conflict, notFound } from '../errors.ts';
import type { Answerer, Invitation, InvitationForUser, Membership, MembershipTarget } from './store.ts';
import { checkRole, insertMember, kindOf, targetOf } from './teams.ts';

export type { Answerer, Invitation, InvitationForUser } from './store.ts';

/** Whom the inviter names: an address or a user id. */
export type Invitee = { email: string } | { userId: string };

export async function inviteMember(ctx: ServiceContext, target: MembershipTarget, invitee: Invitee, role: string, invitedBy: string): Promise<Invitation> {
  const checked = checkRole(role);
  const kind = kindOf(target);
  const email = 'email' in invitee ? invitee.email.trim().toLowerCase() : null;
  const userId = 'userId' in invitee ? invitee.userId : null;
  const field = email !== null ? 'email' : 'userId';
  // Only an accepted member of this very team or organization is refused: the inviter
  // can list those already, so the refusal tells them nothing new about any account.
  const member = email !== null ? await ctx.stores.teams.findMembershipByEmail(target, email) : await ctx.stores.teams.findMembershipOfUser(target, userId!);
  if (member !== undefined) throw conflict(`that user is already a member of this ${kind}`, field);
  const now = ctx.clock();
  const invitation: Invitation = {
    id: await ctx.stores.ids.next('memberships'),
    teamId: 'teamId' in target ? target.teamId : null,
    organizationId: 'organizationId' in target ? target.organizationId : null,
    email,
    userId,
    role: checked,
    invitedBy,
    createdAt: now,
    updatedAt: now,
  };
  if (!(await ctx.stores.invitations.insert(invitation))) {
    throw conflict(`${email !== null ? 'that address' : 'that user'} is already invited to this ${kind}: the invitation waits for an answer`, field);
  }
  return invitation;
}

export function listInvitationsFor(ctx: ServiceContext, user: Answerer): Promise<InvitationForUser[]> {
  return ctx.stores.invitations.listFor(user);
}

const gone = () => notFound('this invitation is no longer open: it was withdrawn, or you already answered it');

/**
 * Accepts an invitation of this account: the invitation becomes an accepted membership
 * with the same id, in one transaction; other invitations of the account to the same
 * place go with it. Accepting where the account is already a member changes nothing.
 */
export async function acceptInvitation(ctx: ServiceContext, user: Answerer, invitationId: string): Promise<Membership> {
  const now = ctx.clock();
  return ctx.stores.transaction(async (tx) => {
    const invitation = await tx.invitations.take(invitationId, user);
    if (invitation === undefined) throw gone();
    const target = targetOf(invitation);
    // Serializes joins of one place, so the membership's unique index is never the judge.
    await tx.teams.lockTarget(target, now);
    await tx.invitations.deleteAllFor(target, user);
    const existing = await tx.teams.findMembershipOfUser(target, user.id);
    if (existing !== undefined) return existing;
    return insertMember(tx, target, user.id, invitation.role, now, invitation.id);
  });
}

/** Declines an invitation of this account: it is deleted, and nothing was ever shared. */
export async function declineInvitation(ctx: ServiceContext, user: Answerer, invitationId: string): Promise<Invitation> {
  const invitation = await ctx.stores.invitations.take(invitationId, user);
  if (invitation === undefined) throw gone();
  return invitation;
}

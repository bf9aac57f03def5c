// Memberships are invitations (SPEC §2 item 23). Adding someone through the API stores an
// invitation of the address or user id the inviter named, without looking for an account:
// the answer, and the work done, are the same whether one exists or not. The invitee
// accepts or declines in /settings/teams; until then nothing is shared either way.
import { randomId } from '../../oauth/token-format.ts';
import { isUniqueViolation } from '../../storage/errors.ts';
import * as invitations from '../../storage/repositories/invitations.ts';
import type { InvitationForUser, InvitationRow } from '../../storage/repositories/invitations.ts';
import * as repo from '../../storage/repositories/organizations.ts';
import type { MembershipRow, MembershipTarget } from '../../storage/repositories/organizations.ts';
import { inTransaction } from '../../storage/transaction.ts';
import type { ServiceContext } from '../context.ts';
import { conflict, notFound } from '../errors.ts';
import { checkRole, insertMember, kindOf, targetOf } from './teams.ts';

/** Whom the inviter names: an address or a user id. */
export type Invitee = { email: string } | { userId: string };
/** The account answering: its id and its (lower-case) address. */
export type Answerer = { id: string; email: string };

export async function inviteMember(ctx: ServiceContext, target: MembershipTarget, invitee: Invitee, role: string, invitedBy: string): Promise<InvitationRow> {
  const checked = checkRole(role);
  const kind = kindOf(target);
  const email = 'email' in invitee ? invitee.email.trim().toLowerCase() : null;
  const userId = 'userId' in invitee ? invitee.userId : null;
  // Only an accepted member of this very team or organization is refused: the inviter
  // can list those already, so the refusal tells them nothing new about any account.
  const member = email !== null ? await repo.findMemberByEmail(ctx.db, target, email) : await repo.findMemberByUser(ctx.db, target, userId!);
  if (member !== undefined) throw conflict(`that user is already a member of this ${kind}`, email !== null ? 'email' : 'userId');
  const now = ctx.clock();
  const row: InvitationRow = {
    id: randomId(),
    team_id: 'teamId' in target ? target.teamId : null,
    organization_id: 'organizationId' in target ? target.organizationId : null,
    email,
    user_id: userId,
    role: checked,
    invited_by: invitedBy,
    created_at: now,
    updated_at: now,
  };
  try {
    await invitations.insertInvitation(ctx.db, row);
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw conflict(`${email !== null ? 'that address' : 'that user'} is already invited to this ${kind}: the invitation waits for an answer`, email !== null ? 'email' : 'userId');
    }
    throw error;
  }
  return row;
}

export function listInvitationsFor(ctx: ServiceContext, user: Answerer): Promise<InvitationForUser[]> {
  return invitations.listInvitationsFor(ctx.db, user);
}

const gone = () => notFound('this invitation is no longer open: it was withdrawn, or you already answered it');

/**
 * Accepts an invitation of this account: the invitation becomes an accepted membership
 * with the same id, in one transaction; other invitations of the account to the same
 * place go with it. Accepting where the account is already a member changes nothing.
 */
export async function acceptInvitation(ctx: ServiceContext, user: Answerer, invitationId: string): Promise<MembershipRow> {
  const now = ctx.clock();
  return inTransaction(ctx.db, async (trx) => {
    const invitation = await invitations.takeInvitation(trx, invitationId, user);
    if (invitation === undefined) throw gone();
    const target = targetOf(invitation);
    // Serializes joins of one place, so the membership's unique index is never the judge.
    await repo.lockMembershipTarget(trx, target, now);
    await invitations.deleteInvitationsFor(trx, target, user);
    const existing = await repo.findMemberByUser(trx, target, user.id);
    if (existing !== undefined) return existing;
    return insertMember(trx, target, user.id, invitation.role, now, invitation.id);
  });
}

/** Declines an invitation of this account: it is deleted, and nothing was ever shared. */
export async function declineInvitation(ctx: ServiceContext, user: Answerer, invitationId: string): Promise<InvitationRow> {
  const invitation = await invitations.takeInvitation(ctx.db, invitationId, user);
  if (invitation === undefined) throw gone();
  return invitation;
}

// Invite links (docs/rules.md#membership-invitations): a team admin makes a link and shares it;
// whoever opens it signed in, and accepts, becomes an accepted member of the team, as
// accepting an invitation makes them. The token is shown once, in the answer that makes it:
// only its hash is kept, and it stops working after INVITE_LINK_TTL_MS.
import { generateToken, hashToken, isWellFormed } from '../../oauth/token-format.ts';
import type { ServiceContext } from '../context.ts';
import { notFound } from '../errors.ts';
import type { Answerer, InviteLinkForPage, Membership } from './store.ts';
import { insertMember } from './teams.ts';

/** Seven days, as the platform's team invite links last. */
export const INVITE_LINK_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** Where the web app serves a link's page; the token rides in the query, which logs redact (docs/rules.md#private-records). */
export const JOIN_PATH = '/teams/join';

export interface NewInviteLink {
  token: string;
  inviteLink: string;
  expiresAt: number;
}

export async function createInviteLink(ctx: ServiceContext, teamId: string, createdBy: string, appUrl: string): Promise<NewInviteLink> {
  const now = ctx.clock();
  const token = generateToken('teamInviteToken');
  const expiresAt = now + INVITE_LINK_TTL_MS;
  await ctx.stores.inviteLinks.insert({ tokenHash: hashToken(token), teamId, createdBy, expiresAt, createdAt: now });
  return { token, inviteLink: `${appUrl}${JOIN_PATH}?${new URLSearchParams({ token })}`, expiresAt };
}

const gone = () => notFound('this invite link does not work: it expired or was never made. Ask the team for a new one');

/** The live link of this token with its team; a malformed, unknown or expired token is 404, all alike. */
export async function findInviteLink(ctx: ServiceContext, token: unknown): Promise<InviteLinkForPage> {
  const found = isWellFormed('teamInviteToken', token) ? await ctx.stores.inviteLinks.findLive(hashToken(token), ctx.clock()) : undefined;
  if (found === undefined) throw gone();
  return found;
}

/**
 * Joins the link's team as a member, in one transaction, as acceptInvitation does: the
 * account's invitations to the team go with it, and joining where the account is a member
 * already changes nothing. The link stays usable by others until it expires.
 */
export async function joinByInviteLink(ctx: ServiceContext, user: Answerer, token: unknown): Promise<Membership> {
  const now = ctx.clock();
  return ctx.stores.transaction(async (tx) => {
    const link = isWellFormed('teamInviteToken', token) ? await tx.inviteLinks.findLive(hashToken(token), now) : undefined;
    if (link === undefined) throw gone();
    const target = { teamId: link.teamId };
    await tx.teams.lockTarget(target, now);
    await tx.invitations.deleteAllFor(target, user);
    const existing = await tx.teams.findMembershipOfUser(target, user.id);
    if (existing !== undefined) return existing;
    const membership = await insertMember(tx, target, user.id, 'member', now);
    await tx.audit.append({ type: 'membership.added', actorId: user.id, userId: user.id, data: { ...target, role: 'member', by: 'invite_link' } }, now);
    return membership;
  });
}

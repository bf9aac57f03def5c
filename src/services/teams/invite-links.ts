// Invite links (docs/rules.md#invite-links): a team admin makes a link and shares it; whoever
// opens it signed in, and accepts, becomes an accepted member of the team, as accepting an
// invitation makes them. The token is shown once, in the answer that makes it: only its hash is
// kept. A link works until INVITE_LINK_TTL_MS, and only while its maker may still administer
// the team and the grant it was made under (if any) stands; it never brings back someone who
// left the team, or was removed, after it was made. The team's admins list and revoke links.
import { generateToken, hashToken, isWellFormed, randomId } from '../../oauth/token-format.ts';
import type { ServiceContext } from '../context.ts';
import { forbidden, notFound, validation } from '../errors.ts';
import type { ServiceStores } from '../stores.ts';
import type { Answerer, InviteLinkForPage, InviteLinkOfTeam, InviteLinkStanding, Membership } from './store.ts';
import { insertMember, isAdmin } from './teams.ts';

/** Seven days, as the platform's team invite links last. */
export const INVITE_LINK_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** Where the web app serves a link's page; the token rides in the query, which logs redact (docs/rules.md#private-records). */
export const JOIN_PATH = '/teams/join';

export interface NewInviteLink {
  id: string;
  token: string;
  inviteLink: string;
  expiresAt: number;
}

/** Who makes a link, for which team, and under which grant (the API's token's; null for none). */
export interface LinkMaker {
  teamId: string;
  createdBy: string;
  grantId: string | null;
}

export async function createInviteLink(ctx: ServiceContext, maker: LinkMaker, appUrl: string): Promise<NewInviteLink> {
  const now = ctx.clock();
  const token = generateToken('teamInviteToken');
  const id = randomId(8);
  const expiresAt = now + INVITE_LINK_TTL_MS;
  await ctx.stores.inviteLinks.insert({ id, tokenHash: hashToken(token), ...maker, expiresAt, createdAt: now });
  return { id, token, inviteLink: `${appUrl}${JOIN_PATH}?${new URLSearchParams({ token })}`, expiresAt };
}

/**
 * docs/rules.md#invite-links: whether a link still works, as it stands now. Its maker must still
 * be an owner or admin of the team or of its organization (a link is the maker's right to
 * invite, lent to whoever holds it, so it ends with that right and comes back with it), and
 * the grant it was made under must not be revoked (a link an application made ends with the
 * application's access).
 */
export function isHonoured(link: InviteLinkStanding): boolean {
  return (isAdmin(link.makerTeamRole) || isAdmin(link.makerOrgRole)) && !link.grantRevoked;
}

const gone = () => notFound('this invite link does not work: it expired, was revoked, or whoever made it can no longer invite to the team. Ask the team for a new one');
const left = () => forbidden('you left this team, or were removed from it, after this link was made: ask its admins for a new invitation');

/**
 * The link of this token as `user` may use it: a malformed, unknown, expired, revoked or no
 * longer honoured one is the same 404; one made before the user last left the team is 403.
 */
async function usableLink(stores: ServiceStores, user: Answerer, token: unknown, now: number): Promise<InviteLinkForPage> {
  const link = isWellFormed('teamInviteToken', token) ? await stores.inviteLinks.findLive(hashToken(token), now) : undefined;
  if (link === undefined || !isHonoured(link)) throw gone();
  if (await stores.teams.departedSince(link.teamId, user.id, link.createdAt)) throw left();
  return link;
}

/** The link of this token with its team, for its page, as `user` may use it (usableLink). */
export function findInviteLink(ctx: ServiceContext, user: Answerer, token: unknown): Promise<InviteLinkForPage> {
  return usableLink(ctx.stores, user, token, ctx.clock());
}

/**
 * Joins the link's team as a member, in one transaction, as acceptInvitation does: the
 * account's invitations to the team go with it, and joining where the account is a member
 * already changes nothing. The link stays usable by others while it lives.
 */
export async function joinByInviteLink(ctx: ServiceContext, user: Answerer, token: unknown): Promise<Membership> {
  const now = ctx.clock();
  return ctx.stores.transaction(async (tx) => {
    const { teamId } = await usableLink(tx, user, token, now);
    const target = { teamId };
    await tx.teams.lockTarget(target, now);
    // Asked again under the team's lock, which a change of a role in the team and a removal
    // from it take too: such a change lands wholly before this check or after the join.
    await usableLink(tx, user, token, now);
    await tx.invitations.deleteAllFor(target, user);
    const existing = await tx.teams.findMembershipOfUser(target, user.id);
    if (existing !== undefined) return existing;
    const membership = await insertMember(tx, target, user.id, 'member', now);
    await tx.audit.append({ type: 'membership.added', actorId: user.id, userId: user.id, data: { ...target, role: 'member', by: 'invite_link' } }, now);
    return membership;
  });
}

/** A link as its team's admins see it: whether it works now (isHonoured), and the rest. */
export interface ListedInviteLink extends InviteLinkOfTeam {
  works: boolean;
}

/** The most links a list shows: a team rarely has more than a few alive. */
export const INVITE_LINK_LIST_MAX = 500;

/**
 * The team's links that have not expired, newest first, at most `limit`: those that work and
 * those whose maker lost the right to invite (they work again if it comes back). A link whose
 * grant was revoked never works again, and is listed so that it can be revoked.
 */
export async function listInviteLinks(ctx: ServiceContext, teamId: string, limit = INVITE_LINK_LIST_MAX): Promise<ListedInviteLink[]> {
  if (!Number.isInteger(limit) || limit < 1 || limit > INVITE_LINK_LIST_MAX) {
    throw validation(`limit must be a whole number from 1 to ${INVITE_LINK_LIST_MAX}`, 'limit');
  }
  if ((await ctx.stores.teams.findTeam(teamId)) === undefined) throw notFound(`no team ${teamId}`);
  const links = await ctx.stores.inviteLinks.listLive(teamId, ctx.clock(), limit);
  return links.map((l) => ({ ...l, works: isHonoured(l) }));
}

/**
 * Revokes one of the team's links: nobody joins through it any more. Audited as
 * `invite_link.revoked` under `actorId` (a team admin, or the operator's CLI_OPERATOR); the
 * caller has checked that the actor may administer the team.
 */
export async function revokeInviteLink(ctx: ServiceContext, teamId: string, linkId: string, actorId: string): Promise<void> {
  await ctx.stores.transaction(async (tx) => {
    const now = ctx.clock();
    if (!(await tx.inviteLinks.delete(teamId, linkId))) throw notFound(`team ${teamId} has no invite link ${linkId}: it expired, or was revoked already`);
    await tx.audit.append({ type: 'invite_link.revoked', actorId, data: { teamId, linkId } }, now);
  });
}

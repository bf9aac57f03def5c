// The applications a user has authorized (docs/rules.md#consent): one entry for each party an
// application acts for (the user, or a team the user authorized it for,
// docs/rules.md#team-authorization), each with its own scopes, revoked on its own; and beside
// them, as entries of their own, the access an organization's identity provider granted an
// application for the user (docs/integrating.md#enterprise-managed-agents).
import { sortScopes } from '../../oauth/scopes.ts';
import type { ServiceContext } from '../context.ts';
import { notFound } from '../errors.ts';
import type { GrantingIdentityProvider, NamedGrantOfUser } from './store.ts';

/**
 * One authorization of an application by the user, for the user or for one team. The user's
 * grants for the same client and party are one authorization: each approval of new scopes
 * adds a grant beside the earlier ones, and the application holds the tokens of all of them.
 */
export interface AuthorizedApp {
  /** The newest of its grants: the id its page and its revoke form name it by. */
  grantId: string;
  /** Every active grant it is made of, newest first. */
  grantIds: string[];
  clientId: string;
  name: string;
  homepageUrl: string;
  /** Union of the scopes of its grants; null when any of them is legacy (everything). */
  scopes: string[] | null;
  /** docs/rules.md#team-authorization: the team it acts for; null: it acts for the user. */
  team: { id: string; name: string } | null;
  /**
   * docs/integrating.md#enterprise-managed-agents: the organization's identity provider that
   * granted it, without the user's consent page; null: the user approved it.
   */
  grantedBy: GrantingIdentityProvider | null;
  /** The user's (or the identity provider's) first and latest approval among its grants. */
  firstApprovedAt: number;
  lastApprovedAt: number;
  /** When the application last got a token through it (a code exchange or a refresh); null when none is still stored. */
  lastUsedAt: number | null;
}

/** Who an authorization is of: the application, the party it acts for, and who granted it. */
const partyKey = (clientId: string, team: { id: string } | null, grantedBy: GrantingIdentityProvider | null) => `${clientId}\n${team?.id ?? ''}\n${grantedBy?.identityProviderId ?? ''}`;

/**
 * The user's authorizations, the most recently approved application first; an application's
 * authorizations stand together, the one for the user first, then its teams by name.
 */
export async function listAuthorizedApps(ctx: ServiceContext, userId: string): Promise<AuthorizedApp[]> {
  const rows = await ctx.stores.clients.listActiveGrantsOfUser(userId);
  const apps = new Map<string, AuthorizedApp>();
  // Oldest first: the last grant seen of a party is its newest.
  for (const r of rows) {
    const key = partyKey(r.clientId, r.team, r.grantedBy);
    const app = apps.get(key);
    if (app === undefined) {
      apps.set(key, {
        grantId: r.grantId,
        grantIds: [r.grantId],
        clientId: r.clientId,
        name: r.clientName,
        homepageUrl: r.homepageUrl,
        scopes: r.scopes,
        team: r.team,
        grantedBy: r.grantedBy,
        firstApprovedAt: r.createdAt,
        lastApprovedAt: r.createdAt,
        lastUsedAt: r.lastTokenAt,
      });
      continue;
    }
    app.grantId = r.grantId;
    app.grantIds.unshift(r.grantId);
    app.scopes = app.scopes === null || r.scopes === null ? null : sortScopes([...new Set([...app.scopes, ...r.scopes])]);
    app.lastApprovedAt = Math.max(app.lastApprovedAt, r.createdAt);
    if (r.lastTokenAt !== null) app.lastUsedAt = Math.max(app.lastUsedAt ?? 0, r.lastTokenAt);
  }
  const list = [...apps.values()];
  const latestOfClient = new Map<string, number>();
  for (const a of list) latestOfClient.set(a.clientId, Math.max(latestOfClient.get(a.clientId) ?? 0, a.lastApprovedAt));
  return list.sort(
    (a, b) =>
      latestOfClient.get(b.clientId)! - latestOfClient.get(a.clientId)! ||
      a.clientId.localeCompare(b.clientId) ||
      // The user's own consent before what an identity provider granted.
      (a.grantedBy?.identityProviderId ?? '').localeCompare(b.grantedBy?.identityProviderId ?? '') ||
      (a.team === null ? (b.team === null ? 0 : -1) : b.team === null ? 1 : a.team.name.localeCompare(b.team.name) || a.team.id.localeCompare(b.team.id)),
  );
}

/**
 * docs/rules.md#consent, docs/rules.md#team-authorization: revokes the authorization the grant
 * belongs to: every active grant of the user for the same client and the same party (the user,
 * or that one team, granted by the same party: the user, or one identity provider), and with
 * them every code, access and refresh token, in one transaction. The application's other
 * authorizations keep working. An identity provider's grant is the user's to end too (ending
 * access needs no authority); the provider may grant it again, as its organization's policy
 * decides (docs/integrating.md#enterprise-managed-agents). Only the user who approved a grant
 * revokes it here: a grant is named by its id, and one that is not the user's is not found,
 * the same answer as one that does not exist. Returns the grants that ended.
 */
export async function revokeAuthorizedApp(ctx: ServiceContext, userId: string, grantId: string): Promise<NamedGrantOfUser & { revokedGrantIds: string[] }> {
  const now = ctx.clock();
  return ctx.stores.transaction(async (tx) => {
    const named = await tx.clients.findGrantOfUser(userId, grantId);
    if (named === undefined || named.revokedAt !== null) throw notFound('you have not authorized this application, or this access was already revoked');
    const { clientId } = named;
    const teamId = named.team?.id ?? null;
    const identityProviderId = named.grantedBy?.identityProviderId ?? null;
    const grants = (await tx.clients.listActiveGrantsFor(userId, clientId)).filter((g) => g.teamId === teamId && g.identityProviderId === identityProviderId);
    for (const { id } of grants) {
      await tx.clients.revokeGrant(id, now);
      const team = teamId === null ? {} : { teamId };
      const provider = identityProviderId === null ? {} : { identityProviderId };
      await tx.audit.append({ type: 'grant.revoked', actorId: userId, clientId, userId, data: { grantId: id, ...team, ...provider, reason: 'revoked by the user in authorized apps' } }, now);
    }
    // docs/rules.md#client-events: the application is told in the same transaction, so it cannot be lost;
    // teamIds names the team whose access ended with it (docs/rules.md#team-authorization).
    const grantIds = grants.map((g) => g.id);
    await tx.webhookDeliveries.notifyClient(clientId, 'authorization.revoked', { userId, grantIds, teamIds: teamId === null ? [] : [teamId], revokedBy: 'user' }, now);
    return { ...named, revokedAt: now, revokedGrantIds: grantIds };
  });
}

/** The user's grant with this id, revoked or not: names it in the confirmation after a revoke. */
export async function grantOfUser(ctx: ServiceContext, userId: string, grantId: string): Promise<NamedGrantOfUser | undefined> {
  return ctx.stores.clients.findGrantOfUser(userId, grantId);
}

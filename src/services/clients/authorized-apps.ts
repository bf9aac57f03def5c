// The applications a user has authorized (docs/rules.md#consent): one entry per client over the
// user's active grants, and revocation of all of them at once.
import { sortScopes } from '../../oauth/scopes.ts';
import type { ServiceContext } from '../context.ts';
import { notFound } from '../errors.ts';

export interface AuthorizedApp {
  clientId: string;
  name: string;
  homepageUrl: string;
  /** Union of the scopes of the user's active grants; null when any grant is legacy (everything). */
  scopes: string[] | null;
  /** Whether any of those grants acts for the user. */
  forUser: boolean;
  /** docs/rules.md#team-authorization: the teams those grants act for, as the user authorized it for them. */
  teams: string[];
  /** The user's first and latest approval among the active grants. */
  firstApprovedAt: number;
  lastApprovedAt: number;
  /** When the application last got a token for the user (a code exchange or a refresh); null when none is still stored. */
  lastUsedAt: number | null;
}

export async function listAuthorizedApps(ctx: ServiceContext, userId: string): Promise<AuthorizedApp[]> {
  const rows = await ctx.stores.clients.listActiveGrantsOfUser(userId);
  const apps = new Map<string, AuthorizedApp>();
  for (const r of rows) {
    const scopes = r.scopes;
    const app = apps.get(r.clientId);
    if (app === undefined) {
      apps.set(r.clientId, {
        clientId: r.clientId,
        name: r.clientName,
        homepageUrl: r.homepageUrl,
        scopes,
        forUser: r.team === null,
        teams: r.team === null ? [] : [r.team],
        firstApprovedAt: r.createdAt,
        lastApprovedAt: r.createdAt,
        lastUsedAt: r.lastTokenAt,
      });
      continue;
    }
    app.scopes = app.scopes === null || scopes === null ? null : sortScopes([...app.scopes, ...scopes]);
    if (r.team === null) app.forUser = true;
    else if (!app.teams.includes(r.team)) app.teams.push(r.team);
    app.lastApprovedAt = Math.max(app.lastApprovedAt, r.createdAt);
    if (r.lastTokenAt !== null) app.lastUsedAt = Math.max(app.lastUsedAt ?? 0, r.lastTokenAt);
  }
  return [...apps.values()].sort((a, b) => b.lastApprovedAt - a.lastApprovedAt);
}

/**
 * docs/rules.md#consent: revokes every active grant of the user for the client, and with them
 * every code, access and refresh token, in one transaction. Returns how many grants ended.
 */
export async function revokeAuthorizedApp(ctx: ServiceContext, userId: string, clientId: string): Promise<number> {
  const now = ctx.clock();
  return ctx.stores.transaction(async (tx) => {
    const grants = await tx.clients.listActiveGrantsFor(userId, clientId);
    if (grants.length === 0) throw notFound('you have not authorized this application, or its access was already revoked');
    for (const { id: grantId, teamId } of grants) {
      await tx.clients.revokeGrant(grantId, now);
      const team = teamId === null ? {} : { teamId };
      await tx.audit.append({ type: 'grant.revoked', actorId: userId, clientId, userId, data: { grantId, ...team, reason: 'revoked by the user in authorized apps' } }, now);
    }
    // docs/rules.md#client-events: the application is told in the same transaction, so it cannot be lost;
    // teamIds names the teams whose access ended with it (docs/rules.md#team-authorization).
    const teamIds = [...new Set(grants.flatMap((g) => (g.teamId === null ? [] : [g.teamId])))];
    await tx.webhookDeliveries.notifyClient(clientId, 'authorization.revoked', { userId, grantIds: grants.map((g) => g.id), teamIds, revokedBy: 'user' }, now);
    return grants.length;
  });
}

/** Whether the user ever authorized the client (revoked or not): names it in a confirmation. */
export async function everAuthorized(ctx: ServiceContext, userId: string, clientId: string): Promise<string | undefined> {
  return ctx.stores.clients.nameOfClientEverGranted(userId, clientId);
}

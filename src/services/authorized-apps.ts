// The applications a user has authorized (SPEC §2 item 13): one entry per client over the
// user's active grants, and revocation of all of them at once.
import { deserializeScopes, sortScopes } from '../oauth/scopes.ts';
import { appendAudit } from '../storage/repositories/audit.ts';
import { listActiveGrants, revokeGrant } from '../storage/repositories/grants.ts';
import type { ServiceContext } from './context.ts';
import { notFound } from './errors.ts';

export interface AuthorizedApp {
  clientId: string;
  name: string;
  homepageUrl: string;
  /** Union of the scopes of the user's active grants; null when any grant is legacy (everything). */
  scopes: string[] | null;
  /** The user's first and latest approval among the active grants. */
  firstApprovedAt: number;
  lastApprovedAt: number;
}

export async function listAuthorizedApps(ctx: ServiceContext, userId: string): Promise<AuthorizedApp[]> {
  const rows = await ctx.db
    .selectFrom('grants as g')
    .innerJoin('oauth_clients as c', 'c.id', 'g.client_id')
    .select(['g.client_id', 'g.scopes', 'g.created_at', 'c.name', 'c.homepage_url'])
    .where('g.user_id', '=', userId)
    .where('g.revoked_at', 'is', null)
    .orderBy('g.created_at', 'asc')
    .execute();
  const apps = new Map<string, AuthorizedApp>();
  for (const r of rows) {
    const scopes = deserializeScopes(r.scopes);
    const app = apps.get(r.client_id);
    if (app === undefined) {
      apps.set(r.client_id, {
        clientId: r.client_id,
        name: r.name,
        homepageUrl: r.homepage_url,
        scopes,
        firstApprovedAt: r.created_at,
        lastApprovedAt: r.created_at,
      });
      continue;
    }
    app.scopes = app.scopes === null || scopes === null ? null : sortScopes([...app.scopes, ...scopes]);
    app.lastApprovedAt = Math.max(app.lastApprovedAt, r.created_at);
  }
  return [...apps.values()].sort((a, b) => b.lastApprovedAt - a.lastApprovedAt);
}

/**
 * SPEC §2 item 13: revokes every active grant of the user for the client, and with them
 * every code, access and refresh token, in one transaction. Returns how many grants ended.
 */
export async function revokeAuthorizedApp(ctx: ServiceContext, userId: string, clientId: string): Promise<number> {
  const now = ctx.clock();
  return ctx.db.transaction().execute(async (trx) => {
    const grants = await listActiveGrants(trx, userId, clientId);
    if (grants.length === 0) throw notFound('you have not authorized this application, or its access was already revoked');
    for (const grant of grants) {
      await revokeGrant(trx, grant.id, now);
      await appendAudit(trx, { type: 'grant.revoked', actorId: userId, clientId, userId, data: { grantId: grant.id, reason: 'revoked by the user in authorized apps' } }, now);
    }
    return grants.length;
  });
}

/** Whether the user ever authorized the client (revoked or not): names it in a confirmation. */
export async function everAuthorized(ctx: ServiceContext, userId: string, clientId: string): Promise<string | undefined> {
  const row = await ctx.db
    .selectFrom('grants as g')
    .innerJoin('oauth_clients as c', 'c.id', 'g.client_id')
    .select('c.name')
    .where('g.user_id', '=', userId)
    .where('g.client_id', '=', clientId)
    .limit(1)
    .executeTakeFirst();
  return row?.name;
}

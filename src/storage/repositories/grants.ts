// grants, and the revocation of everything issued under one.
import type { Selectable } from 'kysely';
import type { GrantRecord, TeamAuthority } from '../../oauth/storage.ts';
import { isAdmin } from '../../services/teams/teams.ts';
import type { GrantsTable } from '../schema.ts';
import { scopesFromColumn } from '../columns.ts';
import type { Executor } from './executor.ts';

/**
 * Newest first. `revoked_at IS NULL` is written as the partial index grants_active states
 * it (migration 006), so both dialects read only active rows, already in order
 * (docs/rules.md#bounded-growth).
 */
export const activeGrantsQuery = (db: Executor, userId: string, clientId: string) =>
  db
    .selectFrom('grants')
    .selectAll()
    .where('user_id', '=', userId)
    .where('client_id', '=', clientId)
    .where('revoked_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc');

/** A grant as the core reads it; a grant that acts for its user has no teamId. */
export function toGrantRecord(r: Selectable<GrantsTable>): GrantRecord {
  return {
    id: r.id,
    userId: r.user_id,
    clientId: r.client_id,
    scopes: scopesFromColumn(r.scopes),
    ...(r.team_id === null ? {} : { teamId: r.team_id }),
    createdAt: r.created_at,
    revokedAt: r.revoked_at,
  };
}

export async function listActiveGrants(db: Executor, userId: string, clientId: string): Promise<GrantRecord[]> {
  return (await activeGrantsQuery(db, userId, clientId).execute()).map(toGrantRecord);
}

/**
 * The active grants the user gave the client on a consent page, newest first: those an
 * organization's identity provider made (docs/integrating.md#enterprise-managed-agents) are
 * left out, so a browser authorization never takes one for the user's consent, nor counts
 * it toward the grant limit. Still one range of the grants_active index.
 */
export async function listConsentedGrants(db: Executor, userId: string, clientId: string): Promise<GrantRecord[]> {
  return (await activeGrantsQuery(db, userId, clientId).where('identity_provider_id', 'is', null).execute()).map(toGrantRecord);
}

/**
 * docs/rules.md#team-authorization: the team's active grants, for revocation when the team is
 * deleted (the partial index grants_team reads them).
 */
export async function activeTeamGrants(db: Executor, teamId: string): Promise<{ id: string; clientId: string; userId: string }[]> {
  const rows = await db.selectFrom('grants').select(['id', 'client_id', 'user_id']).where('team_id', '=', teamId).where('revoked_at', 'is', null).execute();
  return rows.map((r) => ({ id: r.id, clientId: r.client_id, userId: r.user_id }));
}

/** Caller provides the transaction: the grant and all of its tokens end together. */
export async function revokeGrant(db: Executor, grantId: string, at: number): Promise<void> {
  await db.updateTable('grants').set({ revoked_at: at }).where('id', '=', grantId).where('revoked_at', 'is', null).execute();
  await db.updateTable('access_tokens').set({ revoked_at: at }).where('grant_id', '=', grantId).where('revoked_at', 'is', null).execute();
  await db
    .updateTable('refresh_tokens')
    .set({ revoked_at: at, successor_box: null })
    .where('grant_id', '=', grantId)
    .where('revoked_at', 'is', null)
    .execute();
  // Codes of the grant not yet redeemed must not be redeemable either.
  await db.updateTable('authorization_codes').set({ consumed_at: at }).where('grant_id', '=', grantId).where('consumed_at', 'is', null).execute();
}

/**
 * The team with this slug, and whether the user is an owner or admin of it or of its
 * organization (the roles that act on a team, docs/rules.md#membership-rules): one read.
 */
export async function findTeamAuthority(db: Executor, team: { slug: string } | { id: string }, userId: string): Promise<TeamAuthority | undefined> {
  const row = await db
    .selectFrom('teams as t')
    .leftJoin('memberships as tm', (j) => j.onRef('tm.team_id', '=', 't.id').on('tm.user_id', '=', userId))
    .leftJoin('memberships as om', (j) => j.onRef('om.organization_id', '=', 't.organization_id').on('om.user_id', '=', userId))
    .select(['t.id', 't.name', 'tm.role as team_role', 'om.role as org_role'])
    .where('slug' in team ? 't.slug' : 't.id', '=', 'slug' in team ? team.slug : team.id)
    .executeTakeFirst();
  if (row === undefined) return undefined;
  const mayAuthorize = isAdmin(row.team_role) || isAdmin(row.org_role);
  return { id: row.id, name: row.name, mayAuthorize };
}

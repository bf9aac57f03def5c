// grants, and the revocation of everything issued under one.
import type { GrantRecord } from '../../oauth/storage.ts';
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

export async function listActiveGrants(db: Executor, userId: string, clientId: string): Promise<GrantRecord[]> {
  const rows = await activeGrantsQuery(db, userId, clientId).execute();
  return rows.map((r) => ({
    id: r.id,
    userId: r.user_id,
    clientId: r.client_id,
    scopes: scopesFromColumn(r.scopes),
    createdAt: r.created_at,
    revokedAt: r.revoked_at,
  }));
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

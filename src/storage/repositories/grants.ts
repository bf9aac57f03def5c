// grants, and the revocation of everything issued under one.
import type { GrantRecord } from '../../oauth/storage.ts';
import { deserializeScopes, serializeScopes } from '../../oauth/scopes.ts';
import type { Executor } from './executor.ts';

export async function createGrant(db: Executor, g: GrantRecord): Promise<void> {
  await db
    .insertInto('grants')
    .values({
      id: g.id,
      user_id: g.userId,
      client_id: g.clientId,
      scopes: serializeScopes(g.scopes),
      created_at: g.createdAt,
      revoked_at: g.revokedAt,
    })
    .execute();
}

export async function findGrant(db: Executor, id: string): Promise<GrantRecord | undefined> {
  const r = await db.selectFrom('grants').selectAll().where('id', '=', id).executeTakeFirst();
  return r && { id: r.id, userId: r.user_id, clientId: r.client_id, scopes: deserializeScopes(r.scopes), createdAt: r.created_at, revokedAt: r.revoked_at };
}

/**
 * Newest first. `revoked_at IS NULL` is written as the partial index grants_active states
 * it (migration 006), so both dialects read only active rows, already in order (SPEC §2
 * item 24).
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
    scopes: deserializeScopes(r.scopes),
    createdAt: r.created_at,
    revokedAt: r.revoked_at,
  }));
}

/** Takes the user's row lock for the rest of the transaction (a portable SELECT ... FOR UPDATE). */
export async function lockUserGrants(db: Executor, userId: string): Promise<void> {
  await db.updateTable('users').set((eb) => ({ id: eb.ref('id') })).where('id', '=', userId).execute();
}

/**
 * A conditional write on the grant row: on PostgreSQL it waits for a revocation in flight
 * and then sees its result, and it holds the row until the transaction ends.
 */
export async function holdActiveGrant(db: Executor, grantId: string): Promise<boolean> {
  const result = await db.updateTable('grants').set({ revoked_at: null }).where('id', '=', grantId).where('revoked_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** SPEC §2 item 8 when codes share a grant (item 25): only the replayed code's tokens end. */
export async function revokeCodeTokens(db: Executor, grantId: string, codeHash: string, at: number): Promise<void> {
  await db
    .updateTable('access_tokens')
    .set({ revoked_at: at })
    .where('grant_id', '=', grantId)
    .where('code_hash', '=', codeHash)
    .where('revoked_at', 'is', null)
    .execute();
  await db
    .updateTable('refresh_tokens')
    .set({ revoked_at: at, successor_box: null })
    .where('grant_id', '=', grantId)
    .where('code_hash', '=', codeHash)
    .where('revoked_at', 'is', null)
    .execute();
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

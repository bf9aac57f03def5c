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

export async function listActiveGrants(db: Executor, userId: string, clientId: string): Promise<GrantRecord[]> {
  const rows = await db
    .selectFrom('grants')
    .selectAll()
    .where('user_id', '=', userId)
    .where('client_id', '=', clientId)
    .where('revoked_at', 'is', null)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    userId: r.user_id,
    clientId: r.client_id,
    scopes: deserializeScopes(r.scopes),
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

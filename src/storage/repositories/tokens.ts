// access_tokens and refresh_tokens, stored by SHA-256 hash only (SPEC §3).
import type { Kysely, Selectable } from 'kysely';
import type { AccessTokenRecord, AccessTokenWithClient, RefreshTokenRecord } from '../../oauth/storage.ts';
import { deserializeScopes, serializeScopes } from '../../oauth/scopes.ts';
import type { AccessTokensTable, Database, RefreshTokensTable } from '../schema.ts';

type AccessTokensRow = Selectable<AccessTokensTable>;
type RefreshTokensRow = Selectable<RefreshTokensTable>;
import { placeholderRow, prepare } from '../prepared.ts';
import type { Executor } from './executor.ts';

const accessColumns = ['token_hash', 'grant_id', 'code_hash', 'client_id', 'user_id', 'scopes', 'created_at', 'expires_at', 'revoked_at'] as const;
const insertAccessToken = prepare<AccessTokensRow, unknown>((db) => db.insertInto('access_tokens').values(placeholderRow(accessColumns)));

export async function createAccessToken(db: Executor, t: AccessTokenRecord): Promise<void> {
  await insertAccessToken.run(db, {
    token_hash: t.hash,
    grant_id: t.grantId,
    code_hash: t.codeHash,
    client_id: t.clientId,
    user_id: t.userId,
    scopes: serializeScopes(t.scopes),
    created_at: t.createdAt,
    expires_at: t.expiresAt,
    revoked_at: t.revokedAt,
  });
}

/**
 * The token and its client's current state in one indexed read (SPEC §2 item 1); the
 * platform API's access read extends this same query with the path's team or organization.
 */
export const accessTokenWithClient = (db: Kysely<Database>, hash: string) =>
  db
    .selectFrom('access_tokens as a')
    .innerJoin('oauth_clients as c', 'c.id', 'a.client_id')
    .select(['a.token_hash', 'a.grant_id', 'a.code_hash', 'a.client_id', 'a.user_id', 'a.scopes', 'a.created_at', 'a.expires_at', 'a.revoked_at', 'c.state'])
    .where('a.token_hash', '=', hash);

type AccessRow = Pick<AccessTokensRow, 'token_hash' | 'grant_id' | 'code_hash' | 'client_id' | 'user_id' | 'scopes' | 'created_at' | 'expires_at' | 'revoked_at'> & {
  state: AccessTokenWithClient['clientState'];
};

export function toAccessTokenWithClient(row: AccessRow): AccessTokenWithClient {
  return {
    hash: row.token_hash,
    grantId: row.grant_id,
    codeHash: row.code_hash,
    clientId: row.client_id,
    userId: row.user_id,
    scopes: deserializeScopes(row.scopes),
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    clientState: row.state,
  };
}

const selectAccessToken = prepare((db, p: { hash: string }) => accessTokenWithClient(db, p.hash));

export async function findAccessToken(db: Executor, hash: string): Promise<AccessTokenWithClient | undefined> {
  const [row] = (await selectAccessToken.run(db, { hash })).rows;
  return row && toAccessTokenWithClient(row);
}

export async function revokeAccessToken(db: Executor, hash: string, at: number): Promise<void> {
  await db.updateTable('access_tokens').set({ revoked_at: at }).where('token_hash', '=', hash).where('revoked_at', 'is', null).execute();
}

const refreshColumns = ['id', 'token_hash', 'grant_id', 'code_hash', 'client_id', 'user_id', 'scopes', 'parent_id', 'created_at', 'expires_at', 'spent_at', 'successor_box', 'revoked_at'] as const;
const insertRefreshToken = prepare<RefreshTokensRow, unknown>((db) => db.insertInto('refresh_tokens').values(placeholderRow(refreshColumns)));

export async function createRefreshToken(db: Executor, t: RefreshTokenRecord): Promise<void> {
  await insertRefreshToken.run(db, {
    id: t.id,
    token_hash: t.hash,
    grant_id: t.grantId,
    code_hash: t.codeHash,
    client_id: t.clientId,
    user_id: t.userId,
    scopes: serializeScopes(t.scopes),
    parent_id: t.parentId,
    created_at: t.createdAt,
    expires_at: t.expiresAt,
    spent_at: t.spentAt,
    successor_box: t.successorBox,
    revoked_at: t.revokedAt,
  });
}

function toRefreshRecord(r: Selectable<RefreshTokensTable>): RefreshTokenRecord {
  return {
    id: r.id,
    hash: r.token_hash,
    grantId: r.grant_id,
    codeHash: r.code_hash,
    clientId: r.client_id,
    userId: r.user_id,
    scopes: deserializeScopes(r.scopes),
    parentId: r.parent_id,
    createdAt: r.created_at,
    expiresAt: r.expires_at,
    spentAt: r.spent_at,
    successorBox: r.successor_box,
    revokedAt: r.revoked_at,
  };
}

const selectRefreshToken = prepare((db, p: { hash: string }) => db.selectFrom('refresh_tokens').selectAll().where('token_hash', '=', p.hash));

export async function findRefreshToken(db: Executor, hash: string): Promise<RefreshTokenRecord | undefined> {
  const [row] = (await selectRefreshToken.run(db, { hash })).rows;
  return row && toRefreshRecord(row);
}

const spend = prepare((db, p: { id: string; at: number; box: string }) =>
  db
    .updateTable('refresh_tokens')
    .set({ spent_at: p.at, successor_box: p.box })
    .where('id', '=', p.id)
    .where('spent_at', 'is', null)
    .where('revoked_at', 'is', null),
);

export async function spendRefreshToken(db: Executor, id: string, at: number, successorBox: string): Promise<boolean> {
  const result = await spend.run(db, { id, at, box: successorBox });
  return Number(result.numAffectedRows) === 1;
}

/** SPEC §2 item 9: successors are kept only for the replay window. */
export async function purgeExpiredSuccessors(db: Executor, spentBefore: number): Promise<number> {
  const result = await db
    .updateTable('refresh_tokens')
    .set({ successor_box: null })
    .where('successor_box', 'is not', null)
    .where('spent_at', '<', spentBefore)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

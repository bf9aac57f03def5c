// authorization_codes: single use is decided by a conditional UPDATE (STYLE practice 6).
import type { Selectable } from 'kysely';
import type { CodeRecord } from '../../oauth/storage.ts';
import { deserializeScopes, serializeScopes } from '../../oauth/scopes.ts';
import type { AuthorizationCodesTable } from '../schema.ts';
import { prepare } from '../prepared.ts';
import type { Executor } from './executor.ts';

function toRecord(r: Selectable<AuthorizationCodesTable>): CodeRecord {
  return {
    hash: r.code_hash,
    clientId: r.client_id,
    userId: r.user_id,
    grantId: r.grant_id,
    redirectUri: r.redirect_uri,
    scopes: deserializeScopes(r.scopes),
    codeChallenge: r.code_challenge,
    createdAt: r.created_at,
    expiresAt: r.expires_at,
    consumedAt: r.consumed_at,
  };
}

export async function createCode(db: Executor, c: CodeRecord): Promise<void> {
  await db
    .insertInto('authorization_codes')
    .values({
      code_hash: c.hash,
      client_id: c.clientId,
      user_id: c.userId,
      grant_id: c.grantId,
      redirect_uri: c.redirectUri,
      scopes: serializeScopes(c.scopes),
      code_challenge: c.codeChallenge,
      created_at: c.createdAt,
      expires_at: c.expiresAt,
      consumed_at: null,
    })
    .execute();
}

const consume = prepare((db, p: { hash: string; at: number }) =>
  db.updateTable('authorization_codes').set({ consumed_at: p.at }).where('code_hash', '=', p.hash).where('consumed_at', 'is', null).returningAll(),
);

export async function consumeCode(db: Executor, hash: string, at: number): Promise<CodeRecord | undefined> {
  const [row] = (await consume.run(db, { hash, at })).rows;
  return row && toRecord(row);
}

export async function findCode(db: Executor, hash: string): Promise<CodeRecord | undefined> {
  const row = await db.selectFrom('authorization_codes').selectAll().where('code_hash', '=', hash).executeTakeFirst();
  return row && toRecord(row);
}

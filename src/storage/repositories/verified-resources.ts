// verified_resources: emails and phone numbers a user or team has proven to control.
// A pending verification code is kept only as a hash, with an expiry and an attempt count.
import type { Selectable } from 'kysely';
import type { VerifiedResourcesTable } from '../schema.ts';
import type { VerificationOwner } from '../../services/accounts/store.ts';
import type { Executor } from './executor.ts';

export type VerifiedResourceRow = Selectable<VerifiedResourcesTable>;
export type { VerificationOwner };
export type ResourceKind = VerifiedResourceRow['kind'];

const col = (owner: VerificationOwner) => ('userId' in owner ? (['user_id', owner.userId] as const) : (['team_id', owner.teamId] as const));

export async function listVerified(db: Executor, owner: VerificationOwner, kind: ResourceKind, limit: number, offset: number): Promise<VerifiedResourceRow[]> {
  const [column, value] = col(owner);
  return db
    .selectFrom('verified_resources')
    .selectAll()
    .where(column, '=', value)
    .where('kind', '=', kind)
    .where('verified_at', 'is not', null)
    .orderBy('verified_at')
    .orderBy('id')
    .limit(limit)
    .offset(offset)
    .execute();
}

export async function findResource(db: Executor, owner: VerificationOwner, kind: ResourceKind, value: string): Promise<VerifiedResourceRow | undefined> {
  const [column, id] = col(owner);
  return db.selectFrom('verified_resources').selectAll().where(column, '=', id).where('kind', '=', kind).where('value', '=', value).executeTakeFirst();
}

/** A new code replaces any pending one and resets the attempts. */
export async function setPendingCode(db: Executor, id: string, codeHash: string, expiresAt: number, at: number): Promise<void> {
  await db.updateTable('verified_resources').set({ code_hash: codeHash, code_expires_at: expiresAt, attempts: 0, updated_at: at }).where('id', '=', id).execute();
}

/** Counts one attempt if any are left; atomic, so parallel guesses cannot exceed the limit. */
export async function spendAttempt(db: Executor, id: string, maxAttempts: number, at: number): Promise<boolean> {
  const result = await db
    .updateTable('verified_resources')
    .set((eb) => ({ attempts: eb('attempts', '+', 1), updated_at: at }))
    .where('id', '=', id)
    .where('code_hash', 'is not', null)
    .where('attempts', '<', maxAttempts)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Marks verified and clears the code, only if this very code is still pending (single use). */
export async function markVerified(db: Executor, id: string, codeHash: string, at: number): Promise<boolean> {
  const result = await db
    .updateTable('verified_resources')
    .set({ verified_at: at, code_hash: null, code_expires_at: null, attempts: 0, updated_at: at })
    .where('id', '=', id)
    .where('code_hash', '=', codeHash)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

// VerifiedResourceStore (services/accounts/store.ts) on Kysely: emails and phone numbers a user
// or team has proven to control. A pending verification code is kept only as a hash, with an
// expiry and an attempt count.
import type { Kysely, Selectable } from 'kysely';
import type { VerificationOwner, VerifiedResource, VerifiedResourceStore } from '../../services/accounts/store.ts';
import type { Database, VerifiedResourcesTable } from '../schema.ts';

const toResource = (r: Selectable<VerifiedResourcesTable>): VerifiedResource => ({
  id: r.id,
  userId: r.user_id,
  teamId: r.team_id,
  kind: r.kind,
  value: r.value,
  verifiedAt: r.verified_at,
  codeHash: r.code_hash,
  codeExpiresAt: r.code_expires_at,
  attempts: r.attempts,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const ownerColumn = (owner: VerificationOwner) => ('userId' in owner ? (['user_id', owner.userId] as const) : (['team_id', owner.teamId] as const));

export function createVerifiedResourceStore(db: Kysely<Database>): VerifiedResourceStore {
  const ofOwner = (owner: VerificationOwner) => {
    const [column, value] = ownerColumn(owner);
    return db.selectFrom('verified_resources').selectAll().where(column, '=', value);
  };
  return {
    find: async (owner, kind, value) => {
      const row = await ofOwner(owner).where('kind', '=', kind).where('value', '=', value).executeTakeFirst();
      return row && toResource(row);
    },
    listVerified: async (owner, kind, limit, offset) => {
      const rows = await ofOwner(owner).where('kind', '=', kind).where('verified_at', 'is not', null).orderBy('verified_at').orderBy('id').limit(limit).offset(offset).execute();
      return rows.map(toResource);
    },
    insert: async (r) => {
      // ON CONFLICT DO NOTHING: a parallel request that inserted it first leaves no error behind.
      const result = await db
        .insertInto('verified_resources')
        .values({
          id: r.id,
          user_id: r.userId,
          team_id: r.teamId,
          kind: r.kind,
          value: r.value,
          verified_at: r.verifiedAt,
          code_hash: r.codeHash,
          code_expires_at: r.codeExpiresAt,
          attempts: r.attempts,
          created_at: r.createdAt,
          updated_at: r.updatedAt,
        })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
    },
    // A new code replaces any pending one and resets the attempts.
    setPendingCode: async (id, codeHash, expiresAt, at) => {
      await db.updateTable('verified_resources').set({ code_hash: codeHash, code_expires_at: expiresAt, attempts: 0, updated_at: at }).where('id', '=', id).execute();
    },
    // Atomic, so parallel guesses cannot exceed the limit.
    spendAttempt: async (id, maxAttempts, at) => {
      const result = await db
        .updateTable('verified_resources')
        .set((eb) => ({ attempts: eb('attempts', '+', 1), updated_at: at }))
        .where('id', '=', id)
        .where('code_hash', 'is not', null)
        .where('attempts', '<', maxAttempts)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    // Only if this very code is still pending: a code is used once.
    markVerified: async (id, codeHash, at) => {
      const result = await db
        .updateTable('verified_resources')
        .set({ verified_at: at, code_hash: null, code_expires_at: null, attempts: 0, updated_at: at })
        .where('id', '=', id)
        .where('code_hash', '=', codeHash)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
  };
}

// VerifiedResourceStore (services/accounts/store.ts) over verified_resources.
import type { Kysely, Selectable } from 'kysely';
import type { VerifiedResource, VerifiedResourceStore } from '../../services/accounts/store.ts';
import * as repo from '../repositories/verified-resources.ts';
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

export function createVerifiedResourceStore(db: Kysely<Database>): VerifiedResourceStore {
  return {
    find: async (owner, kind, value) => {
      const row = await repo.findResource(db, owner, kind, value);
      return row && toResource(row);
    },
    listVerified: async (owner, kind, limit, offset) => (await repo.listVerified(db, owner, kind, limit, offset)).map(toResource),
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
    setPendingCode: (id, codeHash, expiresAt, at) => repo.setPendingCode(db, id, codeHash, expiresAt, at),
    spendAttempt: (id, maxAttempts, at) => repo.spendAttempt(db, id, maxAttempts, at),
    markVerified: (id, codeHash, at) => repo.markVerified(db, id, codeHash, at),
  };
}

// The signing keys of ID tokens (src/oauth/signing-keys.ts: SigningKeyStore) on `signing_keys`
// (migration 033). A set is written with ON CONFLICT DO NOTHING on (generation, kty): of two
// writers of one generation the database decides which one adds it
// (ARCHITECTURE.md#single-use-is-atomic), without aborting a surrounding transaction.
import type { JWK } from 'jose';
import type { SigningKeyRecord, SigningKeyStore, SigningKeyType } from '../../oauth/signing-keys.ts';
import type { Executor } from '../repositories/executor.ts';

export function createSigningKeyStore(db: Executor): SigningKeyStore {
  return {
    async listSigningKeys() {
      const rows = await db.selectFrom('signing_keys').selectAll().orderBy('generation', 'desc').orderBy('kty').execute();
      return rows.map(
        (r): SigningKeyRecord => ({
          kid: r.kid,
          generation: Number(r.generation),
          kty: r.kty as SigningKeyType,
          publicJwk: JSON.parse(r.public_jwk) as JWK,
          sealedPrivateJwk: r.sealed_private_jwk,
          createdAt: Number(r.created_at),
          retiredAt: r.retired_at === null ? null : Number(r.retired_at),
        }),
      );
    },
    async addSigningKeys(keys) {
      if (keys.length === 0) return false;
      const result = await db
        .insertInto('signing_keys')
        .values(keys.map((k) => ({ kid: k.kid, generation: k.generation, kty: k.kty, public_jwk: JSON.stringify(k.publicJwk), sealed_private_jwk: k.sealedPrivateJwk, created_at: k.createdAt, retired_at: k.retiredAt })))
        .onConflict((oc) => oc.columns(['generation', 'kty']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },
    async retireSigningKeysBefore(generation, at) {
      await db.updateTable('signing_keys').set({ retired_at: at }).where('generation', '<', generation).where('retired_at', 'is', null).execute();
    },
  };
}

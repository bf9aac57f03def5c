// The replay check of DPoP proofs (src/oauth/dpop.ts: DpopProofStore; RFC 9449 §11.1) on the
// `dpop_proofs` table of migration 014: the primary key decides, so of two instances that
// see one proof exactly one records it (ARCHITECTURE.md#single-use-is-atomic). ON CONFLICT DO
// NOTHING rather than catching the violation: on PostgreSQL a failed statement would abort
// a surrounding transaction.
import type { DpopProofStore } from '../../oauth/dpop.ts';
import { prepare } from '../prepared.ts';
import type { Executor } from '../repositories/executor.ts';

const insertProof = prepare((db, p: { key: string; expiresAt: number }) =>
  db
    .insertInto('dpop_proofs')
    .values({ proof_key: p.key, expires_at: p.expiresAt })
    .onConflict((oc) => oc.column('proof_key').doNothing()),
);

export function createDpopProofStore(db: Executor): DpopProofStore {
  return {
    async recordProof(proofKey, expiresAt) {
      const result = await insertProof.run(db, { key: proofKey, expiresAt });
      return Number(result.numAffectedRows ?? 0) === 1;
    },
  };
}

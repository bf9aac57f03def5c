// VerifiedResourceStore (src/platform/verified-resources/store.ts) over its repository.
import type { VerifiedResourceStore } from '../../../platform/verified-resources/store.ts';
import type { Executor } from '../../repositories/executor.ts';
import * as repo from '../../repositories/verified-resources.ts';

export function createVerifiedResourceStore(db: Executor): VerifiedResourceStore {
  return {
    listVerified: async (owner, kind, limit, offset) =>
      (await repo.listVerified(db, owner, kind, limit, offset)).map((r) => ({ id: r.id, kind: r.kind, value: r.value, verifiedAt: r.verified_at })),
  };
}

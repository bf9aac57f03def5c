// ConnectionRequestStore (src/platform/connection-requests/store.ts) over connection_requests.
import type { Selectable } from 'kysely';
import type { ConnectionKind, ConnectionRequest, ConnectionRequestStore } from '../../../platform/connection-requests/store.ts';
import type { Executor } from '../../repositories/executor.ts';
import type { ConnectionRequestsTable } from '../../schema.ts';

const toRequest = (r: Selectable<ConnectionRequestsTable>): ConnectionRequest => ({
  tokenHash: r.token_hash,
  userId: r.user_id,
  clientId: r.client_id,
  kind: r.kind as ConnectionKind,
  provider: r.provider,
  returnTo: r.return_to,
  onErrorReturnTo: r.on_error_return_to,
  createdAt: Number(r.created_at),
  expiresAt: Number(r.expires_at),
});

export function createConnectionRequestStore(db: Executor): ConnectionRequestStore {
  return {
    insert: async (r) => {
      await db
        .insertInto('connection_requests')
        .values({
          token_hash: r.tokenHash,
          user_id: r.userId,
          client_id: r.clientId,
          kind: r.kind,
          provider: r.provider,
          return_to: r.returnTo,
          on_error_return_to: r.onErrorReturnTo,
          created_at: r.createdAt,
          expires_at: r.expiresAt,
          consumed_at: null,
        })
        .execute();
    },
    findLive: async (tokenHash, now) => {
      const r = await db
        .selectFrom('connection_requests as r')
        .innerJoin('oauth_clients as c', 'c.id', 'r.client_id')
        .selectAll('r')
        .select('c.name as client_name')
        .where('r.token_hash', '=', tokenHash)
        .where('r.consumed_at', 'is', null)
        .where('r.expires_at', '>', now)
        .executeTakeFirst();
      return r && { ...toRequest(r), clientName: r.client_name };
    },
    consume: async (tokenHash, userId, now) => {
      const r = await db
        .updateTable('connection_requests')
        .set({ consumed_at: now })
        .where('token_hash', '=', tokenHash)
        .where('user_id', '=', userId)
        .where('consumed_at', 'is', null)
        .where('expires_at', '>', now)
        .returningAll()
        .executeTakeFirst();
      return r && toRequest(r);
    },
  };
}

// What the core did, told to whoever counts it (gatehouse_events_total;
// docs/operating.md#health-metrics-logs): each audit event the core writes, once it is durable. The core's
// transactions run through `reportingTransaction`, which notes the events written on the
// transaction's store and tells them after the commit, so a rolled-back event is never
// counted and the counts cannot disagree with the audit trail.
import type { OAuthContext } from './context.ts';
import type { OAuthAuditEventType, OAuthStore } from './storage.ts';

/** The port: told of each audit event the core wrote, after its transaction committed. */
export interface OAuthEvents {
  committed(type: OAuthAuditEventType): void;
}

/** Nobody counts: the events are in the audit trail only. */
export const uncounted: OAuthEvents = { committed: () => undefined };

/**
 * Runs fn in one transaction of `ctx.store` (the database's store, not a transaction's:
 * the events are told when this transaction ends) and tells `ctx.events` of every audit
 * event written through the store fn receives, once it has committed; nothing when fn
 * throws and the transaction rolls back.
 */
export async function reportingTransaction<T>(ctx: OAuthContext, fn: (tx: OAuthStore) => Promise<T>): Promise<T> {
  const written: OAuthAuditEventType[] = [];
  const result = await ctx.store.transaction((tx) => fn(noting(tx, written)));
  const events = ctx.events ?? uncounted;
  for (const type of written) events.committed(type);
  return result;
}

/**
 * A write the store makes atomic on its own (OAuthStore.rotateRefreshToken), run outside any
 * transaction of the core's: its audit event is told once the write returned true, by which
 * time it has committed.
 */
export async function reportingWrite(ctx: OAuthContext, type: OAuthAuditEventType, write: () => Promise<boolean>): Promise<boolean> {
  const done = await write();
  if (done) (ctx.events ?? uncounted).committed(type);
  return done;
}

/**
 * As reportingTransaction, on a port of the core whose transactions carry the core's store,
 * bound to the same transaction, as `oauth` (identity-assertion.ts: IdentityAssertionStore):
 * the audit events fn writes through `tx.oauth` are told once the transaction has committed.
 */
export async function reportingPortTransaction<S extends { oauth: OAuthStore; transaction<R>(fn: (tx: S) => Promise<R>): Promise<R> }, T>(ctx: OAuthContext, port: S, fn: (tx: S) => Promise<T>): Promise<T> {
  const written: OAuthAuditEventType[] = [];
  const result = await port.transaction((tx) => fn({ ...tx, oauth: noting(tx.oauth, written) }));
  const events = ctx.events ?? uncounted;
  for (const type of written) events.committed(type);
  return result;
}

/** The transaction's store, noting in `written` each audit event it writes, a nested transaction's too. */
function noting(tx: OAuthStore, written: OAuthAuditEventType[]): OAuthStore {
  // Methods, not arrow functions in properties: this runs once per transaction, and tsx gives
  // each named arrow a defineProperty call (esbuild's keepNames), a method none.
  return {
    ...tx,
    audit: {
      async append(event, at) {
        await tx.audit.append(event, at);
        written.push(event.type);
      },
    },
    async createTokenPair(access, refresh, issued, at) {
      await tx.createTokenPair(access, refresh, issued, at);
      written.push(issued.type);
    },
    async rotateRefreshToken(id, at, successorBox, access, refresh, rotated) {
      const done = await tx.rotateRefreshToken(id, at, successorBox, access, refresh, rotated);
      if (done) written.push(rotated.type);
      return done;
    },
    transaction(fn) {
      return tx.transaction((inner) => fn(noting(inner, written)));
    },
  };
}

// A decorator of the protocol core's storage port that reports each audit event once it is
// durable: at once outside a transaction, at commit inside one (a rolled-back event is not
// reported). app.ts wraps the store with it to feed gatehouse_events_total, so the counts
// and the audit log cannot disagree, and neither the core nor storage knows about metrics.
import type { OAuthAuditEventType, OAuthStore } from '../oauth/storage.ts';

export function reportingCommittedEvents(store: OAuthStore, report: (type: OAuthAuditEventType) => void): OAuthStore {
  return {
    ...store,
    audit: {
      append: async (event, at) => {
        await store.audit.append(event, at);
        report(event.type);
      },
    },
    createTokenPair: async (access, refresh, issued, at) => {
      await store.createTokenPair(access, refresh, issued, at);
      report(issued.type);
    },
    transaction: async (fn) => {
      const pending: OAuthAuditEventType[] = [];
      const result = await store.transaction((tx) => fn(collecting(tx, pending)));
      for (const type of pending) report(type);
      return result;
    },
  };
}

/** Inside a transaction: events wait in `pending` for the outermost commit, nested ones too. */
function collecting(tx: OAuthStore, pending: OAuthAuditEventType[]): OAuthStore {
  return {
    ...tx,
    audit: {
      append: async (event, at) => {
        await tx.audit.append(event, at);
        pending.push(event.type);
      },
    },
    createTokenPair: async (access, refresh, issued, at) => {
      await tx.createTokenPair(access, refresh, issued, at);
      pending.push(issued.type);
    },
    transaction: (fn) => tx.transaction((inner) => fn(collecting(inner, pending))),
  };
}

// A client's audit trail for people (docs/rules.md#audit-events): events with the actor's identity.
import type { ServiceContext } from '../context.ts';
import type { ClientAuditEvent } from './store.ts';

export type ClientEvent = ClientAuditEvent;

export async function listClientEvents(ctx: ServiceContext, clientId: string, limit = 100): Promise<ClientEvent[]> {
  return ctx.stores.clients.listEvents(clientId, limit);
}

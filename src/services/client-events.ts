// A client's audit trail for people (SPEC §2 item 16): events with the actor's identity.
import { listAudit, type AuditRow } from '../storage/repositories/audit.ts';
import type { ServiceContext } from './context.ts';

export interface ClientEvent extends AuditRow {
  actor: { id: string; name: string; email: string; admin: boolean } | null;
}

export async function listClientEvents(ctx: ServiceContext, clientId: string, limit = 100): Promise<ClientEvent[]> {
  const events = await listAudit(ctx.db, { clientId, limit });
  const ids = [...new Set(events.map((e) => e.actorId).filter((id): id is string => id !== null))];
  const users =
    ids.length === 0 ? [] : await ctx.db.selectFrom('users').select(['id', 'name', 'email', 'is_admin']).where('id', 'in', ids).execute();
  const byId = new Map(users.map((u) => [u.id, { id: u.id, name: u.name, email: u.email, admin: u.is_admin === 1 }]));
  return events.map((e) => ({ ...e, actor: e.actorId === null ? null : (byId.get(e.actorId) ?? null) }));
}

// audit_events: append-only records.
import type { AuditEventInput as AuditEvent } from '../../services/audit.ts';
import { placeholderRow, prepare } from '../prepared.ts';
import type { Executor } from './executor.ts';
import type { AuditEntry } from '../../services/audit-log.ts';

export type AuditValues = { type: string; actor_id: string | null; client_id: string | null; user_id: string | null; data: string | null; created_at: number };
export const auditColumns = ['type', 'actor_id', 'client_id', 'user_id', 'data', 'created_at'] as const;
export const insertAudit = prepare<AuditValues, unknown>((db) => db.insertInto('audit_events').values(placeholderRow(auditColumns)));

/** The event as its row (absent actor, client, user and data are null). */
export function auditRow(e: AuditEvent, at: number): AuditValues {
  return {
    type: e.type,
    actor_id: e.actorId ?? null,
    client_id: e.clientId ?? null,
    user_id: e.userId ?? null,
    data: e.data === undefined ? null : JSON.stringify(e.data),
    created_at: at,
  };
}

export async function appendAudit(db: Executor, e: AuditEvent, at: number): Promise<void> {
  await insertAudit.run(db, auditRow(e, at));
}


export async function listAudit(db: Executor, filter: { clientId?: string; userId?: string; limit?: number }): Promise<AuditEntry[]> {
  let q = db.selectFrom('audit_events').selectAll().orderBy('id', 'desc').limit(filter.limit ?? 200);
  if (filter.clientId !== undefined) q = q.where('client_id', '=', filter.clientId);
  if (filter.userId !== undefined) q = q.where('user_id', '=', filter.userId);
  const rows = await q.execute();
  return rows.map((r) => ({
    id: r.id,
    type: r.type,
    actorId: r.actor_id,
    clientId: r.client_id,
    userId: r.user_id,
    data: r.data === null ? null : (JSON.parse(r.data) as Record<string, unknown>),
    createdAt: r.created_at,
  }));
}

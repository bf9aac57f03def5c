// Reading the audit log back (gatehouse audit, docs/rules.md#audit-events).

/** A recorded audit event. */
export interface AuditEntry {
  id: number;
  type: string;
  actorId: string | null;
  clientId: string | null;
  userId: string | null;
  data: Record<string, unknown> | null;
  createdAt: number;
}

export interface AuditLogReader {
  /** The events matching every given filter, newest first, at most `limit` (default 200). */
  list(filter: { clientId?: string; userId?: string; limit?: number }): Promise<AuditEntry[]>;
}

// The audit log as the services append to it (SECURITY.md: logs and audit): the core's one audit port
// (oauth/storage.ts AuditLog), with every name the application writes.
import type { AuditEvent, AuditLog } from '../oauth/storage.ts';
import type { AuditEventType } from './audit-events.ts';

/** An event to record: its type, who did it, about which client and user, non-secret details. */
export type AuditEventInput = AuditEvent<AuditEventType>;

export type AuditStore = AuditLog<AuditEventType>;

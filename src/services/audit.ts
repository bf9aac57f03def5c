// The audit log as the services append to it (SPEC §2 item 16).
import type { AuditEvent } from './audit-events.ts';

/** An event to record: its type, who did it, about which client and user, non-secret details. */
export type AuditEventInput = AuditEvent;

export interface AuditStore {
  /** Appends the event at `at`; inside a transaction it lands, or not, with the caller's writes. */
  append(event: AuditEventInput, at: number): Promise<void>;
}

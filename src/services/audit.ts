// The audit log port (SPEC §2 item 16): services append events inside their transaction.
import type { AuditEvent } from '../oauth/storage.ts';

/** An event to append: its type, who did it, which client and user it is about, and details. */
export type AuditEventInput = AuditEvent;

export interface AuditStore {
  /** Appends the event at `at`; it lands with the caller's transaction, or not at all. */
  append(event: AuditEventInput, at: number): Promise<void>;
}

// The audit log port of the services, over audit_events.
import type { Kysely } from 'kysely';
import type { AuditStore } from '../../services/audit.ts';
import { appendAudit } from '../repositories/audit.ts';
import type { Database } from '../schema.ts';

export function createAuditStore(db: Kysely<Database>): AuditStore {
  return { append: (event, at) => appendAudit(db, event, at) };
}

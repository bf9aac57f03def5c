// AuditStore (services/audit.ts) and the audit log's reader (services/audit-log.ts).
import type { Kysely } from 'kysely';
import type { AuditLogReader } from '../../services/audit-log.ts';
import type { AuditStore } from '../../services/audit.ts';
import { appendAudit, listAudit } from '../repositories/audit.ts';
import type { Database } from '../schema.ts';

export function createAuditStore(db: Kysely<Database>): AuditStore {
  return { append: (event, at) => appendAudit(db, event, at) };
}

export function createAuditLogReader(db: Kysely<Database>): AuditLogReader {
  return { list: (filter) => listAudit(db, filter) };
}

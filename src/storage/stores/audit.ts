// The audit trail's one port (oauth/storage.ts AuditLog, the services' AuditStore), for the
// core's store and the services' alike, and the audit log's reader (services/audit-log.ts).
import type { Kysely } from 'kysely';
import type { AuditLogReader } from '../../services/audit-log.ts';
import type { AuditStore } from '../../services/audit.ts';
import { appendAudit, listAudit } from '../repositories/audit.ts';
import type { Executor } from '../repositories/executor.ts';
import type { Database } from '../schema.ts';

export function createAuditStore(db: Executor): AuditStore {
  // A method: every transaction of the core builds one, and tsx gives a named arrow a defineProperty call.
  return {
    append(event, at) {
      return appendAudit(db, event, at);
    },
  };
}

export function createAuditLogReader(db: Kysely<Database>): AuditLogReader {
  return { list: (filter) => listAudit(db, filter) };
}

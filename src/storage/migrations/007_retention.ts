// docs/rules.md#retention: what has ended is deleted in small batches by every instance and by
// `gatehouse prune`. Each batch finds its rows through one of these indexes, so a sweep
// costs the rows it deletes, never a scan of the table. The time columns grow with the
// clock, so on the hot inserts a new entry lands at the right edge of its B-tree.
// Partial indexes (revoked refresh tokens, kept successors) hold only the few rows a sweep
// looks for, and are written only when a row enters that state.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const byTime: Array<[name: string, table: string, column: string]> = [
    ['authorization_codes_expires', 'authorization_codes', 'expires_at'],
    ['access_tokens_expires', 'access_tokens', 'expires_at'],
    ['refresh_tokens_expires', 'refresh_tokens', 'expires_at'],
    ['sessions_expires', 'sessions', 'expires_at'],
    ['authorization_requests_created', 'authorization_requests', 'created_at'],
    ['audit_events_created', 'audit_events', 'created_at'],
  ];
  for (const [name, table, column] of byTime) {
    await db.schema.createIndex(name).on(table).column(column).execute();
  }
  await db.schema
    .createIndex('refresh_tokens_revoked')
    .on('refresh_tokens')
    .column('revoked_at')
    .where(sql.ref('revoked_at'), 'is not', null)
    .execute();
  // docs/rules.md#refresh-rotation: the successor of a spent token is kept only for the replay window.
  await db.schema
    .createIndex('refresh_tokens_successor')
    .on('refresh_tokens')
    .column('spent_at')
    .where(sql.ref('successor_box'), 'is not', null)
    .execute();
}

// Pushed authorization requests (RFC 9126, docs/rules.md#pushed-authorization): the
// parameters a client pushed, kept under the SHA-256 of the request_uri until it is used or
// expires, and the per-client flag that makes pushing mandatory (RFC 9126 §6).
import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../database.ts';

export async function up(db: Kysely<any>, dialect: DialectName): Promise<void> {
  await db.schema
    .createTable('pushed_authorization_requests')
    .addColumn('request_hash', 'text', (c) => c.primaryKey())
    .addColumn('client_id', 'text', (c) => c.notNull().references('oauth_clients.id').onDelete('cascade'))
    .addColumn('parameters', 'text', (c) => c.notNull())
    .addColumn('resources', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('consumed_at', 'bigint')
    .modifyEnd(dialect === 'sqlite' ? sql`without rowid` : sql``)
    .execute();
  // docs/rules.md#retention: pruning finds ended requests by expiry.
  await db.schema.createIndex('pushed_authorization_requests_expires').on('pushed_authorization_requests').column('expires_at').execute();
  await db.schema
    .alterTable('oauth_clients')
    .addColumn('require_pushed_authorization_requests', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

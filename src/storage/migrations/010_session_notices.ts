// One-time notices of a browser session (docs/rules.md#forms-and-pages): what a form's redirect target
// shows once — a new client secret above all — kept server-side, sealed under a key only
// the session's cookie can give (services/accounts/notices.ts), and gone with the session.
import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../database.ts';

export async function up(db: Kysely<any>, dialect: DialectName): Promise<void> {
  await db.schema
    .createTable('session_notices')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('session_hash', 'text', (c) => c.notNull().references('sessions.id_hash').onDelete('cascade'))
    .addColumn('sealed', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .modifyEnd(dialect === 'sqlite' ? sql`without rowid` : sql``)
    .execute();
  await db.schema.createIndex('session_notices_session').on('session_notices').columns(['session_hash', 'expires_at']).execute();
}

// A user's conferencing apps are connections of category 'conferencing' (docs/integrating.md#conferencing-apps);
// which one new bookings meet on is the user's default, one row per user that names the
// connection. It goes with the connection (disconnecting the default app leaves none) and
// with the user. Times are millisecond BIGINTs, as in 002.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('conferencing_defaults')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('connected_app_id', 'text', (c) => c.notNull().references('connected_apps.id').onDelete('cascade'))
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('conferencing_defaults_app').on('conferencing_defaults').column('connected_app_id').execute();
}

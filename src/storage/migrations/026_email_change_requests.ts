// A change of the sign-in address that an application asked for (docs/rules.md#profile): it
// waits here until the user confirms it in the web app, signed in, so that a token alone
// never moves the address an account is logged in with. One per user: a newer request
// replaces it; confirming, dismissing or deleting the account removes it.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('email_change_requests')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    // The application that asked, named on the page; gone with it.
    .addColumn('client_id', 'text', (c) => c.references('oauth_clients.id').onDelete('set null'))
    .addColumn('requested_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  // docs/rules.md#retention: lapsed requests are deleted by expiry.
  await db.schema.createIndex('email_change_requests_expires').on('email_change_requests').column('expires_at').execute();
}

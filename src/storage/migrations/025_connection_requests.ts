// Connection requests (docs/rules.md#connect-pages): what GET /v2/calendars/:calendar/connect and
// GET /v2/conferencing/:app/oauth/auth-url ask for, held until the user confirms or cancels it
// on the connect page, or it expires. Kept by the SHA-256 hash of its token only, as team invite
// links are (023): the token is in the page's address, given once to the application that
// asked. consumed_at is set once, by a conditional UPDATE, so a request is used once. Times are
// millisecond BIGINTs, as in 002.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('connection_requests')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('client_id', 'text', (c) => c.notNull().references('oauth_clients.id').onDelete('cascade'))
    // 'calendar' or 'conferencing'; provider is the platform's name in the path (google, office365, zoom, msteams).
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull())
    // A calendar's redir (optional) or a conferencing app's returnTo; onErrorReturnTo for conferencing only.
    .addColumn('return_to', 'text')
    .addColumn('on_error_return_to', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('consumed_at', 'bigint')
    .execute();
  // Deleting a user or a client deletes their requests: each cascade finds them by index.
  await db.schema.createIndex('connection_requests_user').on('connection_requests').column('user_id').execute();
  await db.schema.createIndex('connection_requests_client').on('connection_requests').column('client_id').execute();
  // docs/rules.md#retention: expired requests, used or not, are deleted by expiry.
  await db.schema.createIndex('connection_requests_expires').on('connection_requests').column('expires_at').execute();
}

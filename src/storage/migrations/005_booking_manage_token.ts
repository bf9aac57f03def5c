// docs/rules.md#public-booking: a booking's manageToken (the secret of the booker's confirmation link),
// kept only as its SHA-256 hash, like every other credential (docs/rules.md#token-formats). Bookings made
// before this migration have none: only an access token with the booking write scope of
// their family can cancel or reschedule them. Lookups go by uid (the primary key), so the
// hash needs no index of its own.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('bookings').addColumn('manage_token_hash', 'text').execute();
}

// What a user tells of themselves, as Cal.com API v2's PATCH /v2/me takes it (docs/rules.md#profile):
// a biography, the address of an avatar, a language (one of the platform's locales) and a small
// flat metadata object an application keeps for the user. Nullable columns and one with a
// default: existing accounts have none of them, and no table is made again on either database.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('bio', 'text').execute();
  await db.schema.alterTable('users').addColumn('avatar_url', 'text').execute();
  await db.schema.alterTable('users').addColumn('locale', 'text').execute();
  // JSON text, as the other JSON columns (002): an object of at most 50 keys.
  await db.schema
    .alterTable('users')
    .addColumn('metadata', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();
}

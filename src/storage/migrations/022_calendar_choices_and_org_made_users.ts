// A user's calendar choices become stored (docs/integrating.md#calendars): `connected_apps`
// gets `selected` (checked for conflicts, as the platform's selected calendars) and
// `destination` (where new events are written; at most one per user, by a partial unique
// index). Both go with the connection when it is disconnected.
//
// `users` gets `created_by_organization_id`: the organization whose admin made the account
// through the API (docs/rules.md#organization-made-accounts). Only such an account, with no
// other membership, may be deleted by that organization; any other is only removed from it.
// Adding a nullable column is the same on both databases: no table is made again.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('connected_apps').addColumn('selected', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('connected_apps').addColumn('destination', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema
    .createIndex('connected_apps_one_destination')
    .on('connected_apps')
    .column('user_id')
    .unique()
    .where(sql<boolean>`destination = 1`)
    .execute();
  await db.schema
    .alterTable('users')
    .addColumn('created_by_organization_id', 'text', (c) => c.references('organizations.id').onDelete('set null'))
    .execute();
}

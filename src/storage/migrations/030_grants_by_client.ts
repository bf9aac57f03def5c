// docs/rules.md#retention: an open registration goes when no grant was ever made for it. Deleting a
// client reads every table whose foreign key names it (grants, pushed requests, address
// changes), and finding unused ones reads grants by client alone: none of these had an
// index that starts with client_id (001 and 006 index grants by user first), so each batch
// would read those tables whole once per client.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('grants_client').on('grants').column('client_id').execute();
  await db.schema.createIndex('pushed_authorization_requests_client').on('pushed_authorization_requests').column('client_id').execute();
  await db.schema.createIndex('email_change_requests_client').on('email_change_requests').column('client_id').execute();
}

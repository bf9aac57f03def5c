// docs/rules.md#review-versions: a client's version, raised by every change of its configuration or of
// its held change, so that a review decision can name the version it was made on. Existing
// clients start at 1, as new ones do. An integer column with a default is the same
// statement on SQLite and PostgreSQL.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('oauth_clients').addColumn('version', 'integer', (c) => c.notNull().defaultTo(1)).execute();
}

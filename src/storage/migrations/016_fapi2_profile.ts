// The FAPI 2.0 Security Profile per client (docs/rules.md#fapi2): a client that opts in must push
// its authorization requests, send PKCE S256 and bind its tokens with DPoP, whatever its other
// flags say.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('oauth_clients')
    .addColumn('fapi2', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

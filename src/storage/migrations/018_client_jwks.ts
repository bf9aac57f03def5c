// private_key_jwt client authentication (RFC 7523 §2.2, RFC 7591 §2; docs/rules.md#client-authentication):
// - token_endpoint_auth_method: the method the client registered; NULL is what every client
//   made before meant, its kind's default (a secret when confidential, none when public).
// - jwks: the client's public keys, a JWK Set as JSON; NULL when it registered none.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('oauth_clients').addColumn('token_endpoint_auth_method', 'text').execute();
  await db.schema.alterTable('oauth_clients').addColumn('jwks', 'text').execute();
}

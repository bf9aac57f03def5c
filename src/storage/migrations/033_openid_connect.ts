// OpenID Connect (docs/integrating.md#sign-in-with-gatehouse):
// - signing_keys: the keys ID tokens are signed with, shared by every instance. The public
//   part as a JWK; the private part sealed (a JWE under the operator's SIGNING_KEYS_SECRET),
//   never in clear. retired_at: when a rotation replaced the key; NULL while it signs.
//   generation: the set a key belongs to (1 for the first, one more for each rotation); one
//   key of each type per set, so of two instances making the first set, or two rotations
//   at once, one writes and the other's rows conflict.
// - authorization_codes.nonce / auth_time: what the ID token of the code's exchange carries
//   (OpenID Connect Core §3.1.2.1 nonce, §2 auth_time: when the user last logged in).
// - oauth_clients.id_token_signed_response_alg (OpenID Connect Registration §2); NULL is the
//   default (RS256, PS256 for a FAPI 2.0 client). post_logout_redirect_uris (OpenID Connect
//   RP-Initiated Logout §3.1): a JSON array; NULL when none.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('signing_keys')
    .addColumn('kid', 'text', (c) => c.primaryKey())
    .addColumn('generation', 'integer', (c) => c.notNull())
    .addColumn('kty', 'text', (c) => c.notNull())
    .addColumn('public_jwk', 'text', (c) => c.notNull())
    .addColumn('sealed_private_jwk', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('retired_at', 'bigint')
    .addUniqueConstraint('signing_keys_generation_kty', ['generation', 'kty'])
    .execute();
  await db.schema.alterTable('authorization_codes').addColumn('nonce', 'text').execute();
  await db.schema.alterTable('authorization_codes').addColumn('auth_time', 'bigint').execute();
  await db.schema.alterTable('oauth_clients').addColumn('id_token_signed_response_alg', 'text').execute();
  await db.schema.alterTable('oauth_clients').addColumn('post_logout_redirect_uris', 'text').execute();
}

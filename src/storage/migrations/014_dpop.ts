// DPoP, sender-constrained tokens (RFC 9449; docs/rules.md#dpop).
// - oauth_clients.dpop_bound_access_tokens: the client's registration metadata of §5.2; every
//   client made before this migration keeps issuing bearer tokens (0).
// - dpop_jkt on codes (§10: the key the authorization request named), access tokens (§6: the
//   cnf.jkt they are bound to) and refresh tokens (§5: a public client's key). NULL is
//   unbound, so every row written before keeps meaning what it meant, with no backfill.
// - dpop_proofs: the proofs already seen (§11.1), one row per key thumbprint and jti,
//   inserted under a primary key so that a replay on any instance is a unique violation;
//   kept until the proof could no longer be accepted, then pruned by its indexed expiry.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('oauth_clients')
    .addColumn('dpop_bound_access_tokens', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  for (const table of ['authorization_codes', 'access_tokens', 'refresh_tokens']) {
    await db.schema.alterTable(table).addColumn('dpop_jkt', 'text').execute();
  }
  await db.schema
    .createTable('dpop_proofs')
    .addColumn('proof_key', 'text', (c) => c.primaryKey())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('dpop_proofs_expires').on('dpop_proofs').column('expires_at').execute();
}

// Enterprise-managed authorization (docs/integrating.md#enterprise-managed-agents): the identity
// providers an organization trusts to issue Identity Assertion JWT Authorization Grants
// (ID-JAG, draft-ietf-oauth-identity-assertion-authz-grant), the link of an IdP's subject to
// an account, and on each grant the IdP that granted it, so that a browser authorization
// never takes such a grant for the user's own consent (docs/rules.md#silent-authorization).
// Times are millisecond BIGINTs, as in 002.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('identity_providers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    // The IdP's issuer identifier, compared as written with an ID-JAG's iss (RFC 8414 §2).
    .addColumn('issuer', 'text', (c) => c.notNull())
    .addColumn('jwks_uri', 'text', (c) => c.notNull())
    // The e-mail domains it speaks for, lower case, space-separated.
    .addColumn('domains', 'text', (c) => c.notNull())
    // The scopes it may grant, space-separated in registry order; NULL: the organization's reach.
    .addColumn('scopes', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    // A user id, or the CLI operator's mark; not a foreign key, as audit actors are not.
    .addColumn('created_by', 'text', (c) => c.notNull())
    .execute();
  // An organization trusts an issuer once; a token request finds the trusts of its ID-JAG's issuer.
  await db.schema.createIndex('identity_providers_organization_issuer').on('identity_providers').columns(['organization_id', 'issuer']).unique().execute();
  await db.schema.createIndex('identity_providers_issuer').on('identity_providers').column('issuer').execute();

  await db.schema
    .createTable('identity_links')
    .addColumn('issuer', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    // The operator's mark when linked by hand; NULL when the first ID-JAG linked it by e-mail.
    .addColumn('created_by', 'text')
    .addPrimaryKeyConstraint('identity_links_key', ['issuer', 'subject'])
    .execute();
  await db.schema.createIndex('identity_links_user').on('identity_links').column('user_id').execute();

  // Not a foreign key: a removed IdP's grants stay, revoked, naming it.
  await db.schema.alterTable('grants').addColumn('identity_provider_id', 'text').execute();
  await db.schema.createIndex('grants_identity_provider').on('grants').column('identity_provider_id').execute();
}

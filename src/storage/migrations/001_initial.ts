// Users, sessions, clients, secrets, grants, codes, tokens and the audit log (docs/rules.md#data).
import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../database.ts';

export async function up(db: Kysely<any>, dialect: DialectName): Promise<void> {
  // Auto-increment ids differ by dialect; everything else is portable.
  const serialId = dialect === 'postgres' ? 'bigserial' : 'integer';
  // Tables keyed by a random hash: on SQLite a rowid table would keep a second B-tree
  // (the primary-key index) to write on every insert; WITHOUT ROWID keeps one.
  const keyedByHash = dialect === 'sqlite' ? sql`without rowid` : sql``;

  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('username', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('is_admin', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('time_zone', 'text', (c) => c.notNull().defaultTo('UTC'))
    .addColumn('week_start', 'text', (c) => c.notNull().defaultTo('Monday'))
    .addColumn('time_format', 'integer', (c) => c.notNull().defaultTo(24))
    .addColumn('default_schedule_id', 'text')
    .addColumn('organization_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .modifyEnd(keyedByHash)
    .execute();

  await db.schema
    .createTable('oauth_clients')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('homepage_url', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('logo_url', 'text')
    .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('redirect_uris', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text')
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('review_note', 'text')
    .addColumn('reviewed_by', 'text')
    .addColumn('reviewed_at', 'bigint')
    .addColumn('is_resource_server', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('proposed_redirect_uris', 'text')
    .addColumn('proposed_scopes', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('oauth_clients_owner').on('oauth_clients').column('owner_id').execute();
  await db.schema.createIndex('oauth_clients_state').on('oauth_clients').column('state').execute();

  await db.schema
    .createTable('client_secrets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('client_id', 'text', (c) => c.notNull().references('oauth_clients.id'))
    .addColumn('secret_hash', 'text', (c) => c.notNull().unique())
    .addColumn('last_four', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .addColumn('removed_at', 'bigint')
    .execute();
  await db.schema.createIndex('client_secrets_client').on('client_secrets').column('client_id').execute();

  await db.schema
    .createTable('authorization_requests')
    .addColumn('id', serialId, (c) => c.primaryKey())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text')
    .addColumn('had_scope', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('authorization_requests_client_time')
    .on('authorization_requests')
    .columns(['client_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('grants')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('client_id', 'text', (c) => c.notNull().references('oauth_clients.id'))
    .addColumn('scopes', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('grants_user_client').on('grants').columns(['user_id', 'client_id']).execute();

  await db.schema
    .createTable('authorization_codes')
    .addColumn('code_hash', 'text', (c) => c.primaryKey())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('grant_id', 'text', (c) => c.notNull().references('grants.id'))
    .addColumn('redirect_uri', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text')
    .addColumn('code_challenge', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('consumed_at', 'bigint')
    .modifyEnd(keyedByHash)
    .execute();
  // Revoking a grant also closes its unredeemed codes.
  await db.schema.createIndex('authorization_codes_grant').on('authorization_codes').column('grant_id').execute();

  await db.schema
    .createTable('access_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('grant_id', 'text', (c) => c.notNull().references('grants.id'))
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .modifyEnd(keyedByHash)
    .execute();
  await db.schema.createIndex('access_tokens_grant').on('access_tokens').column('grant_id').execute();

  await db.schema
    .createTable('refresh_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('grant_id', 'text', (c) => c.notNull().references('grants.id'))
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text')
    .addColumn('parent_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('spent_at', 'bigint')
    .addColumn('successor_box', 'text')
    .addColumn('revoked_at', 'bigint')
    .modifyEnd(keyedByHash)
    .execute();
  await db.schema.createIndex('refresh_tokens_grant').on('refresh_tokens').column('grant_id').execute();

  await db.schema
    .createTable('audit_events')
    .addColumn('id', serialId, (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text')
    .addColumn('client_id', 'text')
    .addColumn('user_id', 'text')
    .addColumn('data', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_events_client').on('audit_events').columns(['client_id', 'id']).execute();
  await db.schema.createIndex('audit_events_user').on('audit_events').columns(['user_id', 'id']).execute();
}

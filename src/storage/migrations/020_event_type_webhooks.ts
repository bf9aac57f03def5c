// A webhook can belong to an event type (docs/rules.md#webhooks): it hears of that event
// type's bookings only, and goes with it. `webhooks` gets an `event_type_id` and its owner
// check becomes "exactly one of user, organization, event type".
//
// PostgreSQL alters the check in place. SQLite cannot alter a CHECK, so `webhooks` is made
// again and its rows copied. Dropping the old table would cascade to every delivery that
// refers to it (SQLite runs a DROP as a DELETE first), so `webhook_deliveries` is made again
// beside it, referring to the new table, before the old ones go: renaming the new
// `webhooks` then carries that reference with it. All in the migration's one transaction
// (see 011_canonical_metadata_hosts.ts on why none is opened here); SQLite checks foreign
// keys at its commit (PRAGMA defer_foreign_keys, as 017 does).
import { sql, type Kysely } from 'kysely';

type Dialect = 'sqlite' | 'postgres';

const ONE_OWNER = sql`(case when user_id is null then 0 else 1 end) + (case when organization_id is null then 0 else 1 end) + (case when event_type_id is null then 0 else 1 end) = 1`;

const WEBHOOK_COLUMNS = ['id', 'user_id', 'organization_id', 'subscriber_url', 'triggers', 'active', 'payload_template', 'created_at', 'updated_at', 'secret', 'failing_since', 'disabled_reason'];
const DELIVERY_COLUMNS = ['id', 'webhook_id', 'client_id', 'event', 'payload', 'status', 'attempts', 'next_attempt_at', 'last_attempt_at', 'response_status', 'response_body', 'error', 'created_at'];

async function rebuildOnSqlite(db: Kysely<any>): Promise<void> {
  await sql`pragma defer_foreign_keys = on`.execute(db);
  await db.schema
    .createTable('webhooks_new')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('organization_id', 'text', (c) => c.references('organizations.id').onDelete('cascade'))
    .addColumn('event_type_id', 'text', (c) => c.references('event_types.id').onDelete('cascade'))
    .addColumn('subscriber_url', 'text', (c) => c.notNull())
    .addColumn('triggers', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('payload_template', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('secret', 'text')
    .addColumn('failing_since', 'bigint')
    .addColumn('disabled_reason', 'text')
    .addCheckConstraint('webhooks_one_owner', ONE_OWNER)
    .execute();
  await sql`insert into webhooks_new (${sql.join(WEBHOOK_COLUMNS.map((c) => sql.ref(c)))}) select ${sql.join(WEBHOOK_COLUMNS.map((c) => sql.ref(c)))} from webhooks`.execute(db);

  await db.schema
    .createTable('webhook_deliveries_new')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('webhook_id', 'text', (c) => c.references('webhooks_new.id').onDelete('cascade'))
    .addColumn('client_id', 'text', (c) => c.references('oauth_clients.id').onDelete('cascade'))
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint')
    .addColumn('last_attempt_at', 'bigint')
    .addColumn('response_status', 'integer')
    .addColumn('response_body', 'text')
    .addColumn('error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addCheckConstraint('webhook_deliveries_one_destination', sql`(webhook_id IS NULL) <> (client_id IS NULL)`)
    .execute();
  await sql`insert into webhook_deliveries_new (${sql.join(DELIVERY_COLUMNS.map((c) => sql.ref(c)))}) select ${sql.join(DELIVERY_COLUMNS.map((c) => sql.ref(c)))} from webhook_deliveries`.execute(db);

  // The deliveries first: then nothing refers to the old webhooks, and dropping them deletes nothing else.
  await db.schema.dropTable('webhook_deliveries').execute();
  await db.schema.dropTable('webhooks').execute();
  await sql`alter table webhooks_new rename to webhooks`.execute(db);
  await sql`alter table webhook_deliveries_new rename to webhook_deliveries`.execute(db);

  await db.schema.createIndex('webhooks_user').on('webhooks').column('user_id').execute();
  await db.schema.createIndex('webhooks_organization').on('webhooks').column('organization_id').execute();
  await db.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').columns(['status', 'next_attempt_at']).execute();
  await db.schema.createIndex('webhook_deliveries_webhook').on('webhook_deliveries').columns(['webhook_id', 'created_at']).execute();
  await db.schema.createIndex('webhook_deliveries_client').on('webhook_deliveries').columns(['client_id', 'created_at']).execute();
}

export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  if (dialect === 'sqlite') {
    await rebuildOnSqlite(db);
  } else {
    await db.schema.alterTable('webhooks').addColumn('event_type_id', 'text', (c) => c.references('event_types.id').onDelete('cascade')).execute();
    await db.schema.alterTable('webhooks').dropConstraint('webhooks_one_owner').execute();
    await db.schema.alterTable('webhooks').addCheckConstraint('webhooks_one_owner', ONE_OWNER).execute();
  }
  await db.schema.createIndex('webhooks_event_type').on('webhooks').column('event_type_id').execute();
}

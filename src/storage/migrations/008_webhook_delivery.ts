// Webhooks that are delivered (docs/rules.md#webhooks, docs/rules.md#client-events): each webhook gets its signing secret and a record of
// failing days, each OAuth client may name an events URL with its own signing secret, and
// webhook_deliveries is the outbox. A delivery row is written in the transaction of the change
// that causes it and is then claimed, attempted and rescheduled by the delivery engine
// (src/services/webhooks/). Times are millisecond BIGINTs as in 001.
import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';

/** Standard Webhooks secret form; the same as src/services/webhooks/signing.ts: newSigningSecret. */
const newSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('webhooks').addColumn('secret', 'text').execute();
  await db.schema.alterTable('webhooks').addColumn('failing_since', 'bigint').execute();
  await db.schema.alterTable('webhooks').addColumn('disabled_reason', 'text').execute();
  // Webhooks stored before delivery existed get a secret now; their owners read it nowhere
  // yet, so it is theirs to replace by creating the webhook again.
  const existing = await db.selectFrom('webhooks').select('id').execute();
  for (const { id } of existing as { id: string }[]) {
    await db.updateTable('webhooks').set({ secret: newSecret() }).where('id', '=', id).execute();
  }

  await db.schema.alterTable('oauth_clients').addColumn('events_url', 'text').execute();
  await db.schema.alterTable('oauth_clients').addColumn('events_secret', 'text').execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('webhook_id', 'text', (c) => c.references('webhooks.id').onDelete('cascade'))
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
  await db.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').columns(['status', 'next_attempt_at']).execute();
  await db.schema.createIndex('webhook_deliveries_webhook').on('webhook_deliveries').columns(['webhook_id', 'created_at']).execute();
  await db.schema.createIndex('webhook_deliveries_client').on('webhook_deliveries').columns(['client_id', 'created_at']).execute();
}

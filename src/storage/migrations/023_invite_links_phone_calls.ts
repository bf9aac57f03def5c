// Team invite links (docs/rules.md#membership-invitations) and the outbound phone calls asked of
// a team event type (docs/integrating.md#phone-calls). A link is kept by the SHA-256 hash of
// its token only, with its expiry; anyone signed in who holds the token may join the team
// until then. A phone call is a request Gatehouse holds for an operator, since it runs no
// phone provider: the caller's numbers and the agent's words, never the API key sent with
// them. Times are millisecond BIGINTs, as in 002.
import type { Kysely } from 'kysely';


export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('team_invite_links')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('team_invite_links_team').on('team_invite_links').columns(['team_id', 'created_at']).execute();

  await db.schema
    .createTable('phone_calls')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('event_type_id', 'text', (c) => c.notNull().references('event_types.id').onDelete('cascade'))
    .addColumn('requested_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('your_phone_number', 'text', (c) => c.notNull())
    .addColumn('number_to_call', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('template_type', 'text', (c) => c.notNull())
    .addColumn('scheduler_name', 'text')
    .addColumn('guest_name', 'text')
    .addColumn('guest_email', 'text')
    .addColumn('guest_company', 'text')
    .addColumn('begin_message', 'text')
    .addColumn('general_prompt', 'text')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('queued'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('phone_calls_team').on('phone_calls').columns(['team_id', 'created_at']).execute();
  await db.schema.createIndex('phone_calls_created').on('phone_calls').column('created_at').execute();
}

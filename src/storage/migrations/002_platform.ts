// The resources behind the platform API's scopes (docs/rules.md#data, docs/rules.md#scope-registry): organizations, teams,
// memberships, event types and private links, bookings, schedules, connected apps
// (calendars, ICS feeds, team apps — stored records only), webhooks, verified emails and
// phones, routing forms and responses, workflows. Times are millisecond BIGINTs, flags 0/1
// integers and lists JSON text, as in 001, so the same statements serve both dialects.
import { sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const now = (c: ColumnDefinitionBuilder) => c.notNull();

  await db.schema
    .createTable('organizations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', now)
    .addColumn('updated_at', 'bigint', now)
    .execute();

  await db.schema
    .createTable('teams')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('bio', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('time_zone', 'text', (c) => c.notNull().defaultTo('UTC'))
    .addColumn('brand_color', 'text', (c) => c.notNull().defaultTo('#292929'))
    .addColumn('created_at', 'bigint', now)
    .addColumn('updated_at', 'bigint', now)
    .execute();
  await db.schema.createIndex('teams_organization').on('teams').column('organization_id').execute();

  // A membership is of a team or of an organization, never both (docs/rules.md#data). A team
  // membership never carries the organization: that is the team's, so the access lookup
  // finds an organization role by (organization_id, user_id) alone.
  await db.schema
    .createTable('memberships')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('team_id', 'text', (c) => c.references('teams.id').onDelete('cascade'))
    .addColumn('organization_id', 'text', (c) => c.references('organizations.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', now)
    .addColumn('updated_at', 'bigint', now)
    .addCheckConstraint('memberships_one_target', sql`(team_id IS NULL) <> (organization_id IS NULL)`)
    .addCheckConstraint('memberships_role', sql`role IN ('member', 'admin', 'owner')`)
    .execute();
  await db.schema.createIndex('memberships_team_user').on('memberships').columns(['team_id', 'user_id']).unique().execute();
  await db.schema.createIndex('memberships_org_user').on('memberships').columns(['organization_id', 'user_id']).unique().execute();
  await db.schema.createIndex('memberships_user').on('memberships').column('user_id').execute();

  await db.schema
    .createTable('event_types')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('team_id', 'text', (c) => c.references('teams.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('length_minutes', 'integer', (c) => c.notNull())
    .addColumn('locations', 'text', (c) => c.notNull())
    .addColumn('hidden', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('requires_confirmation', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('minimum_booking_notice', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('scheduling_type', 'text')
    .addColumn('created_at', 'bigint', now)
    .addColumn('updated_at', 'bigint', now)
    .addCheckConstraint('event_types_one_owner', sql`(user_id IS NULL) <> (team_id IS NULL)`)
    .execute();
  await db.schema.createIndex('event_types_user_slug').on('event_types').columns(['user_id', 'slug']).unique().execute();
  await db.schema.createIndex('event_types_team_slug').on('event_types').columns(['team_id', 'slug']).unique().execute();

  await db.schema
    .createTable('private_links')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('event_type_id', 'text', (c) => c.notNull().references('event_types.id').onDelete('cascade'))
    .addColumn('link_hash', 'text', (c) => c.notNull().unique())
    .addColumn('expires_at', 'bigint')
    .addColumn('max_uses', 'integer')
    .addColumn('use_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', now)
    .execute();
  await db.schema.createIndex('private_links_event_type').on('private_links').column('event_type_id').execute();

  await db.schema
    .createTable('bookings')
    .addColumn('uid', 'text', (c) => c.primaryKey())
    .addColumn('event_type_id', 'text', (c) => c.references('event_types.id').onDelete('set null'))
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('team_id', 'text', (c) => c.references('teams.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('start_time', 'bigint', (c) => c.notNull())
    .addColumn('end_time', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attendee_name', 'text', (c) => c.notNull())
    .addColumn('attendee_email', 'text', (c) => c.notNull())
    .addColumn('attendee_time_zone', 'text', (c) => c.notNull())
    .addColumn('guests', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('location', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('cancellation_reason', 'text')
    .addColumn('decline_reason', 'text')
    .addColumn('rescheduled_from', 'text')
    .addColumn('rescheduled_to', 'text')
    .addColumn('created_at', 'bigint', now)
    .addColumn('updated_at', 'bigint', now)
    .execute();
  await db.schema.createIndex('bookings_user_start').on('bookings').columns(['user_id', 'start_time']).execute();
  await db.schema.createIndex('bookings_team_start').on('bookings').columns(['team_id', 'start_time']).execute();
  await db.schema.createIndex('bookings_event_type').on('bookings').column('event_type_id').execute();

  await db.schema
    .createTable('schedules')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('team_id', 'text', (c) => c.references('teams.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('time_zone', 'text', (c) => c.notNull())
    .addColumn('availability', 'text', (c) => c.notNull())
    .addColumn('overrides', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_at', 'bigint', now)
    .addColumn('updated_at', 'bigint', now)
    .addCheckConstraint('schedules_one_owner', sql`(user_id IS NULL) <> (team_id IS NULL)`)
    .execute();
  await db.schema.createIndex('schedules_user').on('schedules').column('user_id').execute();
  await db.schema.createIndex('schedules_team').on('schedules').column('team_id').execute();

  // Connected calendars, ICS feeds and team apps: records of what the user connected.
  // No call to an outside service is made; credentials are not accepted, so none are kept.
  await db.schema
    .createTable('connected_apps')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('team_id', 'text', (c) => c.references('teams.id').onDelete('cascade'))
    .addColumn('app', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('read_only', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', now)
    .addCheckConstraint('connected_apps_one_owner', sql`(user_id IS NULL) <> (team_id IS NULL)`)
    .execute();
  await db.schema.createIndex('connected_apps_user').on('connected_apps').columns(['user_id', 'app', 'account']).unique().execute();
  await db.schema.createIndex('connected_apps_team').on('connected_apps').columns(['team_id', 'app', 'account']).unique().execute();

  await db.schema
    .createTable('webhooks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('organization_id', 'text', (c) => c.references('organizations.id').onDelete('cascade'))
    .addColumn('subscriber_url', 'text', (c) => c.notNull())
    .addColumn('triggers', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('payload_template', 'text')
    .addColumn('created_at', 'bigint', now)
    .addColumn('updated_at', 'bigint', now)
    .addCheckConstraint('webhooks_one_owner', sql`(user_id IS NULL) <> (organization_id IS NULL)`)
    .execute();
  await db.schema.createIndex('webhooks_user').on('webhooks').column('user_id').execute();
  await db.schema.createIndex('webhooks_organization').on('webhooks').column('organization_id').execute();

  // Verification codes are stored as hashes only; the code itself goes to the owner.
  await db.schema
    .createTable('verified_resources')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('team_id', 'text', (c) => c.references('teams.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('verified_at', 'bigint')
    .addColumn('code_hash', 'text')
    .addColumn('code_expires_at', 'bigint')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', now)
    .addColumn('updated_at', 'bigint', now)
    .addCheckConstraint('verified_resources_one_owner', sql`(user_id IS NULL) <> (team_id IS NULL)`)
    .execute();
  await db.schema.createIndex('verified_resources_user').on('verified_resources').columns(['user_id', 'kind', 'value']).unique().execute();
  await db.schema.createIndex('verified_resources_team').on('verified_resources').columns(['team_id', 'kind', 'value']).unique().execute();

  await db.schema
    .createTable('routing_forms')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('team_id', 'text', (c) => c.references('teams.id').onDelete('cascade'))
    .addColumn('organization_id', 'text', (c) => c.references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('fields', 'text', (c) => c.notNull())
    .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', now)
    .addColumn('updated_at', 'bigint', now)
    .addCheckConstraint('routing_forms_one_owner', sql`(team_id IS NULL) <> (organization_id IS NULL)`)
    .execute();
  await db.schema.createIndex('routing_forms_team').on('routing_forms').column('team_id').execute();
  await db.schema.createIndex('routing_forms_organization').on('routing_forms').column('organization_id').execute();

  await db.schema
    .createTable('routing_form_responses')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('form_id', 'text', (c) => c.notNull().references('routing_forms.id').onDelete('cascade'))
    .addColumn('response', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', now)
    .addColumn('updated_at', 'bigint', now)
    .execute();
  await db.schema.createIndex('routing_form_responses_form').on('routing_form_responses').columns(['form_id', 'created_at']).execute();

  await db.schema
    .createTable('workflows')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('trigger', 'text', (c) => c.notNull())
    .addColumn('time_offset_minutes', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('steps', 'text', (c) => c.notNull())
    .addColumn('active_on', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'bigint', now)
    .addColumn('updated_at', 'bigint', now)
    .execute();
  await db.schema.createIndex('workflows_team').on('workflows').column('team_id').execute();
}

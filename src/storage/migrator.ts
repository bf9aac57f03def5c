// One ordered list of migrations for both dialects, applied by Kysely's migrator.
import { Migrator, sql, type Kysely, type Migration } from 'kysely';
import type { DatabaseHandle } from './database.ts';
import * as initial from './migrations/001_initial.ts';
import * as platform from './migrations/002_platform.ts';
import * as invitations from './migrations/003_membership_invitations.ts';
import * as clientVersion from './migrations/004_client_version.ts';
import * as bookingManageToken from './migrations/005_booking_manage_token.ts';
import * as grantLookup from './migrations/006_grant_lookup.ts';
import * as mcpClients from './migrations/009_mcp_clients.ts';
import * as retention from './migrations/007_retention.ts';
import * as sessionNotices from './migrations/010_session_notices.ts';
import * as webhookDelivery from './migrations/008_webhook_delivery.ts';
import * as canonicalMetadataHosts from './migrations/011_canonical_metadata_hosts.ts';
import * as pushedAuthorizationRequests from './migrations/013_pushed_authorization_requests.ts';
import * as dpop from './migrations/014_dpop.ts';
import * as outOfOffice from './migrations/015_out_of_office.ts';
import * as fapi2Profile from './migrations/016_fapi2_profile.ts';
import * as numberedIds from './migrations/017_numbered_ids.ts';
import * as clientJwks from './migrations/018_client_jwks.ts';
import * as bookingAttendees from './migrations/019_booking_attendees.ts';
import * as eventTypeWebhooks from './migrations/020_event_type_webhooks.ts';
import * as conferencingDefaults from './migrations/021_conferencing_defaults.ts';
import * as calendarChoices from './migrations/022_calendar_choices_and_org_made_users.ts';
import * as inviteLinksPhoneCalls from './migrations/023_invite_links_phone_calls.ts';
import * as teamGrants from './migrations/024_team_grants.ts';
import * as connectionRequests from './migrations/025_connection_requests.ts';
import * as emailChangeRequests from './migrations/026_email_change_requests.ts';
import * as inviteLinkExpiry from './migrations/027_invite_link_expiry.ts';
import * as inviteLinkAuthority from './migrations/028_invite_link_authority.ts';
import * as profileDetails from './migrations/029_profile_details.ts';
import * as grantsByClient from './migrations/030_grants_by_client.ts';
import * as bookingFields from './migrations/031_booking_fields.ts';
import * as slotReservations from './migrations/032_slot_reservations.ts';
import * as openidConnect from './migrations/033_openid_connect.ts';
import * as identityProviders from './migrations/034_identity_providers.ts';
import * as slotRules from './migrations/035_slot_rules.ts';
import * as slotRulesMore from './migrations/036_slot_rules_more.ts';

type DialectMigration = { up: (db: Parameters<Migration['up']>[0], dialect: DatabaseHandle['dialect']) => Promise<void> };

const migrations: Record<string, DialectMigration> = {
  '001_initial': initial,
  '002_platform': platform,
  '003_membership_invitations': invitations,
  '004_client_version': clientVersion,
  '005_booking_manage_token': bookingManageToken,
  '006_grant_lookup': grantLookup,
  '007_retention': retention,
  '008_webhook_delivery': webhookDelivery,
  '009_mcp_clients': mcpClients,
  '010_session_notices': sessionNotices,
  '011_canonical_metadata_hosts': canonicalMetadataHosts,
  '013_pushed_authorization_requests': pushedAuthorizationRequests,
  '014_dpop': dpop,
  '015_out_of_office': outOfOffice,
  '016_fapi2_profile': fapi2Profile,
  '017_numbered_ids': numberedIds,
  '018_client_jwks': clientJwks,
  '019_booking_attendees': bookingAttendees,
  '020_event_type_webhooks': eventTypeWebhooks,
  '021_conferencing_defaults': conferencingDefaults,
  '022_calendar_choices_and_org_made_users': calendarChoices,
  '023_invite_links_phone_calls': inviteLinksPhoneCalls,
  '024_team_grants': teamGrants,
  '025_connection_requests': connectionRequests,
  '026_email_change_requests': emailChangeRequests,
  '027_invite_link_expiry': inviteLinkExpiry,
  '028_invite_link_authority': inviteLinkAuthority,
  '029_profile_details': profileDetails,
  '030_grants_by_client': grantsByClient,
  '031_booking_fields': bookingFields,
  '032_slot_reservations': slotReservations,
  '033_openid_connect': openidConnect,
  '034_identity_providers': identityProviders,
  '035_slot_rules': slotRules,
  '036_slot_rules_more': slotRulesMore,
};

/**
 * On PostgreSQL, the schema the connection works in (its search_path). Kysely's migrator
 * looks for its bookkeeping tables in every schema unless told which one is ours, so
 * without this a database where another schema already holds kysely_migration (another
 * application, or another Gatehouse schema) could not be migrated.
 */
async function currentSchema(handle: DatabaseHandle): Promise<string | undefined> {
  if (handle.dialect !== 'postgres') return undefined;
  const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(handle.db);
  return rows[0]?.schema ?? undefined;
}

/**
 * One migration, all of it or none of it. PostgreSQL runs each in a transaction (Kysely's
 * migrator, transactional DDL). On SQLite the migrator opens none, and the run's writes share
 * one group transaction (storage/group-commit.ts) that commits when the migrator lets the
 * connection go, error or not: without a savepoint of its own, a migration that throws
 * halfway would leave its first statements committed, and the database could not migrate
 * again. SQLite's DDL is transactional, so the savepoint undoes tables made or dropped too.
 */
async function wholeOrNothing(db: Kysely<any>, dialect: DatabaseHandle['dialect'], up: () => Promise<void>): Promise<void> {
  if (dialect !== 'sqlite') return up();
  await sql`savepoint gatehouse_migration`.execute(db);
  try {
    await up();
  } catch (error) {
    await sql`rollback to gatehouse_migration`.execute(db);
    await sql`release gatehouse_migration`.execute(db);
    throw error;
  }
  await sql`release gatehouse_migration`.execute(db);
}

async function migrator(handle: DatabaseHandle): Promise<Migrator> {
  const schema = await currentSchema(handle);
  return new Migrator({
    db: handle.db,
    ...(schema !== undefined ? { migrationTableSchema: schema } : {}),
    provider: {
      async getMigrations() {
        return Object.fromEntries(
          Object.entries(migrations).map(([name, m]) => [name, { up: (db) => wholeOrNothing(db, handle.dialect, () => m.up(db, handle.dialect)) }]),
        );
      },
    },
  });
}

/** Applies pending migrations; returns the names applied. */
export async function migrateToLatest(handle: DatabaseHandle): Promise<string[]> {
  const { error, results } = await (await migrator(handle)).migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/**
 * Applies pending migrations up to and including `name`: a database as an older release left
 * it, for the tests of a migration that rewrites data.
 */
export async function migrateUpTo(handle: DatabaseHandle, name: string): Promise<void> {
  if (!(name in migrations)) throw new Error(`no migration named ${name}`);
  const { error } = await (await migrator(handle)).migrateTo(name);
  if (error) throw error instanceof Error ? error : new Error(String(error));
}

/** True when every known migration has been applied (for readiness checks). */
export async function isUpToDate(handle: DatabaseHandle): Promise<boolean> {
  const all = await (await migrator(handle)).getMigrations();
  return all.every((m) => m.executedAt !== undefined);
}

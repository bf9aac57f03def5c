// RetentionStore (services/retention/store.ts): batched deletes, each finding its rows
// through an index of migration 007.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { PrunableRows, RetentionStore } from '../../services/retention/store.ts';
import { dialectOf } from '../prepared.ts';
import type { Database } from '../schema.ts';

const prunable: Record<PrunableRows, { table: keyof Database; key: string; time: string }> = {
  authorizationCodes: { table: 'authorization_codes', key: 'code_hash', time: 'expires_at' },
  accessTokens: { table: 'access_tokens', key: 'token_hash', time: 'expires_at' },
  expiredRefreshTokens: { table: 'refresh_tokens', key: 'id', time: 'expires_at' },
  revokedRefreshTokens: { table: 'refresh_tokens', key: 'id', time: 'revoked_at' },
  pushedAuthorizationRequests: { table: 'pushed_authorization_requests', key: 'request_hash', time: 'expires_at' },
  sessions: { table: 'sessions', key: 'id_hash', time: 'expires_at' },
  authorizationRequests: { table: 'authorization_requests', key: 'id', time: 'created_at' },
  auditEvents: { table: 'audit_events', key: 'id', time: 'created_at' },
  dpopProofs: { table: 'dpop_proofs', key: 'proof_key', time: 'expires_at' },
  inviteLinks: { table: 'team_invite_links', key: 'id', time: 'expires_at' },
  teamDepartures: { table: 'team_departures', key: 'membership_id', time: 'left_at' },
  emailChangeRequests: { table: 'email_change_requests', key: 'user_id', time: 'expires_at' },
  connectionRequests: { table: 'connection_requests', key: 'token_hash', time: 'expires_at' },
  slotReservations: { table: 'slot_reservations', key: 'uid', time: 'expires_at' },
};

/**
 * PostgreSQL: rows another instance's batch has locked are skipped rather than waited
 * for, so concurrent sweeps never queue behind each other. SQLite has one writer at a time.
 */
function skipLocked(db: Kysely<Database>): RawBuilder<unknown> {
  return dialectOf(db) === 'postgres' ? sql` for update skip locked` : sql``;
}

/** One batch of rows whose time is before `before`; which ones first does not matter. */
export function deleteBatchQuery(db: Kysely<Database>, rows: PrunableRows, before: number, limit: number): RawBuilder<unknown> {
  const { table, key, time } = prunable[rows];
  return sql`
    delete from ${sql.table(table)} where ${sql.ref(key)} in (
      select ${sql.ref(key)} from ${sql.table(table)} where ${sql.ref(time)} < ${before} limit ${limit}${skipLocked(db)}
    )`;
}

export function forgetSuccessorsQuery(db: Kysely<Database>, spentBefore: number, limit: number): RawBuilder<unknown> {
  return sql`
    update refresh_tokens set successor_box = null where id in (
      select id from refresh_tokens where successor_box is not null and spent_at < ${spentBefore} limit ${limit}${skipLocked(db)}
    )`;
}

/**
 * docs/rules.md#retention: open registrations nobody completed an authorization with. The
 * policy in force at registration is not recorded; such a client is known by what only that
 * policy makes: owned by the registration account (services/clients/dynamic-registration.ts),
 * approved with no review (reviewed_at is null; an admin's approval, suspension or held
 * change records one), public and without a secret, and not a URL (metadata-document clients
 * are owned by the same account). A grant is made when a user consents, before any code: a
 * client with one, even revoked, stays. Its rows that reference it otherwise go by their
 * foreign keys (pushed requests, connect requests, webhook deliveries: cascade; address
 * changes: set null); audit events keep its id as text.
 */
export function deleteUnusedOpenRegistrationsQuery(db: Kysely<Database>, ownerEmail: string, registeredBefore: number, limit: number): RawBuilder<unknown> {
  const lock = dialectOf(db) === 'postgres' ? sql` for update of c skip locked` : sql``;
  return sql`
    delete from oauth_clients where id in (
      select c.id from oauth_clients c
      where c.owner_id = (select u.id from users u where u.email = ${ownerEmail})
        and c.state = 'approved' and c.reviewed_at is null and c.kind = 'public'
        and c.id not like '%:%'
        and c.created_at < ${registeredBefore}
        and not exists (select 1 from grants g where g.client_id = c.id)
        and not exists (select 1 from client_secrets s where s.client_id = c.id)
      limit ${limit}${lock}
    )`;
}

export function createRetentionStore(db: Kysely<Database>): RetentionStore {
  return {
    async deleteBatch(rows, before, limit) {
      const result = await deleteBatchQuery(db, rows, before, limit).execute(db);
      return Number(result.numAffectedRows ?? 0);
    },
    async forgetSuccessorsBatch(spentBefore, limit) {
      const result = await forgetSuccessorsQuery(db, spentBefore, limit).execute(db);
      return Number(result.numAffectedRows ?? 0);
    },
    async deleteUnusedOpenRegistrationsBatch(ownerEmail, registeredBefore, limit) {
      const result = await deleteUnusedOpenRegistrationsQuery(db, ownerEmail, registeredBefore, limit).execute(db);
      return Number(result.numAffectedRows ?? 0);
    },
  };
}

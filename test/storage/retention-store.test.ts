// RetentionStore (src/services/retention/store.ts) on every backend: its contract, and that
// every batch finds its rows through an index (migration 007) rather than by reading the
// whole table, the way the successor sweep it replaced did.
import { CompiledQuery, type RawBuilder } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrunableRows, RetentionStore } from '../../src/services/retention/store.ts';
import { backends, createTestDatabase, type TestDatabase } from '../helpers/backends.ts';
import { accessTokenRecord, codeRecord, grantRecord, refreshTokenRecord, seedClient, seedUser, T0 } from './seed.ts';
import { REGISTRATION_OWNER_EMAIL } from '../../src/services/clients/dynamic-registration.ts';
import { createOAuthStore, createRetentionStore, deleteBatchQuery, deleteUnusedOpenRegistrationsQuery, forgetSuccessorsQuery } from './stores.ts';

const indexOf: Record<PrunableRows, string> = {
  authorizationCodes: 'authorization_codes_expires',
  accessTokens: 'access_tokens_expires',
  expiredRefreshTokens: 'refresh_tokens_expires',
  revokedRefreshTokens: 'refresh_tokens_revoked',
  pushedAuthorizationRequests: 'pushed_authorization_requests_expires',
  sessions: 'sessions_expires',
  authorizationRequests: 'authorization_requests_created',
  auditEvents: 'audit_events_created',
  dpopProofs: 'dpop_proofs_expires',
  inviteLinks: 'team_invite_links_expires',
  teamDepartures: 'team_departures_left',
  emailChangeRequests: 'email_change_requests_expires',
  connectionRequests: 'connection_requests_expires',
  slotReservations: 'slot_reservations_expires',
};

describe.each(backends)('RetentionStore contract on $name', ({ name, available }) => {
  let database: TestDatabase;
  let store: RetentionStore;

  beforeAll(async () => {
    if (!available) return;
    database = await createTestDatabase(name);
    store = createRetentionStore(database.handle.db);
  });
  afterAll(async () => {
    await database?.drop();
  });

  /** The plan the database would run for a batch, as lines of text. */
  async function plan(query: RawBuilder<unknown>): Promise<string[]> {
    const db = database.handle.db;
    const compiled = query.compile(db);
    if (name === 'sqlite') {
      const { rows } = await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]));
      return rows.map((r) => r.detail);
    }
    // The tables are nearly empty, where a sequential scan is cheapest: forbid it, so the
    // plan shows whether an index can serve the batch at all.
    return db.transaction().execute(async (tx) => {
      await tx.executeQuery(CompiledQuery.raw('set local enable_seqscan = off'));
      const { rows } = await tx.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain ${compiled.sql}`, [...compiled.parameters]));
      return rows.map((r) => r['QUERY PLAN']);
    });
  }

  it.skipIf(!available)('deleteBatch finds its rows through its index, never by a full scan of the table', async () => {
    for (const rows of Object.keys(indexOf) as PrunableRows[]) {
      const lines = await plan(deleteBatchQuery(database.handle.db, rows, T0, 500));
      expect(lines.join('\n'), rows).toContain(indexOf[rows]);
      expect(lines.join('\n'), rows).not.toMatch(/^SCAN |Seq Scan/m);
    }
  });

  it.skipIf(!available)('forgetSuccessorsBatch finds its rows through the partial index of kept successors', async () => {
    const lines = await plan(forgetSuccessorsQuery(database.handle.db, T0, 500));
    expect(lines.join('\n')).toContain('refresh_tokens_successor');
    expect(lines.join('\n')).not.toMatch(/^SCAN |Seq Scan/m);
  });

  it.skipIf(!available)('deleteUnusedOpenRegistrationsBatch finds its clients, their grants and what references them through indexes', async () => {
    const lines = (await plan(deleteUnusedOpenRegistrationsQuery(database.handle.db, REGISTRATION_OWNER_EMAIL, T0, 500))).join('\n');
    expect(lines).toContain('grants_client');
    // Neither the candidates nor what their deletion checks (foreign keys) are read whole.
    expect(lines).not.toMatch(/^SCAN |Seq Scan/m);
  });

  it.skipIf(!available)('deleteUnusedOpenRegistrationsBatch deletes only open registrations never granted, before the cutoff, `limit` at a time (docs/rules.md#retention)', async () => {
    const db = database.handle.db;
    const oauth = createOAuthStore(db);
    // The built-in registration account; the database is this suite's own.
    const owner = await seedUser(db);
    await db.updateTable('users').set({ email: REGISTRATION_OWNER_EMAIL }).where('id', '=', owner).execute();
    const developer = await seedUser(db);
    const open = async () => seedClient(db, owner, { kind: 'public', state: 'approved' });
    const unused = [await open(), await open(), await open()];
    // A pushed request of an unused one goes with it (foreign key, cascade).
    await oauth.createPushedRequest({ hash: `${unused[0]}-pushed`, clientId: unused[0]!, parameters: {}, resources: null, createdAt: T0 - 5, expiresAt: T0 + 60_000, consumedAt: null });
    const granted = await open();
    const grant = grantRecord(developer, granted);
    await oauth.createGrant(grant);
    await oauth.revokeGrant(grant.id, T0);
    const reviewed = await open();
    await db.updateTable('oauth_clients').set({ reviewed_at: T0 - 1, reviewed_by: developer }).where('id', '=', reviewed).execute();
    const pending = await seedClient(db, owner, { kind: 'public', state: 'pending' });
    const confidential = await seedClient(db, owner, { state: 'approved' });
    const document = `https://agent.example.com/${await open()}`;
    await db.updateTable('oauth_clients').set({ id: document }).where('id', '=', document.slice('https://agent.example.com/'.length)).execute();
    const developers = await seedClient(db, developer, { kind: 'public', state: 'approved' });
    const recent = await open();
    await db.updateTable('oauth_clients').set({ created_at: T0 + 10 }).where('id', '=', recent).execute();

    expect(await store.deleteUnusedOpenRegistrationsBatch(REGISTRATION_OWNER_EMAIL, T0 + 1, 2)).toBe(2);
    expect(await store.deleteUnusedOpenRegistrationsBatch(REGISTRATION_OWNER_EMAIL, T0 + 1, 2)).toBe(1);
    expect(await store.deleteUnusedOpenRegistrationsBatch(REGISTRATION_OWNER_EMAIL, T0 + 1, 2)).toBe(0);
    const kept = [granted, reviewed, pending, confidential, document, developers, recent];
    const left = await db.selectFrom('oauth_clients').select('id').where('id', 'in', [...unused, ...kept]).execute();
    expect(left.map((c) => c.id).sort()).toEqual([...kept].sort());
    expect(await db.selectFrom('pushed_authorization_requests').select('request_hash').where('client_id', '=', unused[0]!).execute()).toEqual([]);
  });

  it.skipIf(!available)('deleteBatch deletes at most `limit` rows, only those before the cutoff', async () => {
    const oauth = createOAuthStore(database.handle.db);
    const userId = await seedUser(database.handle.db);
    const clientId = await seedClient(database.handle.db, userId);
    const grant = grantRecord(userId, clientId);
    await oauth.createGrant(grant);
    for (let i = 0; i < 5; i++) await oauth.createCode(codeRecord(grant, { expiresAt: T0 + i }));
    const live = codeRecord(grant, { expiresAt: T0 + 10_000 });
    await oauth.createCode(live);
    expect(await store.deleteBatch('authorizationCodes', T0 + 5, 3)).toBe(3);
    expect(await store.deleteBatch('authorizationCodes', T0 + 5, 3)).toBe(2);
    expect(await store.deleteBatch('authorizationCodes', T0 + 5, 3)).toBe(0);
    const left = await database.handle.db.selectFrom('authorization_codes').select('code_hash').where('grant_id', '=', grant.id).execute();
    expect(left).toEqual([{ code_hash: live.hash }]);
  });

  it.skipIf(!available)('pushed authorization requests go by expiry, used or not; unexpired ones stay (docs/rules.md#pushed-authorization)', async () => {
    const oauth = createOAuthStore(database.handle.db);
    const userId = await seedUser(database.handle.db);
    const clientId = await seedClient(database.handle.db, userId);
    const pushed = (hash: string, expiresAt: number) => ({ hash, clientId, parameters: {}, resources: null, createdAt: T0, expiresAt, consumedAt: null });
    await oauth.createPushedRequest(pushed(`${clientId}-ended`, T0 + 1));
    await oauth.createPushedRequest(pushed(`${clientId}-used`, T0 + 1));
    await oauth.consumePushedRequest(`${clientId}-used`, T0);
    await oauth.createPushedRequest(pushed(`${clientId}-live`, T0 + 10_000));
    expect(await store.deleteBatch('pushedAuthorizationRequests', T0 + 2, 100)).toBe(2);
    const left = await database.handle.db.selectFrom('pushed_authorization_requests').select('request_hash').where('client_id', '=', clientId).execute();
    expect(left).toEqual([{ request_hash: `${clientId}-live` }]);
  });

  it.skipIf(!available)('expired invite links and lapsed address changes go by expiry; live ones stay (docs/rules.md#retention)', async () => {
    const db = database.handle.db;
    const [early, late] = [await seedUser(db), await seedUser(db)];
    const teamId = `team-${early}`;
    await db.insertInto('teams').values({ id: teamId, organization_id: null, name: 'Sales', slug: teamId.toLowerCase(), bio: '', time_zone: 'UTC', brand_color: '#000000', created_at: T0, updated_at: T0 }).execute();
    for (const [hash, expires] of [[`gone-${teamId}`, T0 - 1], [`live-${teamId}`, T0 + 1]] as const) {
      await db.insertInto('team_invite_links').values({ id: hash, token_hash: hash, team_id: teamId, created_by: null, grant_id: null, expires_at: expires, created_at: T0 - 10 }).execute();
    }
    for (const [userId, expires] of [[early, T0 - 1], [late, T0 + 1]] as const) {
      await db.insertInto('email_change_requests').values({ user_id: userId, email: `new-${userId}@example.com`, client_id: null, requested_at: T0 - 10, expires_at: expires }).execute();
    }
    expect(await store.deleteBatch('inviteLinks', T0, 500)).toBe(1);
    expect(await store.deleteBatch('emailChangeRequests', T0, 500)).toBe(1);
    expect(await db.selectFrom('team_invite_links').select('token_hash').where('team_id', '=', teamId).execute()).toEqual([{ token_hash: `live-${teamId}` }]);
    expect(await db.selectFrom('email_change_requests').select('user_id').where('user_id', 'in', [early, late]).execute()).toEqual([{ user_id: late }]);
  });

  it.skipIf(!available)('revoked refresh tokens go by revocation time, expired ones by expiry; live and spent ones stay', async () => {
    const oauth = createOAuthStore(database.handle.db);
    const userId = await seedUser(database.handle.db);
    const clientId = await seedClient(database.handle.db, userId);
    const grant = grantRecord(userId, clientId);
    await oauth.createGrant(grant);
    const revoked = refreshTokenRecord(grant, { revokedAt: T0 + 1 });
    const expired = refreshTokenRecord(grant, { expiresAt: T0 + 1 });
    const spent = refreshTokenRecord(grant, { spentAt: T0 + 1, successorBox: 'sealed' });
    const live = refreshTokenRecord(grant);
    for (const t of [revoked, expired, spent, live]) await oauth.createRefreshToken(t);
    await oauth.createAccessToken(accessTokenRecord(grant));
    expect(await store.deleteBatch('revokedRefreshTokens', T0 + 2, 100)).toBeGreaterThanOrEqual(1);
    expect(await store.deleteBatch('expiredRefreshTokens', T0 + 2, 100)).toBeGreaterThanOrEqual(1);
    expect(await store.forgetSuccessorsBatch(T0 + 2, 100)).toBeGreaterThanOrEqual(1);
    const left = await database.handle.db.selectFrom('refresh_tokens').select(['id', 'successor_box']).where('grant_id', '=', grant.id).orderBy('id').execute();
    expect(left).toEqual([spent, live].map((t) => ({ id: t.id, successor_box: null })).sort((a, b) => (a.id < b.id ? -1 : 1)));
  });
});

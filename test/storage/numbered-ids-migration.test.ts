// Migration 017 (docs/rules.md#numbered-ids) on both backends: a database as the previous
// release left it, with random ids and rows that refer to them, comes out numbered 1, 2, 3 …
// per series in the order the rows were made, every reference following its row, the
// foreign keys whole, and the series going on from there.
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../src/storage/migrator.ts';
import type { Database } from '../../src/storage/schema.ts';
import { createServiceStores } from '../../src/storage/stores/index.ts';
import { backends, createTestDatabase, type TestDatabase } from '../helpers/backends.ts';

const T0 = 1_700_000_000_000;

describe.each(backends)('migration 017 numbers ids on $name', ({ name, available }) => {
  let database: TestDatabase;
  let db: Kysely<any>;

  beforeAll(async () => {
    if (!available) return;
    database = await createTestDatabase(name, { upTo: '016_fapi2_profile' });
    db = database.handle.db as Kysely<any>;
  });
  afterAll(async () => database?.drop());

  /** The previous release's rows: random ids, made in the order the names say (1st, 2nd …). */
  async function seedPreviousRelease(): Promise<void> {
    const user = (id: string, at: number) => ({ id, email: `${id}@example.com`, name: id, username: id, password_hash: 'x', is_admin: 0, time_zone: 'UTC', week_start: 'Monday', time_format: 24, default_schedule_id: null, organization_id: null, created_at: T0 + at, updated_at: T0 + at });
    // Inserted out of order: the numbers follow created_at, not the insertion.
    await db.insertInto('users').values([user('Zu2ndUserXyzAbc', 2), user('Ab1stUserQrsTuv', 1), user('Mm3rdUserKlmNop', 3)]).execute();
    await db.insertInto('organizations').values({ id: 'OrgRandomIdAaaa', name: 'Acme', slug: 'acme', created_at: T0 + 1, updated_at: T0 + 1 }).execute();
    await db.insertInto('teams').values({ id: 'TeamRandomIdBbb', organization_id: 'OrgRandomIdAaaa', name: 'Sales', slug: 'sales', bio: '', time_zone: 'UTC', brand_color: '#000000', created_at: T0 + 2, updated_at: T0 + 2 }).execute();
    await db.updateTable('users').set({ organization_id: 'OrgRandomIdAaaa' }).where('id', '=', 'Ab1stUserQrsTuv').execute();
    await db.insertInto('memberships').values([
      { id: 'MemRandomIdCccc', user_id: 'Ab1stUserQrsTuv', team_id: null, organization_id: 'OrgRandomIdAaaa', role: 'owner', created_at: T0 + 1, updated_at: T0 + 1 },
      { id: 'MemRandomIdDddd', user_id: 'Zu2ndUserXyzAbc', team_id: 'TeamRandomIdBbb', organization_id: null, role: 'member', created_at: T0 + 3, updated_at: T0 + 3 },
    ]).execute();
    await db.insertInto('membership_invitations').values({ id: 'InvRandomIdEeee', team_id: 'TeamRandomIdBbb', organization_id: null, email: null, user_id: 'Mm3rdUserKlmNop', role: 'admin', invited_by: 'Ab1stUserQrsTuv', created_at: T0 + 2, updated_at: T0 + 2 }).execute();
    const et = (id: string, at: number, owner: { user_id: string | null; team_id: string | null }) => ({ id, ...owner, title: id, slug: id.toLowerCase(), description: '', length_minutes: 30, locations: '[]', hidden: 0, requires_confirmation: 0, minimum_booking_notice: 0, scheduling_type: owner.team_id === null ? null : 'collective', created_at: T0 + at, updated_at: T0 + at });
    await db.insertInto('event_types').values([et('EtTeamRandomFff', 2, { user_id: null, team_id: 'TeamRandomIdBbb' }), et('EtUserRandomGgg', 1, { user_id: 'Zu2ndUserXyzAbc', team_id: null })]).execute();
    await db.insertInto('private_links').values({ id: 'LinkRandomIdHhh', event_type_id: 'EtUserRandomGgg', link_hash: 'hash', expires_at: null, max_uses: 1, use_count: 0, created_at: T0 }).execute();
    const booking = (uid: string, at: number) => ({ uid, event_type_id: 'EtUserRandomGgg', user_id: 'Zu2ndUserXyzAbc', team_id: null, title: 'Intro', description: '', start_time: T0 + 86_400_000 * at, end_time: T0 + 86_400_000 * at + 1_800_000, status: 'accepted', attendee_name: 'Ann', attendee_email: 'ann@example.com', attendee_time_zone: 'UTC', guests: '[]', location: '', cancellation_reason: null, decline_reason: null, rescheduled_from: null, rescheduled_to: null, manage_token_hash: null, created_at: T0 + at, updated_at: T0 + at });
    await db.insertInto('bookings').values([booking('later-booking-uid', 5), booking('earlier-booking-uid', 4)]).execute();
    await db.insertInto('schedules').values({ id: 'SchedRandomIdIi', user_id: 'Zu2ndUserXyzAbc', team_id: null, name: 'Work', time_zone: 'UTC', availability: '[]', overrides: '[]', created_at: T0, updated_at: T0 }).execute();
    await db.updateTable('users').set({ default_schedule_id: 'SchedRandomIdIi' }).where('id', '=', 'Zu2ndUserXyzAbc').execute();
    await db.insertInto('workflows').values({ id: 'WfRandomIdJjjjj', team_id: 'TeamRandomIdBbb', name: 'Remind', trigger: 'BEFORE_EVENT', time_offset_minutes: 60, steps: '[]', active_on: JSON.stringify(['EtTeamRandomFff']), active: 1, created_at: T0, updated_at: T0 }).execute();
    await db.insertInto('webhooks').values({ id: 'HookRandomIdKkk', user_id: 'Zu2ndUserXyzAbc', organization_id: null, subscriber_url: 'https://hooks.example.com/', triggers: '["BOOKING_CREATED"]', active: 1, payload_template: null, created_at: T0, updated_at: T0, secret: 's', failing_since: null, disabled_reason: null }).execute();
    await db.insertInto('webhook_deliveries').values({ id: 'msg_delivery', webhook_id: 'HookRandomIdKkk', client_id: null, event: 'BOOKING_CREATED', payload: '{}', status: 'pending', attempts: 0, next_attempt_at: T0, last_attempt_at: null, response_status: null, response_body: null, error: null, created_at: T0 }).execute();
    await db.insertInto('sessions').values({ id_hash: 'session-hash', user_id: 'Mm3rdUserKlmNop', created_at: T0, expires_at: T0 + 3_600_000 }).execute();
    await db.insertInto('out_of_office_entries').values({ id: 'OooRandomIdLlll', uuid: 'uuid-1', user_id: 'Zu2ndUserXyzAbc', to_user_id: 'Ab1stUserQrsTuv', start_time: T0, end_time: T0 + 1, notes: null, reason: 'vacation', created_at: T0, updated_at: T0 }).execute();
  }

  it.skipIf(!available)('numbers each series by creation, moves every reference with its row, and keeps the foreign keys whole', async () => {
    await seedPreviousRelease();
    await migrateToLatest(database.handle);

    const users = await db.selectFrom('users').select(['id', 'email', 'organization_id', 'default_schedule_id']).orderBy('email').execute();
    expect(users).toEqual([
      { id: '1', email: 'Ab1stUserQrsTuv@example.com', organization_id: '1', default_schedule_id: null },
      { id: '3', email: 'Mm3rdUserKlmNop@example.com', organization_id: null, default_schedule_id: null },
      { id: '2', email: 'Zu2ndUserXyzAbc@example.com', organization_id: null, default_schedule_id: '1' },
    ]);
    // One series for organizations and teams: the organization was made first.
    expect(await db.selectFrom('organizations').select('id').execute()).toEqual([{ id: '1' }]);
    expect(await db.selectFrom('teams').select(['id', 'organization_id']).execute()).toEqual([{ id: '2', organization_id: '1' }]);
    // One series for memberships and invitations, in the order they were made.
    expect(await db.selectFrom('memberships').select(['id', 'user_id', 'team_id', 'organization_id']).orderBy('id').execute()).toEqual([
      { id: '1', user_id: '1', team_id: null, organization_id: '1' },
      { id: '3', user_id: '2', team_id: '2', organization_id: null },
    ]);
    expect(await db.selectFrom('membership_invitations').select(['id', 'user_id', 'invited_by', 'team_id']).execute()).toEqual([{ id: '2', user_id: '3', invited_by: '1', team_id: '2' }]);
    expect(await db.selectFrom('event_types').select(['id', 'user_id', 'team_id']).orderBy('id').execute()).toEqual([
      { id: '1', user_id: '2', team_id: null },
      { id: '2', user_id: null, team_id: '2' },
    ]);
    expect(await db.selectFrom('private_links').select('event_type_id').execute()).toEqual([{ event_type_id: '1' }]);
    // Bookings keep their uid and gain a number beside it.
    expect(await db.selectFrom('bookings').select(['uid', 'id', 'user_id', 'event_type_id']).orderBy('id').execute()).toEqual([
      { uid: 'earlier-booking-uid', id: '1', user_id: '2', event_type_id: '1' },
      { uid: 'later-booking-uid', id: '2', user_id: '2', event_type_id: '1' },
    ]);
    expect(await db.selectFrom('schedules').select(['id', 'user_id']).execute()).toEqual([{ id: '1', user_id: '2' }]);
    expect(await db.selectFrom('workflows').select(['id', 'team_id', 'active_on']).execute()).toEqual([{ id: '1', team_id: '2', active_on: '["2"]' }]);
    expect(await db.selectFrom('webhooks').select(['id', 'user_id']).execute()).toEqual([{ id: '1', user_id: '2' }]);
    expect(await db.selectFrom('webhook_deliveries').select('webhook_id').execute()).toEqual([{ webhook_id: '1' }]);
    expect(await db.selectFrom('sessions').select('user_id').execute()).toEqual([{ user_id: '3' }]);
    expect(await db.selectFrom('out_of_office_entries').select(['id', 'user_id', 'to_user_id']).execute()).toEqual([{ id: '1', user_id: '2', to_user_id: '1' }]);

    // The references hold, and the constraints are still there to refuse an orphan.
    await expect(db.insertInto('sessions').values({ id_hash: 'orphan-session', user_id: 'no-such-user', created_at: T0, expires_at: T0 }).execute()).rejects.toThrow();
    if (name === 'sqlite') {
      expect((await sql`pragma foreign_key_check`.execute(db)).rows).toEqual([]);
    } else {
      // Made again as they were: deleting a user still cascades to its sessions.
      await db.deleteFrom('memberships').where('user_id', '=', '3').execute();
      await db.deleteFrom('membership_invitations').where('user_id', '=', '3').execute();
      await db.deleteFrom('users').where('id', '=', '3').execute();
      expect(await db.selectFrom('sessions').select('user_id').execute()).toEqual([]);
      await expect(db.insertInto('sessions').values({ id_hash: 'orphan', user_id: 'no-such-user', created_at: T0, expires_at: T0 }).execute()).rejects.toThrow();
    }

    // Each series goes on after what it numbered.
    const stores = createServiceStores(database.handle.db as Kysely<Database>);
    expect(await stores.ids.next('users')).toBe('4');
    expect(await stores.ids.next('teams')).toBe('3');
    expect(await stores.ids.next('memberships')).toBe('4');
    expect(await stores.ids.next('bookings')).toBe('3');
    expect(await stores.ids.next('event_types')).toBe('3');
    expect(await stores.ids.next('workflows')).toBe('2');
    expect(await stores.ids.next('connected_apps')).toBe('1');
  });

  it.skipIf(!available)('a migration that fails halfway leaves nothing of itself, and the database migrates once the cause is mended', async () => {
    const older = await createTestDatabase(name, { upTo: '016_fapi2_profile' });
    try {
      const odb = older.handle.db as Kysely<any>;
      await odb.insertInto('users').values({ id: 'OnlyUserRandomId', email: 'only@example.com', name: 'Only', username: 'only', password_hash: 'x', is_admin: 0, time_zone: 'UTC', week_start: 'Monday', time_format: 24, default_schedule_id: null, organization_id: null, created_at: T0, updated_at: T0 }).execute();
      await odb.insertInto('teams').values({ id: 'TeamRandomIdZzz', organization_id: null, name: 'Ops', slug: 'ops', bio: '', time_zone: 'UTC', brand_color: '#000000', created_at: T0, updated_at: T0 }).execute();
      // A row 017 cannot read: it fails after renumbering every table, before it ends.
      await odb.insertInto('workflows').values({ id: 'WfBrokenJsonAaa', team_id: 'TeamRandomIdZzz', name: 'Broken', trigger: 'BEFORE_EVENT', time_offset_minutes: 60, steps: '[]', active_on: 'not json', active: 1, created_at: T0, updated_at: T0 }).execute();
      await expect(migrateToLatest(older.handle)).rejects.toThrow();
      expect(await odb.selectFrom('users').select('id').execute()).toEqual([{ id: 'OnlyUserRandomId' }]);
      expect(await odb.selectFrom('teams').select('id').execute()).toEqual([{ id: 'TeamRandomIdZzz' }]);
      const bookingColumns = (await odb.introspection.getTables()).find((t) => t.name === 'bookings')!.columns.map((c) => c.name);
      expect(bookingColumns).not.toContain('id');

      await odb.updateTable('workflows').set({ active_on: '[]' }).execute();
      await migrateToLatest(older.handle);
      expect(await odb.selectFrom('users').select('id').execute()).toEqual([{ id: '1' }]);
      expect(await odb.selectFrom('workflows').select(['id', 'team_id']).execute()).toEqual([{ id: '1', team_id: '1' }]);
    } finally {
      await older.drop();
    }
  });
});

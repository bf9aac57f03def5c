// Migration 020 (docs/rules.md#webhooks) on both backends: webhooks may belong to an event
// type. The webhooks and deliveries of the previous release come through whole (SQLite makes
// both tables again), the deliveries still refer to their webhooks, and the owner check
// takes exactly one of user, organization and event type.
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../src/storage/migrator.ts';
import { backends, createTestDatabase, type TestDatabase } from '../helpers/backends.ts';

const T0 = 1_700_000_000_000;

describe.each(backends)('migration 020 lets an event type own webhooks on $name', ({ name, available }) => {
  let database: TestDatabase;
  let db: Kysely<any>;

  beforeAll(async () => {
    if (!available) return;
    database = await createTestDatabase(name, { upTo: '019_booking_attendees' });
    db = database.handle.db as Kysely<any>;
  });
  afterAll(async () => database?.drop());

  const hook = (id: string, owner: { user_id?: string; organization_id?: string; event_type_id?: string }) => ({
    id,
    user_id: null,
    organization_id: null,
    ...owner,
    subscriber_url: `https://hooks.example.com/${id}`,
    triggers: '["BOOKING_CREATED"]',
    active: 1,
    payload_template: null,
    created_at: T0,
    updated_at: T0,
    secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    failing_since: null,
    disabled_reason: 'failing',
  });
  const delivery = (id: string, webhookId: string) => ({ id, webhook_id: webhookId, client_id: null, event: 'BOOKING_CREATED', payload: '{}', status: 'pending', attempts: 2, next_attempt_at: T0, last_attempt_at: T0, response_status: 500, response_body: 'no', error: null, created_at: T0 });

  it.skipIf(!available)('keeps every webhook and delivery, the deliveries\' reference to their webhook, and checks one owner of three', async () => {
    await db.insertInto('users').values({ id: '901', email: 'u901@example.com', name: 'U', username: 'u901', password_hash: 'x', is_admin: 0, time_zone: 'UTC', week_start: 'Monday', time_format: 24, default_schedule_id: null, organization_id: null, created_at: T0, updated_at: T0 }).execute();
    await db.insertInto('organizations').values({ id: '902', name: 'Acme', slug: 'acme-902', created_at: T0, updated_at: T0 }).execute();
    await db.insertInto('event_types').values({ id: '903', user_id: '901', team_id: null, title: 'Intro', slug: 'intro-903', description: '', length_minutes: 30, locations: '[]', hidden: 0, requires_confirmation: 0, minimum_booking_notice: 0, scheduling_type: null, created_at: T0, updated_at: T0 }).execute();
    await db.insertInto('webhooks').values([hook('904', { user_id: '901' }), hook('905', { organization_id: '902' })]).execute();
    await db.insertInto('webhook_deliveries').values([delivery('msg_a', '904'), delivery('msg_b', '905')]).execute();

    await migrateToLatest(database.handle);

    const hooks = await db.selectFrom('webhooks').selectAll().orderBy('id').execute();
    expect(hooks.map((h) => ({ ...h, created_at: Number(h.created_at), updated_at: Number(h.updated_at) }))).toEqual([
      { ...hook('904', { user_id: '901' }), event_type_id: null },
      { ...hook('905', { organization_id: '902' }), event_type_id: null },
    ]);
    const deliveries = await db.selectFrom('webhook_deliveries').select(['id', 'webhook_id', 'attempts', 'response_body']).orderBy('id').execute();
    expect(deliveries).toEqual([
      { id: 'msg_a', webhook_id: '904', attempts: 2, response_body: 'no' },
      { id: 'msg_b', webhook_id: '905', attempts: 2, response_body: 'no' },
    ]);

    // One owner of three: an event type alone will do; two owners, or none, will not.
    await db.insertInto('webhooks').values(hook('906', { event_type_id: '903' })).execute();
    await expect(db.insertInto('webhooks').values(hook('907', { user_id: '901', event_type_id: '903' })).execute()).rejects.toThrow();
    await expect(db.insertInto('webhooks').values(hook('908', {})).execute()).rejects.toThrow();
    // An event type that does not exist is refused.
    await expect(db.insertInto('webhooks').values(hook('909', { event_type_id: 'nope' })).execute()).rejects.toThrow();

    // The deliveries' reference holds: an unknown webhook is refused, a deleted one takes its deliveries along.
    await expect(db.insertInto('webhook_deliveries').values(delivery('msg_x', 'nope')).execute()).rejects.toThrow();
    await db.insertInto('webhook_deliveries').values(delivery('msg_c', '906')).execute();
    await db.deleteFrom('webhooks').where('id', '=', '904').execute();
    expect((await db.selectFrom('webhook_deliveries').select('id').orderBy('id').execute()).map((d) => d.id)).toEqual(['msg_b', 'msg_c']);

    // Deleting the event type deletes its webhooks and their deliveries.
    await db.deleteFrom('event_types').where('id', '=', '903').execute();
    expect((await db.selectFrom('webhooks').select('id').execute()).map((h) => h.id)).toEqual(['905']);
    expect((await db.selectFrom('webhook_deliveries').select('id').execute()).map((d) => d.id)).toEqual(['msg_b']);
  });
});

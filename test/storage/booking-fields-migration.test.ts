// Migration 030 (docs/integrating.md#booking-fields) on both backends: an event type and a
// booking stored by the previous release read back through their stores as before, the event
// type with no booking fields of its own (the default form) and the booking with no answers
// beyond its booker, guests and notes.
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../src/storage/migrator.ts';
import { backends, createTestDatabase, type TestDatabase } from '../helpers/backends.ts';
import { storesOver } from '../helpers/stores.ts';

const T0 = 1_700_000_000_000;

describe.each(backends)('migration 031 gives event types booking fields and bookings their answers on $name', ({ name, available }) => {
  let database: TestDatabase;
  let db: Kysely<any>;

  beforeAll(async () => {
    if (!available) return;
    database = await createTestDatabase(name, { upTo: '030_grants_by_client' });
    db = database.handle.db as Kysely<any>;
  });
  afterAll(async () => database?.drop());

  it.skipIf(!available)('an event type and a booking of the previous release read back unchanged, with the default form and no answers', async () => {
    // As the previous release stored them: no booking_fields, no booking_field_responses.
    await db.insertInto('users').values({ id: '901', email: 'u901@example.com', name: 'U', username: 'u901', password_hash: 'x', is_admin: 0, time_zone: 'UTC', week_start: 'Monday', time_format: 24, default_schedule_id: null, organization_id: null, created_at: T0, updated_at: T0 }).execute();
    await db.insertInto('event_types').values({ id: '903', user_id: '901', team_id: null, title: 'Intro', slug: 'intro-903', description: '', length_minutes: 30, locations: '[]', hidden: 0, requires_confirmation: 0, minimum_booking_notice: 0, scheduling_type: null, created_at: T0, updated_at: T0 }).execute();
    await db.insertInto('bookings').values({
      uid: 'b-904', id: '904', event_type_id: '903', user_id: '901', team_id: null, title: 'Intro with Ann', description: 'Hello', start_time: T0, end_time: T0 + 1_800_000,
      status: 'accepted', attendee_name: 'Ann', attendee_email: 'ann@example.com', attendee_time_zone: 'UTC', guests: '[]', location: '', cancellation_reason: null, decline_reason: null,
      rescheduled_from: null, rescheduled_to: null, manage_token_hash: null, absent_host: 0, created_at: T0, updated_at: T0,
    }).execute();

    await migrateToLatest(database.handle);

    const { services } = storesOver(database.handle.db);
    expect(await services.stores.api.eventTypes.findOwned({ userId: '901' }, '903')).toMatchObject({ id: '903', title: 'Intro', locations: [], bookingFields: [] });
    expect(await services.stores.bookings.findEventType('903')).toMatchObject({ id: '903', bookingFields: [] });
    expect(await services.stores.bookings.find('b-904')).toMatchObject({ uid: 'b-904', description: 'Hello', guests: [], responses: {} });
  });
});

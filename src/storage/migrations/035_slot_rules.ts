// docs/integrating.md#slot-rules: what an event type sets of its slots beyond its length and
// notice, as Cal.com API v2 (2024-06-14) takes them: the distance between two starts
// (slotInterval; NULL: the length), the time kept clear before and after a booking (buffers,
// minutes), how far ahead it may be booked (booking_window, JSON: {type, days, rolling} for
// calendar or business days, {type: 'range', from, to} for dates; NULL: no limit), how
// many bookings a host takes per day, week, month or year (booking_limits_count, JSON; NULL: no
// limit), and seats (NULL: one booker a slot). Event types made before it keep Cal.com's
// defaults, which is what the slots computed for them until now.
//
// And the other hosts of a collective team booking (booking_hosts): every member it needed
// free is its host, so the booking takes each one's time, not only that of its host of record
// (bookings.user_id). Bookings made before it have that one host only.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const add = (column: string, type: 'integer' | 'text', notNullDefault?: number) =>
    db.schema
      .alterTable('event_types')
      .addColumn(column, type, (c) => (notNullDefault === undefined ? c : c.notNull().defaultTo(notNullDefault)))
      .execute();
  // One column a statement: SQLite's ALTER TABLE adds one at a time.
  await add('slot_interval', 'integer');
  await add('before_event_buffer', 'integer', 0);
  await add('after_event_buffer', 'integer', 0);
  await add('booking_window', 'text');
  await add('booking_limits_count', 'text');
  await add('seats_per_time_slot', 'integer');
  await add('seats_show_attendees', 'integer', 0);
  await add('seats_show_availability_count', 'integer', 0);

  await db.schema
    .createTable('booking_hosts')
    .addColumn('booking_uid', 'text', (c) => c.notNull().references('bookings.uid').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('booking_hosts_key', ['booking_uid', 'user_id'])
    .execute();
  // A host's time is read by host: the slots of their event types, the check that they are free.
  await db.schema.createIndex('booking_hosts_user').on('booking_hosts').column('user_id').execute();
}

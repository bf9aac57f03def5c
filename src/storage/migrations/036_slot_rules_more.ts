// docs/integrating.md#slot-rules: three more of an event type's slot settings, as Cal.com API
// v2 (2024-06-14) takes them: the minutes of its bookings a host takes per day, week, month or
// year (booking_limits_duration, JSON; NULL: no limit), only the first free slot of each day
// (only_first_slot, 0 or 1), and the minutes every start is shifted by from the start of the
// hours (offset_start). Event types made before it keep Cal.com's defaults, which is what the
// slots computed for them until now.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  // One column a statement: SQLite's ALTER TABLE adds one at a time.
  await db.schema.alterTable('event_types').addColumn('booking_limits_duration', 'text').execute();
  await db.schema.alterTable('event_types').addColumn('only_first_slot', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('event_types').addColumn('offset_start', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}

// docs/integrating.md#booking-fields: an event type's booking fields, the questions a booker
// answers (the default fields' settings and the custom fields, in order), as a JSON array;
// and a booking's answers to them, as a JSON object keyed by the fields' slugs. Both belong to
// their row and are written whole with it, as an event type's locations are. Event types made
// before this migration ask the default fields only ('[]'); bookings made before it answered
// none beyond the booker, the guests and the notes ('{}').
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('event_types').addColumn('booking_fields', 'text', (c) => c.notNull().defaultTo('[]')).execute();
  await db.schema.alterTable('bookings').addColumn('booking_field_responses', 'text', (c) => c.notNull().defaultTo('{}')).execute();
}

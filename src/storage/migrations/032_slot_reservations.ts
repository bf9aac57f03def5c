// Slot reservations (docs/integrating.md#slot-reservations): a slot of an event type held for
// a few minutes by whoever holds its uid, as Cal.com API v2's POST /v2/slots/reservations
// holds one. While it lasts the slot is offered to nobody and booked only with its uid; after
// expires_at it is nothing, and retention deletes it by that column. Times are millisecond
// BIGINTs, as in 002.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('slot_reservations')
    .addColumn('uid', 'text', (c) => c.primaryKey())
    .addColumn('event_type_id', 'text', (c) => c.notNull().references('event_types.id').onDelete('cascade'))
    .addColumn('start_time', 'bigint', (c) => c.notNull())
    .addColumn('end_time', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  // The slots of an event type read its live reservations by start; deleting it cascades by this too.
  await db.schema.createIndex('slot_reservations_event_type').on('slot_reservations').columns(['event_type_id', 'start_time']).execute();
  // docs/rules.md#retention: expired reservations are deleted by expiry.
  await db.schema.createIndex('slot_reservations_expires').on('slot_reservations').column('expires_at').execute();
}

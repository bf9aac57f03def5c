// Out-of-office entries (docs/rules.md#out-of-office): a user is away from start to end,
// optionally naming who covers. Times are millisecond BIGINTs as in 001 and 002, so the same
// statements serve both dialects. Entries of one user never overlap: the platform decides
// that under the user's row lock, since a constraint cannot say it in both dialects.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('out_of_office_entries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('uuid', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('to_user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('start_time', 'bigint', (c) => c.notNull())
    .addColumn('end_time', 'bigint', (c) => c.notNull())
    .addColumn('notes', 'text')
    .addColumn('reason', 'text', (c) => c.notNull().defaultTo('unspecified'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addCheckConstraint('out_of_office_entries_order', sql`end_time > start_time`)
    .addCheckConstraint('out_of_office_entries_reason', sql`reason IN ('unspecified', 'vacation', 'travel', 'sick', 'public_holiday')`)
    .execute();
  await db.schema.createIndex('out_of_office_entries_user').on('out_of_office_entries').columns(['user_id', 'start_time']).execute();
  // Deleting a user sets to_user_id to null: an index keeps that from scanning every entry.
  await db.schema.createIndex('out_of_office_entries_to_user').on('out_of_office_entries').column('to_user_id').execute();
}

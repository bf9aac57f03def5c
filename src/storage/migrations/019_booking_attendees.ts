// A booking's attendees in their own rows (docs/integrating.md#booking-attendees), so that one
// can be added after booking and each marked absent; the booking row keeps its booker and
// guests for the answers that show them. Every existing booking's booker and guests are
// copied in, in this migration's one transaction (see 011 for why none is opened here).
// The records of the video and calendar providers Gatehouse does not run (references,
// recordings, transcripts, conferencing sessions) get tables an operator fills
// (`gatehouse bookings add-…`). Times are millisecond BIGINTs and booleans integers, as in 002.
import { sql, type Kysely } from 'kysely';

type Dialect = 'sqlite' | 'postgres';

/** The series this migration starts (docs/rules.md#numbered-ids): attendees and references are numbered, as the platform's are. */
const SERIES = ['booking_attendees', 'booking_references'];

/**
 * The next n ids of a series, taken as the live code takes them (migration 017), written out
 * here so that what the migration does never changes with the live code.
 */
async function nextIds(db: Kysely<any>, dialect: Dialect, series: string, n: number): Promise<string[]> {
  if (dialect === 'postgres') {
    const { rows } = await sql<{ id: string }>`select nextval(${`id_series_${series}`}::regclass)::text as id from generate_series(1, ${n})`.execute(db);
    return rows.map((r) => r.id);
  }
  const { rows } = await sql<{ last_value: number }>`update id_series set last_value = last_value + ${n} where name = ${series} returning last_value`.execute(db);
  const last = Number(rows[0]!.last_value);
  return Array.from({ length: n }, (_, i) => String(last - n + 1 + i));
}

/** Bookings per insert: 11 rows of 8 values each stay under SQLite's 32766 parameters. */
const PAGE = 250;

/**
 * Copies the booker and guests of every booking that has no attendee rows yet: each page
 * written leaves the set, so the next page is again the first. Exported for its test.
 */
export async function copyAttendees(db: Kysely<any>, dialect: Dialect): Promise<void> {
  for (;;) {
    const rows = (await db
      .selectFrom('bookings')
      .select(['uid', 'attendee_name', 'attendee_email', 'attendee_time_zone', 'guests', 'created_at'])
      .where((eb) => eb.not(eb.exists(eb.selectFrom('booking_attendees').select('id').whereRef('booking_attendees.booking_uid', '=', 'bookings.uid'))))
      .orderBy('uid')
      .limit(PAGE)
      .execute()) as Array<{ uid: string; attendee_name: string; attendee_email: string; attendee_time_zone: string; guests: string; created_at: number | string }>;
    if (rows.length === 0) return;
    const values = rows.flatMap((b) => {
      const createdAt = Number(b.created_at);
      const booker = { id: '', booking_uid: b.uid, role: 'booker', email: b.attendee_email, name: b.attendee_name, time_zone: b.attendee_time_zone, absent: 0, created_at: createdAt };
      // A guest is known by address only; the booker's time zone is the best guess of theirs.
      const guests = (JSON.parse(b.guests) as string[])
        .filter((g, i, all) => g !== b.attendee_email && all.indexOf(g) === i)
        .map((g) => ({ ...booker, role: 'guest', email: g, name: '' }));
      return [booker, ...guests];
    });
    const ids = await nextIds(db, dialect, 'booking_attendees', values.length);
    values.forEach((v, i) => (v.id = ids[i]!));
    await db.insertInto('booking_attendees').values(values).execute();
  }
}

const bookingUid = (c: any) => c.notNull().references('bookings.uid').onDelete('cascade');

export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('booking_attendees')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('booking_uid', 'text', bookingUid)
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('booker', 'guest', 'added')`))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('time_zone', 'text', (c) => c.notNull())
    .addColumn('phone_number', 'text')
    .addColumn('language', 'text')
    .addColumn('absent', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('booking_attendees_address', ['booking_uid', 'email'])
    .execute();
  await db.schema.alterTable('bookings').addColumn('absent_host', 'integer', (c) => c.notNull().defaultTo(0)).execute();

  await db.schema
    .createTable('booking_references')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('booking_uid', 'text', bookingUid)
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('event_uid', 'text', (c) => c.notNull())
    .addColumn('destination_calendar_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('booking_recordings')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('booking_uid', 'text', bookingUid)
    .addColumn('room_name', 'text', (c) => c.notNull())
    .addColumn('start_ts', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('max_participants', 'integer')
    .addColumn('duration', 'integer', (c) => c.notNull())
    .addColumn('share_token', 'text', (c) => c.notNull())
    .addColumn('download_link', 'text')
    .addColumn('error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('booking_transcripts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('booking_uid', 'text', bookingUid)
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('booking_conferencing_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('booking_uid', 'text', bookingUid)
    .addColumn('room', 'text', (c) => c.notNull())
    .addColumn('start_time', 'bigint', (c) => c.notNull())
    .addColumn('duration', 'integer', (c) => c.notNull())
    .addColumn('ongoing', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_participants', 'integer', (c) => c.notNull())
    .addColumn('participants', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  for (const table of ['booking_attendees', 'booking_references', 'booking_recordings', 'booking_transcripts', 'booking_conferencing_sessions']) {
    await db.schema.createIndex(`${table}_booking`).on(table).columns(['booking_uid', 'created_at']).execute();
  }
  for (const series of SERIES) {
    if (dialect === 'sqlite') await db.insertInto('id_series').values({ name: series, last_value: 0 }).execute();
    else await sql.raw(`create sequence id_series_${series} start with 1`).execute(db);
  }
  await copyAttendees(db, dialect);
}

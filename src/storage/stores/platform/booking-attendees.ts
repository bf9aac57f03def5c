// BookingAttendeeStore (src/platform/bookings/attendee-store.ts) on Kysely. The one place an
// attendee's id is made: the booking store's insert writes a new booking's booker and guests
// through insertAttendees too.
import type { Selectable } from 'kysely';
import type { Attendee, BookingAttendeeStore, NewAttendee } from '../../../platform/bookings/attendee-store.ts';
import { createIdSeriesStore } from '../ids.ts';
import type { Executor } from '../../repositories/executor.ts';
import type { BookingAttendeesTable } from '../../schema.ts';

type Row = Selectable<BookingAttendeesTable>;

export const toAttendee = (r: Row): Attendee => ({
  id: r.id,
  bookingUid: r.booking_uid,
  role: r.role,
  email: r.email,
  name: r.name,
  timeZone: r.time_zone,
  phoneNumber: r.phone_number,
  language: r.language,
  absent: Number(r.absent) === 1,
  createdAt: Number(r.created_at),
});

/** Writes them with new ids, present; an empty list writes nothing. */
export async function insertAttendees(db: Executor, attendees: NewAttendee[]): Promise<Attendee[]> {
  if (attendees.length === 0) return [];
  // All their ids in one statement: a booking with ten guests costs what one with none does.
  const ids = await createIdSeriesStore(db).nextMany('booking_attendees', attendees.length);
  const written: Attendee[] = attendees.map((a, i) => ({ ...a, id: ids[i]!, absent: false }));
  await db
    .insertInto('booking_attendees')
    .values(
      written.map((a) => ({
        id: a.id,
        booking_uid: a.bookingUid,
        role: a.role,
        email: a.email,
        name: a.name,
        time_zone: a.timeZone,
        phone_number: a.phoneNumber,
        language: a.language,
        absent: 0,
        created_at: a.createdAt,
      })),
    )
    .execute();
  return written;
}

/** The attendees of these bookings, each booking's booker first, then in the order they joined. */
export async function listAttendees(db: Executor, bookingUids: string[]): Promise<Attendee[]> {
  if (bookingUids.length === 0) return [];
  // Guests of one booking join at one instant: the address orders them, not the id.
  const rows = await db
    .selectFrom('booking_attendees')
    .selectAll()
    .where('booking_uid', 'in', bookingUids)
    .orderBy('booking_uid')
    .orderBy((eb) => eb.case().when('role', '=', 'booker').then(0).else(1).end())
    .orderBy('created_at')
    .orderBy('email')
    .execute();
  return rows.map(toAttendee);
}

export function createBookingAttendeeStore(db: Executor): BookingAttendeeStore {
  const of = (bookingUid: string) => db.selectFrom('booking_attendees').selectAll().where('booking_uid', '=', bookingUid);
  return {
    list: (bookingUid) => listAttendees(db, [bookingUid]),
    find: async (bookingUid, id) => {
      const row = await of(bookingUid).where('id', '=', id).executeTakeFirst();
      return row && toAttendee(row);
    },
    insert: (attendees) => insertAttendees(db, attendees),
    setAbsent: async (bookingUid, email, absent) => {
      await db.updateTable('booking_attendees').set({ absent: absent ? 1 : 0 }).where('booking_uid', '=', bookingUid).where('email', '=', email.toLowerCase()).execute();
    },
  };
}

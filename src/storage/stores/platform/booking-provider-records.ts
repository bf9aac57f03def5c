// BookingProviderStore (src/platform/bookings/provider-records.ts) on Kysely: the one place the ids
// of references, recordings, transcripts and sessions are made, when the provider gave none.
import type { Selectable } from 'kysely';
import { PROVIDER_LIST_MAX, type BookingProviderStore, type SessionParticipant } from '../../../platform/bookings/provider-records.ts';
import { randomId } from '../../../oauth/token-format.ts';
import { createIdSeriesStore } from '../ids.ts';
import type { Executor } from '../../repositories/executor.ts';
import { isUniqueViolation } from '../../errors.ts';
import type { BookingConferencingSessionsTable, BookingRecordingsTable, BookingReferencesTable, BookingTranscriptsTable } from '../../schema.ts';

const nullableNumber = (v: number | string | null) => (v === null ? null : Number(v));

const toReference = (r: Selectable<BookingReferencesTable>) => ({
  id: r.id,
  bookingUid: r.booking_uid,
  type: r.type,
  eventUid: r.event_uid,
  destinationCalendarId: r.destination_calendar_id,
  createdAt: Number(r.created_at),
});
const toRecording = (r: Selectable<BookingRecordingsTable>) => ({
  id: r.id,
  bookingUid: r.booking_uid,
  roomName: r.room_name,
  startTs: Number(r.start_ts),
  status: r.status,
  maxParticipants: nullableNumber(r.max_participants),
  duration: Number(r.duration),
  shareToken: r.share_token,
  downloadLink: r.download_link,
  error: r.error,
  createdAt: Number(r.created_at),
});
const toTranscript = (r: Selectable<BookingTranscriptsTable>) => ({ id: r.id, bookingUid: r.booking_uid, url: r.url, createdAt: Number(r.created_at) });
const toSession = (r: Selectable<BookingConferencingSessionsTable>) => ({
  id: r.id,
  bookingUid: r.booking_uid,
  room: r.room,
  startTime: Number(r.start_time),
  duration: Number(r.duration),
  ongoing: Number(r.ongoing) === 1,
  maxParticipants: Number(r.max_participants),
  participants: JSON.parse(r.participants) as SessionParticipant[],
  createdAt: Number(r.created_at),
});

/** The write, or undefined when its id is taken. Not for a PostgreSQL transaction that must survive the duplicate. */
async function unlessTaken<T>(write: () => Promise<unknown>, written: T): Promise<T | undefined> {
  try {
    await write();
    return written;
  } catch (error) {
    if (isUniqueViolation(error)) return undefined;
    throw error;
  }
}

type Table = 'booking_references' | 'booking_recordings' | 'booking_transcripts' | 'booking_conferencing_sessions';

export function createBookingProviderStore(db: Executor): BookingProviderStore {
  const of = <T extends Table>(table: T, bookingUid: string) =>
    db.selectFrom(table as Table).selectAll().where('booking_uid', '=', bookingUid).orderBy('created_at').orderBy('id').limit(PROVIDER_LIST_MAX);
  return {
    bookingExists: async (bookingUid) => (await db.selectFrom('bookings').select('uid').where('uid', '=', bookingUid).executeTakeFirst()) !== undefined,
    references: async (bookingUid, type) => {
      let q = db.selectFrom('booking_references').selectAll().where('booking_uid', '=', bookingUid);
      if (type !== undefined) q = q.where('type', '=', type);
      return (await q.orderBy('created_at').orderBy('id').limit(PROVIDER_LIST_MAX).execute()).map(toReference);
    },
    recordings: async (bookingUid) => ((await of('booking_recordings', bookingUid).execute()) as Selectable<BookingRecordingsTable>[]).map(toRecording),
    transcripts: async (bookingUid) => ((await of('booking_transcripts', bookingUid).execute()) as Selectable<BookingTranscriptsTable>[]).map(toTranscript),
    sessions: async (bookingUid) => ((await of('booking_conferencing_sessions', bookingUid).execute()) as Selectable<BookingConferencingSessionsTable>[]).map(toSession),
    addReference: async (r) => {
      const written = { ...r, id: r.id ?? (await createIdSeriesStore(db).next('booking_references')) };
      await db
        .insertInto('booking_references')
        .values({ id: written.id, booking_uid: r.bookingUid, type: r.type, event_uid: r.eventUid, destination_calendar_id: r.destinationCalendarId, created_at: r.createdAt })
        .execute();
      return written;
    },
    addRecording: async (r) => {
      const written = { ...r, id: r.id ?? randomId() };
      return unlessTaken(
        () =>
          db
            .insertInto('booking_recordings')
            .values({
              id: written.id,
              booking_uid: r.bookingUid,
              room_name: r.roomName,
              start_ts: r.startTs,
              status: r.status,
              max_participants: r.maxParticipants,
              duration: r.duration,
              share_token: r.shareToken,
              download_link: r.downloadLink,
              error: r.error,
              created_at: r.createdAt,
            })
            .execute(),
        written,
      );
    },
    addTranscript: async (t) => {
      const written = { ...t, id: t.id ?? randomId() };
      await db.insertInto('booking_transcripts').values({ id: written.id, booking_uid: t.bookingUid, url: t.url, created_at: t.createdAt }).execute();
      return written;
    },
    addSession: async (s) => {
      const written = { ...s, id: s.id ?? randomId() };
      return unlessTaken(
        () =>
          db
            .insertInto('booking_conferencing_sessions')
            .values({
              id: written.id,
              booking_uid: s.bookingUid,
              room: s.room,
              start_time: s.startTime,
              duration: s.duration,
              ongoing: s.ongoing ? 1 : 0,
              max_participants: s.maxParticipants,
              participants: JSON.stringify(s.participants),
              created_at: s.createdAt,
            })
            .execute(),
        written,
      );
    },
  };
}

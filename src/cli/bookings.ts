// gatehouse bookings add-reference|add-recording|add-transcript|add-session
// (docs/integrating.md#provider-records): Gatehouse runs no calendar or video service, so what
// one reports of a booking (its calendar event, its meeting's recordings, transcripts and
// sessions) is recorded here by an operator or a script, and the /v2 booking routes answer it.
import type { Command } from 'commander';
import {
  recordRecording,
  recordReference,
  recordSession,
  recordTranscript,
  type BookingReference,
  type ConferencingSession,
  type Recording,
  type Transcript,
} from '../platform/bookings/service.ts';
import { CliError } from './output.ts';
import { jsonOption, type CliRuntime } from './runtime.ts';

/** Seconds since the epoch, as video providers count, from an ISO 8601 time or a number of seconds. */
function seconds(value: string, option: string): number {
  if (/^\d+$/.test(value)) return Number(value);
  const ms = Date.parse(value);
  if (Number.isNaN(ms) || !/^\d{4}-\d{2}-\d{2}T/.test(value)) throw new CliError(`${option}: give an ISO 8601 time (2030-01-31T09:00:00Z) or seconds since 1970`);
  return Math.floor(ms / 1000);
}

function whole(value: string, option: string): number {
  if (!/^\d+$/.test(value)) throw new CliError(`${option}: give a whole number, 0 or more`);
  return Number(value);
}

function participants(value: string | undefined): unknown {
  if (value === undefined) return undefined;
  try {
    return JSON.parse(value);
  } catch {
    throw new CliError('--participants: give a JSON list, e.g. \'[{"userId":"u1","userName":"Ann","joinTime":1700000000,"duration":1800}]\'');
  }
}

const referenceJson = (r: BookingReference) => ({ id: r.id, booking_uid: r.bookingUid, type: r.type, event_uid: r.eventUid, destination_calendar_id: r.destinationCalendarId });
const recordingJson = (r: Recording) => ({
  id: r.id,
  booking_uid: r.bookingUid,
  room_name: r.roomName,
  start_ts: r.startTs,
  status: r.status,
  duration: r.duration,
  max_participants: r.maxParticipants,
  download_link: r.downloadLink,
  error: r.error,
});
const transcriptJson = (t: Transcript) => ({ id: t.id, booking_uid: t.bookingUid, url: t.url });
const sessionJson = (s: ConferencingSession) => ({ id: s.id, booking_uid: s.bookingUid, room: s.room, start_time: s.startTime, duration: s.duration, ongoing: s.ongoing, max_participants: s.maxParticipants, participants: s.participants.length });

export function registerBookingCommands(program: Command, runtime: CliRuntime): void {
  const bookings = program.command('bookings').description("record what outside calendars and video services report of a booking (Gatehouse runs none): the /v2 booking routes answer it");
  bookings
    .command('add-reference')
    .description("record a booking's event in an outside calendar or video service (GET /v2/bookings/:uid/references)")
    .requiredOption('--booking <uid>', 'the booking')
    .requiredOption('--type <type>', 'the provider, e.g. google_calendar, office365_calendar, daily_video, zoom_video')
    .requiredOption('--event-uid <id>', "the event's id at the provider")
    .option('--calendar <id>', 'the id of the calendar the event is in')
    .addOption(jsonOption())
    .action(async (opts: { booking: string; type: string; eventUid: string; calendar?: string; json?: boolean }) => {
      const r = await runtime.withServices((s) => recordReference(s, { bookingUid: opts.booking, type: opts.type, eventUid: opts.eventUid, ...(opts.calendar !== undefined ? { destinationCalendarId: opts.calendar } : {}) }));
      runtime.emit(!!opts.json, referenceJson(r), () => `recorded ${r.type} reference ${r.id} of booking ${r.bookingUid}`);
    });
  bookings
    .command('add-recording')
    .description("record a recording of a booking's meeting (GET /v2/bookings/:uid/recordings)")
    .requiredOption('--booking <uid>', 'the booking')
    .requiredOption('--room <name>', 'the video room it was made in')
    .requiredOption('--start <time>', 'when it started: ISO 8601, or seconds since 1970')
    .requiredOption('--duration <seconds>', 'how long it lasts, in seconds')
    .requiredOption('--share-token <token>', "the provider's token to share it")
    .option('--id <id>', "the provider's id of the recording (a new one when left out)")
    .option('--status <status>', 'as the provider reports it', 'completed')
    .option('--download-link <url>', 'where it can be downloaded')
    .option('--max-participants <n>', 'the most participants at once')
    .option('--error <text>', 'what went wrong, when the provider reports an error')
    .addOption(jsonOption())
    .action(async (opts: { booking: string; room: string; start: string; duration: string; shareToken: string; id?: string; status: string; downloadLink?: string; maxParticipants?: string; error?: string; json?: boolean }) => {
      const input = {
        bookingUid: opts.booking,
        roomName: opts.room,
        startTs: seconds(opts.start, '--start'),
        duration: whole(opts.duration, '--duration'),
        shareToken: opts.shareToken,
        status: opts.status,
        ...(opts.id !== undefined ? { id: opts.id } : {}),
        ...(opts.downloadLink !== undefined ? { downloadLink: opts.downloadLink } : {}),
        ...(opts.maxParticipants !== undefined ? { maxParticipants: whole(opts.maxParticipants, '--max-participants') } : {}),
        ...(opts.error !== undefined ? { error: opts.error } : {}),
      };
      const r = await runtime.withServices((s) => recordRecording(s, input));
      runtime.emit(!!opts.json, recordingJson(r), () => `recorded recording ${r.id} of booking ${r.bookingUid}`);
    });
  bookings
    .command('add-transcript')
    .description("record the address of a transcript of a booking's meeting (GET /v2/bookings/:uid/transcripts)")
    .requiredOption('--booking <uid>', 'the booking')
    .requiredOption('--url <url>', "the transcript's address")
    .addOption(jsonOption())
    .action(async (opts: { booking: string; url: string; json?: boolean }) => {
      const t = await runtime.withServices((s) => recordTranscript(s, { bookingUid: opts.booking, url: opts.url }));
      runtime.emit(!!opts.json, transcriptJson(t), () => `recorded transcript ${t.id} of booking ${t.bookingUid}`);
    });
  bookings
    .command('add-session')
    .description("record a video session of a booking's meeting and who joined (GET /v2/bookings/:uid/conferencing-sessions)")
    .requiredOption('--booking <uid>', 'the booking')
    .requiredOption('--room <name>', 'the video room')
    .requiredOption('--start <time>', 'when it started: ISO 8601, or seconds since 1970')
    .requiredOption('--duration <seconds>', 'how long it lasted, in seconds')
    .requiredOption('--max-participants <n>', 'the most participants at once')
    .option('--id <id>', "the provider's id of the session (a new one when left out)")
    .option('--ongoing', 'the session is still going on')
    .option('--participants <json>', 'who joined: a JSON list of {userId, userName, joinTime, duration}')
    .addOption(jsonOption())
    .action(async (opts: { booking: string; room: string; start: string; duration: string; maxParticipants: string; id?: string; ongoing?: boolean; participants?: string; json?: boolean }) => {
      const input = {
        bookingUid: opts.booking,
        room: opts.room,
        startTime: seconds(opts.start, '--start'),
        duration: whole(opts.duration, '--duration'),
        maxParticipants: whole(opts.maxParticipants, '--max-participants'),
        ongoing: !!opts.ongoing,
        participants: participants(opts.participants),
        ...(opts.id !== undefined ? { id: opts.id } : {}),
      };
      const s = await runtime.withServices((services) => recordSession(services, input));
      runtime.emit(!!opts.json, sessionJson(s), () => `recorded session ${s.id} of booking ${s.bookingUid} (${s.participants.length} participants)`);
    });
}

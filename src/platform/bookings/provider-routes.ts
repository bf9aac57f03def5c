// What outside calendars and video report of a booking (docs/integrating.md#provider-records),
// at Cal.com API v2's addresses: its calendar events (references), recordings, transcripts and
// conferencing sessions. Gatehouse runs no such provider: these are what an operator recorded,
// an empty list when nothing was. The host reads their own bookings' (docs/rules.md#membership-rules);
// a team's members read the team's bookings' references.
import type { PlatformDeps } from '../deps.ts';
import { route, type HandlerMap } from '../handler.ts';
import { bookingRecordings, bookingReferences, bookingSessions, bookingTranscripts } from './service.ts';
import { arrayOf, nullable, numberedId, object, str } from '../schemas.ts';
import { PROVIDER_LIST_MAX, type BookingReference, type ConferencingSession, type Recording } from './provider-records.ts';
import type { BookingScope } from './store.ts';

type Uid = { bookingUid: string };
const text = { type: 'string' };
const num = { type: 'number' };

const referenceView = object(
  { id: numberedId, type: { ...text, description: 'The provider, e.g. google_calendar or daily_video' }, eventUid: { ...text, description: "The event's id at the provider" }, destinationCalendarId: nullable(text) },
  ['id', 'type', 'eventUid', 'destinationCalendarId'],
);
const reference = (r: BookingReference) => ({ id: r.id, type: r.type, eventUid: r.eventUid, destinationCalendarId: r.destinationCalendarId });

const recordingView = object(
  {
    id: text,
    roomName: text,
    startTs: { ...num, description: 'Seconds since the epoch' },
    status: text,
    maxParticipants: num,
    duration: { ...num, description: 'Seconds' },
    shareToken: text,
    downloadLink: nullable(text),
    error: nullable(text),
  },
  ['id', 'roomName', 'startTs', 'status', 'duration', 'shareToken', 'downloadLink', 'error'],
);
const recording = (r: Recording) => ({
  id: r.id,
  roomName: r.roomName,
  startTs: r.startTs,
  status: r.status,
  ...(r.maxParticipants !== null ? { maxParticipants: r.maxParticipants } : {}),
  duration: r.duration,
  shareToken: r.shareToken,
  downloadLink: r.downloadLink,
  error: r.error,
});

const participantView = object({ userId: nullable(text), userName: nullable(text), joinTime: num, duration: num }, ['userId', 'userName', 'joinTime', 'duration']);
const sessionView = object(
  { id: text, room: text, startTime: { ...num, description: 'Seconds since the epoch' }, duration: { ...num, description: 'Seconds' }, ongoing: { type: 'boolean' }, maxParticipants: num, participants: arrayOf(participantView, 0, 1000) },
  ['id', 'room', 'startTime', 'duration', 'ongoing', 'maxParticipants', 'participants'],
);
const session = (s: ConferencingSession) => ({ id: s.id, room: s.room, startTime: s.startTime, duration: s.duration, ongoing: s.ongoing, maxParticipants: s.maxParticipants, participants: s.participants });

const referenceQuery = object({ type: str(1, 100, { description: "Only the references of this provider, e.g. google_calendar" }) });

export function providerHandlers(deps: PlatformDeps): HandlerMap {
  const s = deps.services;
  const references = (scopeOf: (call: { userId: string; facts: { team?: { id: string } | null } }) => BookingScope) =>
    route<unknown, { type?: string }, Uid>({
      query: referenceQuery,
      data: arrayOf(referenceView, 0, PROVIDER_LIST_MAX),
      handle: async (call) => (await bookingReferences(s, scopeOf(call), call.params.bookingUid, call.query.type)).map(reference),
    });
  return {
    'bookings.references': references((call) => ({ userId: call.userId })),
    'teamBookings.references': references((call) => ({ teamId: call.facts.team!.id })),
    'bookings.recordings': route<unknown, unknown, Uid>({
      data: arrayOf(recordingView, 0, PROVIDER_LIST_MAX),
      handle: async ({ userId, params }) => (await bookingRecordings(s, { userId }, params.bookingUid)).map(recording),
    }),
    'bookings.transcripts': route<unknown, unknown, Uid>({
      data: arrayOf({ ...text, format: 'uri', description: "A transcript's address" }, 0, PROVIDER_LIST_MAX),
      handle: async ({ userId, params }) => bookingTranscripts(s, { userId }, params.bookingUid),
    }),
    'bookings.conferencingSessions': route<unknown, unknown, Uid>({
      data: arrayOf(sessionView, 0, PROVIDER_LIST_MAX),
      handle: async ({ userId, params }) => (await bookingSessions(s, { userId }, params.bookingUid)).map(session),
    }),
  };
}

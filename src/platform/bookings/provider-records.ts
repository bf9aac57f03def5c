// What the calendar and video providers of a booking report about it: its events in outside
// calendars (references), and its meeting's recordings, transcripts and sessions. Gatehouse runs
// no such provider: an operator records them (`gatehouse bookings add-…`,
// docs/integrating.md#provider-records), and the platform's /v2 routes read them back, an empty
// list when none is recorded. The store (ApiStores.bookingProviders) lives here, beside the rules
// that write it, which the CLI reaches through service.ts; src/storage/stores/platform/booking-provider-records.ts
// implements it.
import { conflict, hasControlCharacters, notFound, validation } from '../authorization-server.ts';
import type { PlatformContext } from '../stores.ts';

/** The most of each kind a booking lists. */
export const PROVIDER_LIST_MAX = 100;

export interface BookingReference {
  id: string;
  bookingUid: string;
  /** The provider, e.g. google_calendar, office365_calendar, daily_video, zoom_video. */
  type: string;
  /** The event's id at the provider. */
  eventUid: string;
  destinationCalendarId: string | null;
  createdAt: number;
}

export interface Recording {
  id: string;
  bookingUid: string;
  roomName: string;
  /** Seconds since the epoch, as video providers report it. */
  startTs: number;
  status: string;
  maxParticipants: number | null;
  /** Seconds. */
  duration: number;
  shareToken: string;
  downloadLink: string | null;
  error: string | null;
  createdAt: number;
}

export interface Transcript {
  id: string;
  bookingUid: string;
  url: string;
  createdAt: number;
}

export interface SessionParticipant {
  userId: string | null;
  userName: string | null;
  /** Seconds since the epoch. */
  joinTime: number;
  /** Seconds. */
  duration: number;
}

export interface ConferencingSession {
  id: string;
  bookingUid: string;
  room: string;
  /** Seconds since the epoch. */
  startTime: number;
  /** Seconds. */
  duration: number;
  ongoing: boolean;
  maxParticipants: number;
  participants: SessionParticipant[];
  createdAt: number;
}

/** A record to write: the store gives it its id unless the provider's own is given. */
export type New<T extends { id: string }> = Omit<T, 'id'> & { id?: string };

export interface BookingProviderStore {
  /** Whether a booking of that uid exists, whoever's it is. */
  bookingExists(bookingUid: string): Promise<boolean>;
  /** The booking's references, oldest first (ties by id), only those of `type` when given; at most PROVIDER_LIST_MAX. */
  references(bookingUid: string, type?: string): Promise<BookingReference[]>;
  recordings(bookingUid: string): Promise<Recording[]>;
  transcripts(bookingUid: string): Promise<Transcript[]>;
  sessions(bookingUid: string): Promise<ConferencingSession[]>;
  /** Each writes one and returns it; a recording or session whose provider id is taken is undefined. */
  addReference(reference: New<BookingReference>): Promise<BookingReference>;
  addRecording(recording: New<Recording>): Promise<Recording | undefined>;
  addTranscript(transcript: New<Transcript>): Promise<Transcript>;
  addSession(session: New<ConferencingSession>): Promise<ConferencingSession | undefined>;
}

/** One line of text of at most `max` characters, or a refusal naming the field. */
function line(value: string, field: string, max: number): string {
  const v = value.trim();
  if (v === '' || v.length > max || hasControlCharacters(v)) throw validation(`${field}: must be one line of 1 to ${max} characters`, field);
  return v;
}

function httpUrl(value: string, field: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw validation(`${field}: must be an absolute https:// or http:// address`, field);
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || value.length > 2000) throw validation(`${field}: must be an absolute https:// or http:// address of at most 2000 characters`, field);
  return value;
}

function count(value: number, field: string): number {
  if (!Number.isSafeInteger(value) || value < 0) throw validation(`${field}: must be a whole number, 0 or more`, field);
  return value;
}

function taken<T>(what: string, id: string | undefined, written: T | undefined): T {
  if (written === undefined) throw conflict(`id: a ${what} of id ${id} is already recorded`, 'id');
  return written;
}

async function requireBooking(ctx: PlatformContext, bookingUid: string): Promise<void> {
  if (!(await ctx.stores.api.bookingProviders.bookingExists(bookingUid))) throw notFound(`no booking has the uid ${bookingUid}`);
}

export async function recordReference(ctx: PlatformContext, input: { bookingUid: string; type: string; eventUid: string; destinationCalendarId?: string }): Promise<BookingReference> {
  await requireBooking(ctx, input.bookingUid);
  return ctx.stores.api.bookingProviders.addReference({
    bookingUid: input.bookingUid,
    type: line(input.type, 'type', 100),
    eventUid: line(input.eventUid, 'eventUid', 500),
    destinationCalendarId: input.destinationCalendarId === undefined ? null : line(input.destinationCalendarId, 'destinationCalendarId', 500),
    createdAt: ctx.clock(),
  });
}

export interface RecordingInput {
  bookingUid: string;
  /** The provider's id of the recording; a new one when left out. */
  id?: string;
  roomName: string;
  startTs: number;
  status?: string;
  duration: number;
  shareToken: string;
  maxParticipants?: number;
  downloadLink?: string;
  error?: string;
}

export async function recordRecording(ctx: PlatformContext, input: RecordingInput): Promise<Recording> {
  await requireBooking(ctx, input.bookingUid);
  return taken('recording', input.id, await ctx.stores.api.bookingProviders.addRecording({
    ...(input.id !== undefined ? { id: line(input.id, 'id', 200) } : {}),
    bookingUid: input.bookingUid,
    roomName: line(input.roomName, 'roomName', 200),
    startTs: count(input.startTs, 'startTs'),
    status: line(input.status ?? 'completed', 'status', 50),
    maxParticipants: input.maxParticipants === undefined ? null : count(input.maxParticipants, 'maxParticipants'),
    duration: count(input.duration, 'duration'),
    shareToken: line(input.shareToken, 'shareToken', 500),
    downloadLink: input.downloadLink === undefined ? null : httpUrl(input.downloadLink, 'downloadLink'),
    error: input.error === undefined ? null : line(input.error, 'error', 500),
    createdAt: ctx.clock(),
  }));
}

export async function recordTranscript(ctx: PlatformContext, input: { bookingUid: string; url: string }): Promise<Transcript> {
  await requireBooking(ctx, input.bookingUid);
  return ctx.stores.api.bookingProviders.addTranscript({ bookingUid: input.bookingUid, url: httpUrl(input.url, 'url'), createdAt: ctx.clock() });
}

export interface SessionInput {
  bookingUid: string;
  id?: string;
  room: string;
  startTime: number;
  duration: number;
  ongoing?: boolean;
  maxParticipants: number;
  participants?: unknown;
}

/** Participants as the provider lists them: {userId, userName, joinTime, duration}, ids and names null when unknown. */
function participantsOf(value: unknown): SessionParticipant[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.length > 1000) throw validation('participants: must be a list of at most 1000 {userId, userName, joinTime, duration}', 'participants');
  return value.map((p: Record<string, unknown>, i) => {
    const field = `participants[${i}]`;
    if (p === null || typeof p !== 'object') throw validation(`${field}: must be {userId, userName, joinTime, duration}`, field);
    const text = (v: unknown, name: string) => {
      if (v === undefined || v === null) return null;
      if (typeof v !== 'string') throw validation(`${field}.${name}: must be text or null`, `${field}.${name}`);
      return line(v, `${field}.${name}`, 200);
    };
    const num = (v: unknown, name: string) => count(typeof v === 'number' ? v : Number.NaN, `${field}.${name}`);
    return { userId: text(p.userId, 'userId'), userName: text(p.userName, 'userName'), joinTime: num(p.joinTime, 'joinTime'), duration: num(p.duration, 'duration') };
  });
}

export async function recordSession(ctx: PlatformContext, input: SessionInput): Promise<ConferencingSession> {
  await requireBooking(ctx, input.bookingUid);
  return taken('session', input.id, await ctx.stores.api.bookingProviders.addSession({
    ...(input.id !== undefined ? { id: line(input.id, 'id', 200) } : {}),
    bookingUid: input.bookingUid,
    room: line(input.room, 'room', 200),
    startTime: count(input.startTime, 'startTime'),
    duration: count(input.duration, 'duration'),
    ongoing: input.ongoing ?? false,
    maxParticipants: count(input.maxParticipants, 'maxParticipants'),
    participants: participantsOf(input.participants),
    createdAt: ctx.clock(),
  }));
}

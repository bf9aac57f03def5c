// How a booking and its attendees are answered, by every booking route and tool.
import { iso } from '../input.ts';
import { arrayOf, nullable, numberedId, object, type JsonSchema } from '../schemas.ts';
import type { Attendee } from './attendee-store.ts';
import type { Booking } from './store.ts';

export const STATUSES = ['pending', 'accepted', 'declined', 'cancelled', 'rescheduled'];

export const bookingView: JsonSchema = object(
  {
    id: numberedId,
    uid: { type: 'string' },
    title: { type: 'string' },
    description: { type: 'string' },
    start: { type: 'string' },
    end: { type: 'string' },
    durationInMinutes: { type: 'integer' },
    status: { type: 'string', enum: STATUSES },
    eventTypeId: nullable(numberedId),
    hostId: nullable(numberedId),
    teamId: nullable(numberedId),
    attendee: object({ name: { type: 'string' }, email: { type: 'string' }, timeZone: { type: 'string' } }, ['name', 'email', 'timeZone']),
    guests: arrayOf({ type: 'string' }, 0, 10),
    location: { type: 'string' },
    cancellationReason: nullable({ type: 'string' }),
    declineReason: nullable({ type: 'string' }),
    rescheduledFromUid: nullable({ type: 'string' }),
    rescheduledToUid: nullable({ type: 'string' }),
    absentHost: { type: 'boolean', description: 'Whether the host was marked absent (POST …/mark-absent)' },
    createdAt: { type: 'string' },
    updatedAt: { type: 'string' },
  },
  ['id', 'uid', 'title', 'start', 'end', 'status', 'attendee', 'guests', 'location'],
);

export function booking(b: Booking) {
  return {
    id: b.id,
    uid: b.uid,
    title: b.title,
    description: b.description,
    start: iso(b.start),
    end: iso(b.end),
    durationInMinutes: Math.round((b.end - b.start) / 60_000),
    status: b.status,
    eventTypeId: b.eventTypeId,
    hostId: b.hostId,
    teamId: b.teamId,
    attendee: b.attendee,
    guests: b.guests,
    location: b.location,
    cancellationReason: b.cancellationReason,
    declineReason: b.declineReason,
    rescheduledFromUid: b.rescheduledFrom,
    rescheduledToUid: b.rescheduledTo,
    absentHost: b.absentHost,
    createdAt: iso(b.createdAt),
    updatedAt: iso(b.updatedAt),
  };
}


/** The platform's languages of an attendee (Cal.com API v2's list). */
export const LANGUAGES = ['ar', 'ca', 'de', 'es', 'eu', 'he', 'id', 'ja', 'lv', 'pl', 'ro', 'sr', 'th', 'vi', 'az', 'cs', 'el', 'es-419', 'fi', 'hr', 'it', 'km', 'nl', 'pt', 'ru', 'sv', 'tr', 'zh-CN', 'bg', 'da', 'en', 'et', 'fr', 'hu', 'iw', 'ko', 'no', 'pt-BR', 'sk', 'ta', 'uk', 'zh-TW', 'bn'];

const text = { type: 'string' };

export const attendeeView: JsonSchema = object(
  {
    id: numberedId,
    bookingUid: text,
    name: { ...text, description: 'Empty for a guest, who is known by address only' },
    email: text,
    displayEmail: text,
    timeZone: text,
    language: { type: 'string', enum: LANGUAGES },
    phoneNumber: text,
    absent: { type: 'boolean' },
  },
  ['id', 'bookingUid', 'name', 'email', 'displayEmail', 'timeZone', 'absent'],
);

/** language and phoneNumber only when known, as the platform leaves them out. */
export const attendee = (a: Attendee) => ({
  id: a.id,
  bookingUid: a.bookingUid,
  name: a.name,
  email: a.email,
  displayEmail: a.email,
  timeZone: a.timeZone,
  ...(a.language !== null ? { language: a.language } : {}),
  ...(a.phoneNumber !== null ? { phoneNumber: a.phoneNumber } : {}),
  absent: a.absent,
});

/** A booking with its attendees, as mark-absent answers it: who was absent, host and attendees. */
export const bookingWithAttendeesView: JsonSchema = {
  ...bookingView,
  properties: { ...(bookingView.properties as object), attendees: arrayOf(attendeeView, 1, 100) },
  required: [...(bookingView.required as string[]), 'absentHost', 'attendees'],
};

// How a booking and its attendees are answered, by every booking route and tool.
import { namesDocumentedVersion, type VersionedCall } from '../api-versions.ts';
import { iso } from '../input.ts';
import { arrayOf, nullable, numberedId, object, type JsonSchema } from '../schemas.ts';
import type { Attendee } from './attendee-store.ts';
import type { Booking, BookingRelations, BookingStatus } from './store.ts';
import type { BookingsShown } from './service.ts';

/** Gatehouse's stored statuses, which the status filter of a list still takes. */
export const STATUSES = ['pending', 'accepted', 'declined', 'cancelled', 'rescheduled'];

/** The statuses an answer names, the platform's (BookingOutput_2024_08_13). */
export const ANSWERED_STATUSES = ['pending', 'accepted', 'rejected', 'cancelled'];

/**
 * docs/integrating.md#booking-statuses: a declined booking is the platform's rejected one, and
 * the booking a reschedule moved away from is cancelled there, its rescheduledToUid naming
 * the new one.
 */
const ANSWERED: Record<BookingStatus, string> = { pending: 'pending', accepted: 'accepted', declined: 'rejected', cancelled: 'cancelled', rescheduled: 'cancelled' };

const text = { type: 'string' };

/** The platform's languages of an attendee (Cal.com API v2's list). */
export const LANGUAGES = ['ar', 'ca', 'de', 'es', 'eu', 'he', 'id', 'ja', 'lv', 'pl', 'ro', 'sr', 'th', 'vi', 'az', 'cs', 'el', 'es-419', 'fi', 'hr', 'it', 'km', 'nl', 'pt', 'ru', 'sv', 'tr', 'zh-CN', 'bg', 'da', 'en', 'et', 'fr', 'hu', 'iw', 'ko', 'no', 'pt-BR', 'sk', 'ta', 'uk', 'zh-TW', 'bn'];

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

export const hostView: JsonSchema = object(
  { id: numberedId, name: text, email: text, displayEmail: text, username: text, timeZone: text },
  ['id', 'name', 'email', 'displayEmail', 'username', 'timeZone'],
);

export const bookingView: JsonSchema = object(
  {
    id: numberedId,
    uid: text,
    title: text,
    description: { ...text, description: "The booker's notes; empty when there are none" },
    hosts: arrayOf(hostView, 0, 1),
    status: {
      type: 'string',
      enum: [...new Set([...ANSWERED_STATUSES, ...STATUSES])],
      description: "With cal-api-version 2024-08-13 the platform's status (a declined booking is rejected, a rescheduled one cancelled); without it Gatehouse's own (docs/integrating.md#booking-statuses)",
    },
    cancellationReason: { ...nullable(text), description: 'With cal-api-version 2024-08-13 only when one was given (on a booking a reschedule moved away from, the reschedule\'s reason); without it, null when none was' },
    reschedulingReason: { ...text, description: 'Only on a booking a reschedule moved away from, when a reason was given' },
    rescheduledFromUid: { ...nullable(text), description: 'On a booking a reschedule made; as cancellationReason when there is none' },
    rescheduledToUid: { ...nullable(text), description: 'On a booking a reschedule moved away from; as cancellationReason when there is none' },
    start: text,
    end: text,
    duration: { type: 'integer', description: 'In minutes' },
    durationInMinutes: { type: 'integer', description: 'As duration' },
    eventTypeId: nullable(numberedId),
    eventType: nullable(object({ id: numberedId, slug: text }, ['id', 'slug'])),
    location: text,
    absentHost: { type: 'boolean', description: 'Whether the host was marked absent (POST …/mark-absent)' },
    createdAt: text,
    updatedAt: text,
    attendees: arrayOf(attendeeView, 0, 100),
    guests: arrayOf(text, 0, 10),
    bookingFieldsResponses: object(
      { name: text, email: text, guests: arrayOf(text, 0, 10), notes: text },
      ['name', 'email', 'guests'],
      {
        additionalProperties: { anyOf: [text, { type: 'number' }, { type: 'boolean' }, arrayOf(text, 0, 100)] },
        description: "The booking form's answers by slug (docs/integrating.md#booking-fields): the booker's name and address, the guests, the notes when given, and each other field answered",
      },
    ),
    hostId: nullable(numberedId),
    teamId: nullable(numberedId),
    attendee: object({ name: text, email: text, timeZone: text }, ['name', 'email', 'timeZone']),
    declineReason: nullable(text),
  },
  ['id', 'uid', 'title', 'description', 'hosts', 'status', 'start', 'end', 'duration', 'eventTypeId', 'eventType', 'location', 'absentHost', 'createdAt', 'updatedAt', 'attendees', 'bookingFieldsResponses', 'attendee', 'guests'],
);

/**
 * A booking as the caller's version reads it (docs/integrating.md#api-versions): the
 * platform's 2024-08-13 shape, or, without that version named, the same with Gatehouse's
 * stored status and explicit nulls, as its answers were before.
 */
export function booking(b: Booking, rel: BookingRelations, documented: boolean) {
  const host = b.hostId === null ? undefined : rel.hosts.get(b.hostId);
  const duration = Math.round((b.end - b.start) / 60_000);
  return {
    id: b.id,
    uid: b.uid,
    title: b.title,
    description: b.description,
    hosts: host === undefined ? [] : [{ ...host, displayEmail: host.email }],
    status: documented ? ANSWERED[b.status] : b.status,
    ...(b.cancellationReason !== null || !documented ? { cancellationReason: b.cancellationReason } : {}),
    ...(b.status === 'rescheduled' && b.cancellationReason !== null ? { reschedulingReason: b.cancellationReason } : {}),
    ...(b.rescheduledFrom !== null || !documented ? { rescheduledFromUid: b.rescheduledFrom } : {}),
    ...(b.rescheduledTo !== null || !documented ? { rescheduledToUid: b.rescheduledTo } : {}),
    start: iso(b.start),
    end: iso(b.end),
    duration,
    durationInMinutes: duration,
    eventTypeId: b.eventTypeId,
    eventType: (b.eventTypeId !== null && rel.eventTypes.get(b.eventTypeId)) || null,
    location: b.location,
    absentHost: b.absentHost,
    createdAt: iso(b.createdAt),
    updatedAt: iso(b.updatedAt),
    attendees: (rel.attendees.get(b.uid) ?? []).map(attendee),
    guests: b.guests,
    bookingFieldsResponses: { ...b.responses, name: b.attendee.name, email: b.attendee.email, guests: b.guests, ...(b.description !== '' ? { notes: b.description } : {}) },
    hostId: b.hostId,
    teamId: b.teamId,
    attendee: b.attendee,
    declineReason: b.declineReason,
  };
}

/**
 * Which shape an answer takes: the call's version (docs/integrating.md#api-versions), or
 * always the documented one on the team and organization routes, which the platform does
 * not version.
 */
export type AnswerVersion = VersionedCall | 'documented';

/** The answers of these bookings, from their hosts, event types and attendees the service read with them. */
export function bookingAnswers({ bookings, relations }: BookingsShown, version: AnswerVersion) {
  const documented = version === 'documented' || namesDocumentedVersion(version, 'bookings');
  return bookings.map((b) => booking(b, relations, documented));
}

/** The answer of the one booking shown. */
export function bookingAnswer(shown: BookingsShown, version: AnswerVersion) {
  return bookingAnswers(shown, version)[0]!;
}

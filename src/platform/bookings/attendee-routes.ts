// A booking's attendees and who was absent (docs/integrating.md#booking-attendees), at Cal.com
// API v2's addresses: the host's own bookings only (docs/rules.md#membership-rules), another's
// booking being as unknown as a missing one.
import type { PlatformDeps } from '../deps.ts';
import { route, type HandlerMap } from '../handler.ts';
import { checkTimeZone } from '../input.ts';
import { findAttendee, listAttendees, shownOne } from './service.ts';
import { arrayOf, bool, email, numberedId, object, str, timeZone, withFields, type JsonSchema } from '../schemas.ts';
import { addAttendee, markAbsent, type AbsenceInput, type NewAttendeeInput } from './attendees.ts';
import { attendee, attendeeView, bookingAnswer, bookingView, LANGUAGES } from './views.ts';

type Uid = { bookingUid: string };

const newAttendee = object(
  {
    name: str(1, 100),
    email,
    timeZone,
    phoneNumber: str(1, 50, { description: 'In international format, e.g. +919876543210' }),
    language: { type: 'string', enum: LANGUAGES, description: 'The attendee’s language' },
  },
  ['name', 'email', 'timeZone'],
);

/** An added attendee, with the number of its booking as the platform's BookingAttendeeOutput has it. */
const addedView: JsonSchema = withFields(attendeeView, { bookingId: numberedId });

const absence = object(
  {
    host: { ...bool, description: 'Whether the host was absent' },
    attendees: arrayOf(object({ email, absent: bool }, ['email', 'absent']), 0, 100),
  },
  [],
  { description: 'Who was absent: the host, attendees by address, or both' },
);

export function attendeeHandlers(deps: PlatformDeps): HandlerMap {
  const s = deps.services;
  return {
    'bookings.attendees': route<unknown, unknown, Uid>({
      data: arrayOf(attendeeView, 0, 100),
      handle: async ({ userId, params }) => (await listAttendees(s, userId, params.bookingUid)).map(attendee),
    }),
    'bookings.attendee': route<unknown, unknown, Uid & { attendeeId: string }>({
      data: attendeeView,
      handle: async ({ userId, params }) => attendee(await findAttendee(s, userId, params.bookingUid, params.attendeeId)),
    }),
    'bookings.addAttendee': route<NewAttendeeInput, unknown, Uid>({
      body: newAttendee,
      data: addedView,
      status: 201,
      handle: async ({ userId, params, body }) => {
        checkTimeZone(body.timeZone, 'timeZone');
        const added = await addAttendee(s, userId, params.bookingUid, body);
        return { ...attendee(added.attendee), bookingId: added.bookingId };
      },
    }),
    'bookings.markAbsent': route<AbsenceInput, unknown, Uid>({
      body: absence,
      data: bookingView,
      handle: async ({ userId, params, body, request }) => bookingAnswer(await shownOne(s, await markAbsent(s, userId, params.bookingUid, body ?? {})), { request }),
    }),
  };
}

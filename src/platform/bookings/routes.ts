// Bookings: public create/cancel/reschedule (no token; cancel and reschedule with the
// booker's manageToken, docs/rules.md#public-booking), the host's own (BOOKING_*), a team's
// (TEAM_BOOKING_*) and an organization's (ORG_BOOKING_*).
import type { FastifyRequest } from 'fastify';
import type { PlatformDeps } from '../deps.ts';
import { UNKNOWN_BOOKING } from '../access-check.ts';
import type { Booking, BookingFilter, BookingScope, StatusTerm } from './store.ts';
import {
  addGuests,
  book,
  bookingForTokenWrite,
  cancelBooking,
  changeLocation,
  eventTypeOf,
  findBooking,
  listBookings,
  listMemberBookings,
  reassignBooking,
  requireManageToken,
  rescheduleBooking,
  shownOne,
  transitionBooking,
  type Booked,
  type NewBooking,
} from './service.ts';
import { limitPublicWrite, type PublicWriter } from './public-limits.ts';
import { calendarLinks } from './calendar-links.ts';
import { bookingAnswer, bookingAnswers, bookingView, STATUSES, type AnswerVersion } from './views.ts';
import { attendeeHandlers } from './attendee-routes.ts';
import { providerHandlers } from './provider-routes.ts';
import { guestEmail, guestInput, locationInput, locationText, type GuestInput, type LocationInput } from './requests.ts';
import { accessError, credentialsOf } from '../guard.ts';
import { page, route, type ApiCall, type HandlerMap } from '../handler.ts';
import { checkTimeZone, invalid, toMillis } from '../input.ts';
import { arrayOf, dateTime, email, int, listQuery, nullable, numberedId, numberedIdInput, object, str, timeZone, withFields, type JsonSchema, type ListQuery } from '../schemas.ts';

/** The answer to a booking's creation: the booking, and once only, its manageToken. */
const createdView: JsonSchema = withFields(bookingView, {
  manageToken: { type: 'string', description: "The secret of the booker's confirmation link, shown only here: cancel and reschedule without an access token need it (docs/rules.md#public-booking)." },
});
/** What the booking service takes: the platform's context as the routes are handed it. */
type PlatformContext = PlatformDeps['services'];

const created = async (ctx: PlatformContext, { booking: b, manageToken }: Booked, version: AnswerVersion) => ({ ...bookingAnswer(await shownOne(ctx, b), version), manageToken });
/** The answer of a booking the service found or changed. */
const answer = async (ctx: PlatformContext, b: Booking, version: AnswerVersion) => bookingAnswer(await shownOne(ctx, b), version);

/**
 * docs/integrating.md#booking-statuses: the status filter's names, Gatehouse's stored statuses
 * and the platform's. The platform's upcoming and past are the bookings that still hold time
 * (pending or accepted) ending after or before now, unconfirmed the upcoming pending ones,
 * rejected the declined ones; Gatehouse has no recurring bookings, so recurring finds none.
 */
const PLATFORM_STATUSES = ['upcoming', 'past', 'unconfirmed', 'recurring', 'rejected'];
function statusTerm(name: string, now: number): StatusTerm {
  switch (name) {
    case 'upcoming':
      return { statuses: ['pending', 'accepted'], endsFrom: now };
    case 'past':
      return { statuses: ['pending', 'accepted'], endsBefore: now };
    case 'unconfirmed':
      return { statuses: ['pending'], endsFrom: now };
    case 'recurring':
      return { statuses: [] };
    case 'rejected':
      return { statuses: ['declined'] };
    default:
      if (!STATUSES.includes(name)) throw invalid('status', `"${name}" is not a status; use ${[...STATUSES, ...PLATFORM_STATUSES].join(', ')}, several separated by commas`);
      return { statuses: [name as StatusTerm['statuses'][number]] };
  }
}

/**
 * The filters every booking list takes. `status` comes as the platform documents it (names
 * separated by commas) or repeated, as its own clients send an array (`status=upcoming&status=past`).
 */
const filterFields = {
  status: {
    type: ['string', 'array'],
    maxLength: 200,
    items: { type: 'string', maxLength: 200 },
    maxItems: 10,
    description: `One or more, separated by commas or repeated: ${[...STATUSES, ...PLATFORM_STATUSES].join(', ')} (docs/integrating.md#booking-statuses)`,
  },
  afterStart: dateTime,
  beforeEnd: dateTime,
};
const listFilters = listQuery(filterFields);
interface ListFilters extends ListQuery {
  status?: string | string[];
  afterStart?: string;
  beforeEnd?: string;
}
const statusNames = (status: string | string[]) => [...new Set([status].flat().flatMap((s) => s.split(',')).map((n) => n.trim()))];
const filterOf = (q: ListFilters, now: number): BookingFilter => ({
  ...(q.status !== undefined ? { status: statusNames(q.status).map((n) => statusTerm(n, now)) } : {}),
  ...(q.afterStart !== undefined ? { afterStart: toMillis(q.afterStart, 'afterStart') } : {}),
  ...(q.beforeEnd !== undefined ? { beforeEnd: toMillis(q.beforeEnd, 'beforeEnd') } : {}),
});

/**
 * What the platform documents for a member's bookings (OrganizationsUsersBookingsController)
 * beyond what Gatehouse filters by: each is refused by name, never dropped, since a list that
 * ignored a filter would answer bookings the caller asked to leave out.
 */
const UNSUPPORTED_MEMBER_FILTERS = [
  'attendeeEmail',
  'attendeeName',
  'bookingUid',
  'eventTypeIds',
  'eventTypeId',
  'teamsIds',
  'teamId',
  'afterCreatedAt',
  'beforeCreatedAt',
  'afterUpdatedAt',
  'beforeUpdatedAt',
  'sortEnd',
  'sortCreated',
  'sortUpdatedAt',
] as const;
const SUPPORTED_MEMBER_FILTERS = 'status, afterStart, beforeEnd, sortStart=asc, take and skip';
const memberListFilters = listQuery({
  ...filterFields,
  sortStart: { type: 'string', enum: ['asc', 'desc'], description: 'asc only: the bookings come by start time, earliest first; desc is refused' },
  ...Object.fromEntries(UNSUPPORTED_MEMBER_FILTERS.map((name) => [name, { type: 'string', maxLength: 1000, description: `The platform's filter, not supported: refused with 400 naming it (Gatehouse takes ${SUPPORTED_MEMBER_FILTERS})` }])),
});
type MemberListFilters = ListFilters & { sortStart?: 'asc' | 'desc' } & Partial<Record<(typeof UNSUPPORTED_MEMBER_FILTERS)[number], string>>;

function refuseUnsupportedFilters(q: MemberListFilters): void {
  const named = UNSUPPORTED_MEMBER_FILTERS.find((name) => q[name] !== undefined);
  if (named !== undefined) throw invalid(named, `is not supported: a member's bookings are filtered by ${SUPPORTED_MEMBER_FILTERS} only`);
  if (q.sortStart === 'desc') throw invalid('sortStart', 'only asc is supported: the bookings come by start time, earliest first');
}

/** The platform's ReassignBookingOutput's data ({bookingId, reassignedTo}), beside the booking as it now is. */
const reassignedView: JsonSchema = withFields(bookingView, {
  bookingId: { ...numberedId, description: 'As id' },
  reassignedTo: { ...nullable(object({ id: numberedId, name: { type: 'string' }, email: { type: 'string' }, displayEmail: { type: 'string' } }, ['id', 'name', 'email', 'displayEmail'])), description: 'The new host; null only if their account is gone' },
});
async function reassigned(ctx: PlatformContext, b: Booking, version: AnswerVersion) {
  const shown = await answer(ctx, b, version);
  const host = shown.hosts[0];
  return { ...shown, bookingId: b.id, reassignedTo: host === undefined ? null : { id: host.id, name: host.name, email: host.email, displayEmail: host.displayEmail } };
}

/**
 * A new booking in Gatehouse's words ({eventTypeId, start, attendee, guests, location, notes})
 * or in Cal.com API v2's (CreateBookingInput_2024_08_13): the event type by id or by slug with
 * its owner's username or team slug, guests and location as objects, the answers to its
 * booking fields as bookingFieldsResponses, a deprecated meetingUrl, a lengthInMinutes. The
 * platform's fields Gatehouse keeps nothing of (metadata, routing, emailVerificationCode, an
 * attendee's phoneNumber and language) are dropped as every unknown field is.
 */
const newBooking = object(
  {
    eventTypeId: { ...numberedIdInput, description: 'The event type; or eventTypeSlug with username (or teamSlug)' },
    eventTypeSlug: str(1, 100),
    username: str(1, 100),
    teamSlug: str(1, 100),
    organizationSlug: str(1, 100),
    start: dateTime,
    attendee: object({ name: str(1, 100), email, timeZone, phoneNumber: str(0, 50), language: str(0, 10) }, ['name', 'email', 'timeZone']),
    guests: arrayOf(guestInput, 0, 10),
    location: locationInput,
    meetingUrl: { ...str(1, 500), deprecated: true, description: 'Read as location when no location is sent' },
    lengthInMinutes: int(1, 1440),
    notes: str(0, 2000),
    bookingFieldsResponses: object({ notes: str(0, 2000) }, [], {
      additionalProperties: true,
      maxProperties: 60,
      description: "The answers to the event type's booking fields, keyed by their slugs: its custom fields, title and notes (docs/integrating.md#booking-fields)",
    }),
    privateLink: str(1, 64, { pattern: '^[0-9A-Za-z]+$' }),
    reservationUid: str(1, 64, { pattern: '^[0-9A-Za-z]+$', description: 'The uid of your hold on this slot (POST /v2/slots/reservations): a held slot is booked only with it' }),
  },
  ['start', 'attendee'],
);
interface NewBookingBody {
  eventTypeId?: string;
  eventTypeSlug?: string;
  username?: string;
  teamSlug?: string;
  organizationSlug?: string;
  start: string;
  attendee: { name: string; email: string; timeZone: string };
  guests?: GuestInput[];
  location?: LocationInput;
  meetingUrl?: string;
  lengthInMinutes?: number;
  notes?: string;
  bookingFieldsResponses?: Record<string, unknown>;
  privateLink?: string;
  reservationUid?: string;
}

/** One validated form of both requests: the event type found, guests as addresses; the answers are the service's to read. */
async function toNewBooking(ctx: PlatformContext, body: NewBookingBody): Promise<NewBooking> {
  checkTimeZone(body.attendee.timeZone, 'attendee.timeZone');
  const location = body.location ?? body.meetingUrl;
  const { name, email: address, timeZone: zone } = body.attendee;
  return {
    eventTypeId: await eventTypeOf(ctx, body),
    start: toMillis(body.start, 'start'),
    attendee: { name, email: address, timeZone: zone },
    ...(body.guests !== undefined ? { guests: body.guests.map(guestEmail) } : {}),
    ...(location !== undefined ? { location } : {}),
    ...(body.lengthInMinutes !== undefined ? { lengthInMinutes: body.lengthInMinutes } : {}),
    ...(body.notes !== undefined ? { notes: body.notes } : {}),
    ...(body.bookingFieldsResponses !== undefined ? { responses: body.bookingFieldsResponses } : {}),
    ...(body.privateLink !== undefined ? { privateLink: body.privateLink } : {}),
    ...(body.reservationUid !== undefined ? { reservationUid: body.reservationUid } : {}),
  };
}

const reason = (field: string) => object({ [field]: str(1, 500) });
type Uid = { bookingUid: string };

/** docs/rules.md#public-booking: the booker's proof on the public writes; absent when an access token acts. */
const manageToken = str(1, 200);
interface BookerProof {
  manageToken?: string;
}

/** Whose bookings a list route reads, from the call's user or the guard's facts. */
type ScopeOf = (call: { userId: string; facts: { team?: { id: string } | null; organization?: { id: string } | null } }) => BookingScope;

export function bookingHandlers(deps: PlatformDeps): HandlerMap {
  const s = deps.services;

  /**
   * Who may cancel or reschedule through the public routes (docs/rules.md#public-booking): the holder of
   * the booking's manageToken, which needs no scope whatever token comes beside it; else an
   * access token with the booking write scope of the booking's family. The uid alone, which
   * every reader of bookings sees, is not enough. Resolves with the booking it opened.
   */
  const actForBooker = async ({ params, body, principal, request, resource }: ApiCall<BookerProof, unknown, Uid>): Promise<Booking> => {
    if (body.manageToken !== undefined) return requireManageToken(s, params.bookingUid, body.manageToken);
    if (principal === undefined) {
      throw invalid('manageToken', 'is required: send the manageToken returned when the booking was made, or an access token with the booking write scope');
    }
    const found = await bookingForTokenWrite(s, params.bookingUid, credentialsOf(request, resource), resource);
    if (found === undefined) throw accessError(UNKNOWN_BOOKING, resource);
    if (!('ok' in found.decision)) throw accessError(found.decision, resource);
    return found.booking;
  };

  const load = (scope: BookingScope, uid: string) => findBooking(s, scope, uid);
  // The platform versions its personal bookings only; team and organization lists answer its documented shape.
  const list = (scope: ScopeOf, version: (call: { request?: FastifyRequest }) => AnswerVersion = (call) => call) =>
    route<unknown, ListFilters>({
      query: listFilters,
      data: arrayOf(bookingView, 0, 100),
      paged: true,
      handle: async (call) => {
        const { limit, offset } = call.query;
        const filter = filterOf(call.query, s.clock());
        const found = await listBookings(s, scope(call), filter, limit, offset);
        return page(bookingAnswers(found, version(call)), found.total, limit, offset);
      },
    });

  return {
    ...publicBookingRoutes(deps, actForBooker),
    // The host's own bookings (docs/rules.md#membership-rules: personal routes act on the token's user only).
    'bookings.list': list((call) => ({ userId: call.userId })),
    'bookings.get': route<unknown, unknown, Uid>({ data: bookingView, handle: async ({ userId, params, request }) => answer(s, await load({ userId }, params.bookingUid), { request }) }),
    'bookings.calendarLinks': route<unknown, unknown, Uid>({
      data: arrayOf(object({ id: { type: 'string', enum: ['google', 'outlook', 'office365', 'yahoo', 'ics'] }, label: { type: 'string' }, link: { type: 'string' } }, ['id', 'label', 'link']), 5, 5),
      handle: async ({ userId, params }) => calendarLinks(await load({ userId }, params.bookingUid), s.clock()),
    }),
    ...hostBookingChanges(deps),
    ...attendeeHandlers(deps),
    ...providerHandlers(deps),
    // A team's bookings.
    'teamBookings.list': list((call) => ({ teamId: call.facts.team!.id }), () => 'documented'),
    'teamBookings.get': route<unknown, unknown, Uid>({ data: bookingView, handle: async ({ facts, params }) => answer(s, await load({ teamId: facts.team!.id }, params.bookingUid), 'documented') }),
    ...teamAndOrgBookingWrites(deps),
    // Everything in an organization: its teams' bookings and its members'.
    'orgBookings.list': list((call) => ({ organizationId: call.facts.organization!.id }), () => 'documented'),
    // One member's among them: what ORG_BOOKING_READ reaches, narrowed to the path's user.
    'orgUserBookings.list': route<unknown, MemberListFilters, { userId: string }>({
      query: memberListFilters,
      data: arrayOf(bookingView, 0, 100),
      paged: true,
      handle: async ({ facts, params, query }) => {
        refuseUnsupportedFilters(query);
        const { limit, offset } = query;
        const found = await listMemberBookings(s, facts.organization!.id, params.userId, filterOf(query, s.clock()), limit, offset);
        return page(bookingAnswers(found, 'documented'), found.total, limit, offset);
      },
    }),
  };
}

/**
 * Public (docs/rules.md#public-booking): anyone books; the booker (or a token that may) cancels and
 * reschedules. Without an access token each write counts toward the limits of its caller's
 * address and of its event type (public-limits.ts, docs/rules.md#rate-limits).
 */
function publicBookingRoutes(deps: PlatformDeps, actForBooker: (call: ApiCall<BookerProof, unknown, Uid>) => Promise<Booking>): HandlerMap {
  const s = deps.services;
  const writer = (call: ApiCall<unknown, unknown, unknown>): PublicWriter => ({ authorized: call.principal !== undefined, ip: call.request.ip, tell: call.setHeaders });
  return {
    'bookings.create': route<NewBookingBody>({
      body: newBooking,
      data: createdView,
      status: 201,
      noStore: true,
      rateLimited: true,
      handle: async (call) => {
        const input = await toNewBooking(s, call.body);
        return created(s, await limitPublicWrite(deps, writer(call), input.eventTypeId, () => book(s, input)), call);
      },
    }),
    'bookings.cancel': route<{ cancellationReason?: string } & BookerProof, unknown, Uid>({
      body: object({ cancellationReason: str(1, 500), manageToken }),
      data: bookingView,
      rateLimited: true,
      handle: async (call) => {
        const { eventTypeId } = await actForBooker(call);
        const cancelled = await limitPublicWrite(deps, writer(call), eventTypeId, () => cancelBooking(s, call.params.bookingUid, call.body.cancellationReason));
        return answer(s, cancelled, call);
      },
    }),
    'bookings.reschedule': route<{ start: string; reschedulingReason?: string } & BookerProof, unknown, Uid>({
      body: object({ start: dateTime, reschedulingReason: str(1, 500), manageToken }, ['start']),
      data: bookingView,
      status: 201,
      rateLimited: true,
      handle: async (call) => {
        const { eventTypeId } = await actForBooker(call);
        const start = toMillis(call.body.start, 'start');
        const moved = await limitPublicWrite(deps, writer(call), eventTypeId, () => rescheduleBooking(s, call.params.bookingUid, start, call.body.reschedulingReason));
        return answer(s, moved, call);
      },
    }),
  };
}

/** The host changes their own booking: confirm, decline, guests, location, host. */
function hostBookingChanges(deps: PlatformDeps): HandlerMap {
  const s = deps.services;
  return {
    'bookings.confirm': route<unknown, unknown, Uid>({
      data: bookingView,
      handle: async ({ userId, params, request }) => answer(s, await transitionBooking(s, params.bookingUid, ['pending'], 'accepted', {}, { userId }), { request }),
    }),
    'bookings.decline': route<{ reason?: string }, unknown, Uid>({
      body: reason('reason'),
      data: bookingView,
      handle: async ({ userId, params, body, request }) => answer(s, await transitionBooking(s, params.bookingUid, ['pending'], 'declined', { declineReason: body?.reason ?? null }, { userId }), { request }),
    }),
    'bookings.addGuests': route<{ guests: GuestInput[] }, unknown, Uid>({
      body: object({ guests: arrayOf(guestInput, 1, 10) }, ['guests']),
      data: bookingView,
      handle: async ({ userId, params, body, request }) => answer(s, await addGuests(s, userId, params.bookingUid, body.guests.map(guestEmail)), { request }),
    }),
    'bookings.updateLocation': route<{ location: LocationInput }, unknown, Uid>({
      body: object({ location: locationInput }, ['location']),
      data: bookingView,
      handle: async ({ userId, params, body, request }) => answer(s, await changeLocation(s, userId, params.bookingUid, locationText(body.location, 'location')), { request }),
    }),
    // Without a userId (the platform's request has no body) the round-robin order picks the host.
    'bookings.reassign': route<{ userId?: string }, unknown, Uid>({
      body: object({ userId: { ...numberedIdInput, description: 'The new host; left out, the free member with the fewest upcoming team bookings' } }),
      data: reassignedView,
      handle: async ({ userId, params, body, request }) => reassigned(s, await reassignBooking(s, userId, params.bookingUid, body.userId), { request }),
    }),
    // The platform's address for a chosen host: the user in the path, the body's reason only informative.
    'bookings.reassignTo': route<{ reason?: string }, unknown, Uid & { userId: string }>({
      body: object({ reason: { type: 'string', maxLength: 500, description: 'Why the booking changes hands (kept out of the booking)' } }),
      data: reassignedView,
      handle: async ({ userId, params, request }) => reassigned(s, await reassignBooking(s, userId, params.bookingUid, params.userId), { request }),
    }),
  };
}

/** Writes of a team (booked on an attendee's behalf) and of an organization. */
function teamAndOrgBookingWrites(deps: PlatformDeps): HandlerMap {
  const s = deps.services;
  return {
    // Booked on an attendee's behalf: the manageToken is theirs, for the team to hand over.
    'teamBookings.create': route<NewBookingBody>({
      body: newBooking,
      data: createdView,
      status: 201,
      noStore: true,
      handle: async ({ facts, body }) => created(s, await book(s, await toNewBooking(s, body), { teamId: facts.team!.id, allowHidden: true }), 'documented'),
    }),
    'teamBookings.cancel': route<{ cancellationReason?: string }, unknown, Uid>({
      body: reason('cancellationReason'),
      data: bookingView,
      handle: async ({ facts, params, body }) => answer(s, await cancelBooking(s, params.bookingUid, body?.cancellationReason, { teamId: facts.team!.id }), 'documented'),
    }),
    'orgBookings.cancel': route<{ cancellationReason?: string }, unknown, Uid>({
      body: reason('cancellationReason'),
      data: bookingView,
      handle: async ({ facts, params, body }) => answer(s, await cancelBooking(s, params.bookingUid, body?.cancellationReason, { organizationId: facts.organization!.id }), 'documented'),
    }),
  };
}

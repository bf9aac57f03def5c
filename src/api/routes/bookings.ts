// Bookings: public create/cancel/reschedule (no token; cancel and reschedule with the
// booker's manageToken, SPEC §2 item 26), the host's own (BOOKING_*), a team's
// (TEAM_BOOKING_*) and an organization's (ORG_BOOKING_*).
import { inTransaction } from '../../storage/transaction.ts';
import type { AppContext } from '../../http/context.ts';
import { authorizeBookingWrite, UNKNOWN_BOOKING } from '../access-check.ts';
import { book, cancelBooking, requireManageToken, rescheduleBooking, transitionBooking, type Booked, type NewBooking } from '../../services/bookings.ts';
import { createApiAccessStore } from '../../storage/repositories/api-access.ts';
import { calendarLinks } from '../../services/calendar-links.ts';
import * as repo from '../../storage/repositories/bookings.ts';
import type { BookingFilter, BookingRow, BookingScope } from '../../storage/repositories/bookings.ts';
import { accessError } from '../guard.ts';
import { route, type ApiCall, type HandlerMap } from '../handler.ts';
import { checkTimeZone, conflict, invalid, iso, notFound, parseJson, toMillis } from '../input.ts';
import { arrayOf, dateTime, email, idParam, listQuery, nullable, object, str, timeZone, type JsonSchema, type Page } from '../schemas.ts';

const STATUSES = ['pending', 'accepted', 'declined', 'cancelled', 'rescheduled'];

const bookingView: JsonSchema = object(
  {
    uid: { type: 'string' },
    title: { type: 'string' },
    description: { type: 'string' },
    start: { type: 'string' },
    end: { type: 'string' },
    durationInMinutes: { type: 'integer' },
    status: { type: 'string', enum: STATUSES },
    eventTypeId: nullable({ type: 'string' }),
    hostId: nullable({ type: 'string' }),
    teamId: nullable({ type: 'string' }),
    attendee: object({ name: { type: 'string' }, email: { type: 'string' }, timeZone: { type: 'string' } }, ['name', 'email', 'timeZone']),
    guests: arrayOf({ type: 'string' }, 0, 10),
    location: { type: 'string' },
    cancellationReason: nullable({ type: 'string' }),
    declineReason: nullable({ type: 'string' }),
    rescheduledFromUid: nullable({ type: 'string' }),
    rescheduledToUid: nullable({ type: 'string' }),
    createdAt: { type: 'string' },
    updatedAt: { type: 'string' },
  },
  ['uid', 'title', 'start', 'end', 'status', 'attendee', 'guests', 'location'],
);

function booking(b: BookingRow) {
  return {
    uid: b.uid,
    title: b.title,
    description: b.description,
    start: iso(b.start_time),
    end: iso(b.end_time),
    durationInMinutes: Math.round((b.end_time - b.start_time) / 60_000),
    status: b.status,
    eventTypeId: b.event_type_id,
    hostId: b.user_id,
    teamId: b.team_id,
    attendee: { name: b.attendee_name, email: b.attendee_email, timeZone: b.attendee_time_zone },
    guests: parseJson<string[]>(b.guests),
    location: b.location,
    cancellationReason: b.cancellation_reason,
    declineReason: b.decline_reason,
    rescheduledFromUid: b.rescheduled_from,
    rescheduledToUid: b.rescheduled_to,
    createdAt: iso(b.created_at),
    updatedAt: iso(b.updated_at),
  };
}

/** The answer to a booking's creation: the booking, and once only, its manageToken. */
const createdView: JsonSchema = {
  ...bookingView,
  properties: { ...(bookingView.properties as object), manageToken: { type: 'string', description: "The secret of the booker's confirmation link, shown only here: cancel and reschedule without an access token need it (SPEC §2 item 26)." } },
  required: [...(bookingView.required as string[]), 'manageToken'],
};
const created = ({ booking: b, manageToken }: Booked) => ({ ...booking(b), manageToken });

const listFilters = listQuery({ status: { type: 'string', enum: STATUSES }, afterStart: dateTime, beforeEnd: dateTime });
interface ListFilters extends Page {
  status?: BookingRow['status'];
  afterStart?: string;
  beforeEnd?: string;
}
const filterOf = (q: ListFilters): BookingFilter => ({
  ...(q.status !== undefined ? { status: q.status } : {}),
  ...(q.afterStart !== undefined ? { afterStart: toMillis(q.afterStart, 'afterStart') } : {}),
  ...(q.beforeEnd !== undefined ? { beforeEnd: toMillis(q.beforeEnd, 'beforeEnd') } : {}),
});

const newBooking = object(
  {
    eventTypeId: idParam,
    start: dateTime,
    attendee: object({ name: str(1, 100), email, timeZone }, ['name', 'email', 'timeZone']),
    guests: arrayOf(email, 0, 10),
    location: str(1, 500),
    notes: str(0, 2000),
    privateLink: str(1, 64, { pattern: '^[0-9A-Za-z]+$' }),
  },
  ['eventTypeId', 'start', 'attendee'],
);
interface NewBookingBody extends Omit<NewBooking, 'start'> {
  start: string;
}
const toNewBooking = (body: NewBookingBody): NewBooking => {
  checkTimeZone(body.attendee.timeZone, 'attendee.timeZone');
  return { ...body, start: toMillis(body.start, 'start') };
};

const reason = (field: string) => object({ [field]: str(1, 500) });
type Uid = { bookingUid: string };

/** SPEC §2 item 26: the booker's proof on the public writes; absent when an access token acts. */
const manageToken = str(1, 200);
interface BookerProof {
  manageToken?: string;
}

export function bookingHandlers(ctx: AppContext): HandlerMap {
  const { db, clock } = ctx.services;
  const s = ctx.services;
  const accessStore = createApiAccessStore(db);

  /**
   * Who may cancel or reschedule through the public routes (SPEC §2 item 26): the holder of
   * the booking's manageToken, which needs no scope whatever token comes beside it; else an
   * access token with the booking write scope of the booking's family. The uid alone, which
   * every reader of bookings sees, is not enough.
   */
  const actForBooker = async ({ params, body, principal, request }: ApiCall<BookerProof, unknown, Uid>): Promise<void> => {
    if (body.manageToken !== undefined) {
      await requireManageToken(s, params.bookingUid, body.manageToken);
      return;
    }
    if (principal === undefined) {
      throw invalid('manageToken', 'is required: send the manageToken returned when the booking was made, or an access token with the booking write scope');
    }
    const row = await repo.findBooking(db, params.bookingUid);
    if (row === undefined) throw accessError(UNKNOWN_BOOKING);
    const decision = await authorizeBookingWrite(accessStore, clock, request.headers.authorization, { hostId: row.user_id, teamId: row.team_id });
    if (!('ok' in decision)) throw accessError(decision);
  };

  const load = async (scope: BookingScope, uid: string) => {
    const row = await repo.findScopedBooking(db, scope, uid);
    if (row === undefined) throw notFound('booking');
    return row;
  };
  /** A booking of the token's user that still holds time: guests and location may change. */
  const loadActive = async (userId: string, uid: string) => {
    const row = await load({ userId }, uid);
    if (!repo.ACTIVE.includes(row.status)) throw conflict(`the booking is ${row.status}; only a pending or accepted booking can change`);
    return row;
  };
  const list = (scope: (call: { userId: string; facts: { team?: { id: string } | null; organization?: { id: string } | null } }) => BookingScope) =>
    route<unknown, ListFilters>({
      query: listFilters,
      data: arrayOf(bookingView, 0, 100),
      handle: async (call) => (await repo.listBookings(db, scope(call), filterOf(call.query), call.query.limit, call.query.offset)).map(booking),
    });

  return {
    // Public (seed §5 rule 6).
    'bookings.create': route<NewBookingBody>({
      body: newBooking,
      data: createdView,
      status: 201,
      noStore: true,
      handle: async ({ body }) => created(await book(s, toNewBooking(body))),
    }),
    'bookings.cancel': route<{ cancellationReason?: string } & BookerProof, unknown, Uid>({
      body: object({ cancellationReason: str(1, 500), manageToken }),
      data: bookingView,
      handle: async (call) => {
        await actForBooker(call);
        return booking(await cancelBooking(s, call.params.bookingUid, call.body.cancellationReason));
      },
    }),
    'bookings.reschedule': route<{ start: string; reschedulingReason?: string } & BookerProof, unknown, Uid>({
      body: object({ start: dateTime, reschedulingReason: str(1, 500), manageToken }, ['start']),
      data: bookingView,
      status: 201,
      handle: async (call) => {
        await actForBooker(call);
        return booking(await rescheduleBooking(s, call.params.bookingUid, toMillis(call.body.start, 'start'), call.body.reschedulingReason));
      },
    }),

    // The host's own bookings (SPEC §6: personal routes act on the token's user only).
    'bookings.list': list((c) => ({ userId: c.userId })),
    'bookings.get': route<unknown, unknown, Uid>({ data: bookingView, handle: async ({ userId, params }) => booking(await load({ userId }, params.bookingUid)) }),
    'bookings.calendarLinks': route<unknown, unknown, Uid>({
      data: object({ google: { type: 'string' }, outlook: { type: 'string' }, office365: { type: 'string' }, yahoo: { type: 'string' }, ics: { type: 'string' } }, ['google', 'outlook', 'office365', 'yahoo', 'ics']),
      handle: async ({ userId, params }) => {
        const b = await load({ userId }, params.bookingUid);
        return calendarLinks({ uid: b.uid, title: b.title, description: b.description, location: b.location, start: b.start_time, end: b.end_time }, clock());
      },
    }),
    'bookings.confirm': route<unknown, unknown, Uid>({
      data: bookingView,
      handle: async ({ userId, params }) => booking(await transitionBooking(s, params.bookingUid, ['pending'], 'accepted', {}, { userId })),
    }),
    'bookings.decline': route<{ reason?: string }, unknown, Uid>({
      body: reason('reason'),
      data: bookingView,
      handle: async ({ userId, params, body }) => booking(await transitionBooking(s, params.bookingUid, ['pending'], 'declined', { decline_reason: body?.reason ?? null }, { userId })),
    }),
    'bookings.addGuests': route<{ guests: string[] }, unknown, Uid>({
      body: object({ guests: arrayOf(email, 1, 10) }, ['guests']),
      data: bookingView,
      handle: async ({ userId, params, body }) => {
        const b = await loadActive(userId, params.bookingUid);
        const guests = [...new Set([...parseJson<string[]>(b.guests), ...body.guests.map((g) => g.toLowerCase())])];
        if (guests.length > 10) throw invalid('guests', `a booking has at most 10 guests; it has ${parseJson<string[]>(b.guests).length}`);
        const now = clock();
        // Conditional on the version read, so that two concurrent additions cannot lose one.
        const saved = await db.updateTable('bookings').set({ guests: JSON.stringify(guests), updated_at: now }).where('uid', '=', b.uid).where('updated_at', '=', b.updated_at).executeTakeFirst();
        if (Number(saved.numUpdatedRows) !== 1) throw conflict('the booking changed meanwhile; read it again and retry');
        return booking({ ...b, guests: JSON.stringify(guests), updated_at: now });
      },
    }),
    'bookings.updateLocation': route<{ location: string }, unknown, Uid>({
      body: object({ location: str(1, 500) }, ['location']),
      data: bookingView,
      handle: async ({ userId, params, body }) => {
        const b = await loadActive(userId, params.bookingUid);
        await db.updateTable('bookings').set({ location: body.location, updated_at: clock() }).where('uid', '=', b.uid).execute();
        return booking({ ...b, location: body.location, updated_at: clock() });
      },
    }),
    'bookings.reassign': route<{ userId: string }, unknown, Uid>({
      body: object({ userId: idParam }, ['userId']),
      data: bookingView,
      handle: async ({ userId, params, body }) => {
        const b = await loadActive(userId, params.bookingUid);
        if (b.team_id === null) throw conflict('only a team booking can be reassigned');
        if (body.userId === b.user_id) throw invalid('userId', 'already hosts this booking');
        if (!(await repo.isTeamMember(db, b.team_id, body.userId))) throw invalid('userId', "is not a member of the booking's team");
        const now = clock();
        await inTransaction(db, async (trx) => {
          await repo.lockHost(trx, body.userId);
          if (await repo.hostIsBusy(trx, body.userId, b.start_time, b.end_time)) throw conflict('userId: that member is not available at the booking time');
          const moved = await trx.updateTable('bookings').set({ user_id: body.userId, updated_at: now }).where('uid', '=', b.uid).where('updated_at', '=', b.updated_at).executeTakeFirst();
          if (Number(moved.numUpdatedRows) !== 1) throw conflict('the booking changed meanwhile; read it again');
        });
        return booking({ ...b, user_id: body.userId, updated_at: now });
      },
    }),

    // A team's bookings.
    'teamBookings.list': list((c) => ({ teamId: c.facts.team!.id })),
    'teamBookings.get': route<unknown, unknown, Uid>({ data: bookingView, handle: async ({ facts, params }) => booking(await load({ teamId: facts.team!.id }, params.bookingUid)) }),
    // Booked on an attendee's behalf: the manageToken is theirs, for the team to hand over.
    'teamBookings.create': route<NewBookingBody>({
      body: newBooking,
      data: createdView,
      status: 201,
      noStore: true,
      handle: async ({ facts, body }) => created(await book(s, toNewBooking(body), { teamId: facts.team!.id, allowHidden: true })),
    }),
    'teamBookings.cancel': route<{ cancellationReason?: string }, unknown, Uid>({
      body: reason('cancellationReason'),
      data: bookingView,
      handle: async ({ facts, params, body }) => booking(await cancelBooking(s, params.bookingUid, body?.cancellationReason, { teamId: facts.team!.id })),
    }),

    // Everything in an organization: its teams' bookings and its members'.
    'orgBookings.list': list((c) => ({ organizationId: c.facts.organization!.id })),
    'orgBookings.cancel': route<{ cancellationReason?: string }, unknown, Uid>({
      body: reason('cancellationReason'),
      data: bookingView,
      handle: async ({ facts, params, body }) => booking(await cancelBooking(s, params.bookingUid, body?.cancellationReason, { organizationId: facts.organization!.id })),
    }),
  };
}

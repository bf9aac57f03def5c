// Booking, cancelling and rescheduling (docs/rules.md#public-booking): the public routes and the
// team routes share these rules. Each change that spans rows runs in one transaction.
import { conflict, generateToken, hashesEqual, hashToken, isWellFormed, notFound, randomId, validation } from '../authorization-server.ts';
import { ACTIVE, type Booking, type BookableEventType, type BookingChanges, type BookingFilter, type BookingRelations, type BookingScope, type BookingStatus, type BookingStore } from './store.ts';
import { authorizeBookingWrite, type AccessGranted, type PresentedCredentials } from '../access-check.ts';
import type { AccessDenial } from '../membership.ts';
import type { Audience } from '../authorization-server.ts';
import type { BookingReference, ConferencingSession, Recording } from './provider-records.ts';
import type { Attendee } from './attendee-store.ts';
// The refusals the routes raised, worded and typed as before (input.ts's).
import { invalid, notFound as missing } from '../input.ts';
import type { PlatformContext } from '../stores.ts';
import { ATTENDEES_MAX } from './attendees.ts';
import { bookingInScope } from './in-scope.ts';
import { recordBookingEvent, type BookingTrigger } from './events.ts';
import { locationText, type LocationInput } from './requests.ts';
import { readAnswers } from './answers.ts';
import { bookingForm } from '../event-types/booking-fields.ts';
import { HOST_BUSY, hostRefusal, isCollective, lockHosts, requireHostFor, requireSlot } from '../slots/service.ts';

export interface NewBooking {
  eventTypeId: string;
  start: number;
  attendee: { name: string; email: string; timeZone: string };
  guests?: string[];
  /** Text, or the platform's location object, read against the event type's locations. */
  location?: LocationInput;
  /** The platform's booking length: an event type here has one length, so only that one is taken. */
  lengthInMinutes?: number;
  /** Gatehouse's own notes field; bookingFieldsResponses.notes when it is absent. */
  notes?: string;
  /** docs/integrating.md#booking-fields: the answers to the event type's booking fields by slug (Cal.com's bookingFieldsResponses), as sent. */
  responses?: Record<string, unknown>;
  /** The hash of a private link: the only way to book a hidden event type publicly. */
  privateLink?: string;
  /** docs/integrating.md#slot-reservations: the uid of the booker's hold on this slot, which keeps others out but not them. */
  reservationUid?: string;
}

export interface BookingRules {
  /** Team routes book only their own team's event types. */
  teamId?: string;
  /** Team admins may book hidden team event types without a link. */
  allowHidden?: boolean;
}

/**
 * A new booking and its manageToken: the secret of the booker's confirmation link
 * (docs/rules.md#public-booking), in plain text only here, to be shown once; the row holds its SHA-256 hash.
 */
export interface Booked {
  booking: Booking;
  manageToken: string;
}

export async function book(ctx: PlatformContext, input: NewBooking, rules: BookingRules = {}): Promise<Booked> {
  const now = ctx.clock();
  const et = await ctx.stores.bookings.findEventType(input.eventTypeId);
  // A hidden event type without its link is indistinguishable from a missing one.
  const reachable = et !== undefined && (rules.teamId === undefined || et.teamId === rules.teamId) && (!et.hidden || rules.allowHidden || input.privateLink !== undefined);
  if (!reachable) throw notFound('no such event type');
  if (input.lengthInMinutes !== undefined && input.lengthInMinutes !== et.lengthMinutes) {
    throw validation(`lengthInMinutes: this event type lasts ${et.lengthMinutes} minutes and offers no other length`, 'lengthInMinutes');
  }
  // docs/rules.md#booking-availability: the start must be a slot GET /v2/slots offers.
  const held = input.reservationUid !== undefined ? { reservationUid: input.reservationUid } : {};
  const slot = await requireSlot(ctx, { eventType: et, start: input.start, ...held });
  const location = input.location === undefined ? (et.locations[0]?.value ?? '') : locationText(input.location, 'location', et.locations);
  const guests = [...new Set((input.guests ?? []).map((g) => g.toLowerCase()))];
  const answers = readAnswers(bookingForm(et.bookingFields, et.locations.length), input.responses ?? {}, { ...(input.notes !== undefined ? { notes: input.notes } : {}), guests });
  const end = input.start + et.lengthMinutes * 60_000;
  // docs/integrating.md#slot-rules: a seated slot already booked is joined at its host.
  const host = et.userId ?? (slot.attendeesCount ? slot.hostIds[0]! : await teamHost(ctx, et.teamId!, et.schedulingType === 'roundRobin', slot.hostIds, now));
  const manageToken = generateToken('bookingManageToken');
  const booking: Booking = {
    id: await ctx.stores.ids.next('bookings'),
    uid: randomId(),
    eventTypeId: et.id,
    hostId: host,
    teamId: et.teamId,
    title: `${et.title} with ${input.attendee.name.trim()}`.slice(0, 300),
    description: answers.notes ?? '',
    start: input.start,
    end,
    status: et.requiresConfirmation ? 'pending' : 'accepted',
    attendee: { name: input.attendee.name.trim(), email: input.attendee.email.toLowerCase(), timeZone: input.attendee.timeZone },
    guests,
    location,
    cancellationReason: null,
    declineReason: null,
    rescheduledFrom: null,
    rescheduledTo: null,
    manageTokenHash: hashToken(manageToken),
    absentHost: false,
    responses: answers.responses,
    createdAt: now,
    updatedAt: now,
  };
  await ctx.stores.transaction(async (tx) => {
    // The link's use and the booking land together: a refused booking spends no use.
    if (et.hidden && !rules.allowHidden && !(await tx.bookings.usePrivateLink(et.id, input.privateLink!, now))) {
      throw notFound('no such event type (the private link is unknown, expired or used up)');
    }
    // Under the host's lock, which a hold's creation takes too, the same question again: a
    // booking, a hold, a seat or a limit's count taken meanwhile keeps this booking out.
    // A collective booking locks and asks of every member, in id order (lockHosts).
    if (isCollective(et)) await lockHosts(tx, et);
    else await tx.bookings.lockHost(host);
    await requireSlot({ ...ctx, stores: tx }, { eventType: et, start: input.start, ...(isCollective(et) ? {} : { onlyHost: host }), ...held });
    // The booker's own hold has done its work.
    if (input.reservationUid !== undefined) await tx.api.slotReservations.release(input.reservationUid, now);
    // A collective booking is every member's: each one's time is taken (their slots and bookings see it).
    await tx.bookings.insert(booking, isCollective(et) ? slot.hostIds.filter((id) => id !== host) : []);
    // docs/rules.md#webhooks: the subscribers' events land with the booking, or not at all.
    await recordBookingEvent(tx, 'BOOKING_CREATED', booking, now);
    if (booking.status === 'pending') await recordBookingEvent(tx, 'BOOKING_REQUESTED', booking, now);
  });
  return { booking, manageToken };
}

/**
 * The host of a team booking among those free for its slot: for round robin the first of them
 * in round-robin order (the fewest upcoming team bookings); for a collective one, where every
 * member is free, the team's first owner.
 */
async function teamHost(ctx: PlatformContext, teamId: string, roundRobin: boolean, free: string[], now: number): Promise<string> {
  const host = roundRobin ? (await ctx.stores.bookings.rankTeamHosts(teamId, now)).find((id) => free.includes(id)) : await ctx.stores.bookings.pickTeamHost(teamId, false, now);
  if (host === undefined) throw conflict('the team has no member who could host this booking');
  return host;
}

/**
 * The event type's minimum notice, in minutes, holds for every start a booking gets: when it
 * is made and each time it is moved, whoever moves it (the booker's manageToken, the host's
 * token, an agent's tool: they share rescheduleBooking).
 */
function requireNotice(start: number, now: number, minimumNotice: number): void {
  if (start < now + minimumNotice * 60_000) {
    throw validation(minimumNotice > 0 ? `start: must be at least ${minimumNotice} minutes from now` : 'start: must be in the future', 'start');
  }
}

/**
 * Locks the host for the caller's transaction, then refuses with `busy` if they have an
 * active booking in [start, end) other than exceptUid: two bookings of one host cannot both
 * pass the check.
 */
async function holdHost(store: BookingStore, hostId: string, start: number, end: number, busy: string, exceptUid?: string): Promise<void> {
  await store.lockHost(hostId);
  if (await store.hostIsBusy(hostId, start, end, exceptUid)) throw conflict(busy);
}

async function requireBooking(ctx: PlatformContext, uid: string, scope?: BookingScope): Promise<Booking> {
  if (scope !== undefined) return bookingInScope(ctx.stores.bookings, scope, uid);
  const row = await ctx.stores.bookings.find(uid);
  if (row === undefined) throw notFound('no such booking');
  return row;
}

/**
 * The booking a manageToken opens (docs/rules.md#public-booking). A wrong or malformed token, and a
 * booking that has none, get exactly the answer of an unknown uid, so nothing is revealed;
 * the hashes are compared in constant time (docs/rules.md#token-formats).
 */
export async function requireManageToken(ctx: PlatformContext, uid: string, manageToken: string): Promise<Booking> {
  const row = isWellFormed('bookingManageToken', manageToken) ? await ctx.stores.bookings.find(uid) : undefined;
  if (row === undefined || row.manageTokenHash === null || !hashesEqual(row.manageTokenHash, hashToken(manageToken))) throw notFound('no such booking');
  return row;
}

/** The webhook trigger of reaching a status (docs/rules.md#webhooks); none for a status no transition reaches. */
const TRIGGER_OF: Partial<Record<BookingStatus, BookingTrigger>> = {
  accepted: 'BOOKING_CONFIRMED',
  declined: 'BOOKING_REJECTED',
  cancelled: 'BOOKING_CANCELLED',
};

/** Moves a booking between statuses, with its webhook event; a booking already elsewhere is a conflict. */
export async function transitionBooking(
  ctx: PlatformContext,
  uid: string,
  from: BookingStatus[],
  to: BookingStatus,
  extra: Pick<BookingChanges, 'cancellationReason' | 'declineReason'> = {},
  scope?: BookingScope,
): Promise<Booking> {
  const current = await requireBooking(ctx, uid, scope);
  const now = ctx.clock();
  return ctx.stores.transaction(async (tx) => {
    const done = await tx.bookings.transition(uid, from, to, { ...extra, updatedAt: now });
    if (!done) throw conflict(`the booking is ${current.status}; only a ${from.join(' or ')} booking can become ${to}`);
    const changed = (await tx.bookings.find(uid))!;
    const trigger = TRIGGER_OF[to];
    if (trigger !== undefined) await recordBookingEvent(tx, trigger, changed, now);
    return changed;
  });
}

export function cancelBooking(ctx: PlatformContext, uid: string, reason: string | undefined, scope?: BookingScope): Promise<Booking> {
  return transitionBooking(ctx, uid, ACTIVE, 'cancelled', { cancellationReason: reason ?? null }, scope);
}

/**
 * A reschedule is a new booking at the new time; the old one points to it. The new booking
 * keeps the old one's manageToken hash: the booker's one link keeps working for the moved
 * booking, and no new secret is handed to whoever rescheduled it (docs/rules.md#public-booking).
 */
export async function rescheduleBooking(ctx: PlatformContext, uid: string, start: number, reason: string | undefined): Promise<Booking> {
  const now = ctx.clock();
  const old = await requireBooking(ctx, uid);
  if (!ACTIVE.includes(old.status)) throw conflict(`the booking is ${old.status}; only a pending or accepted booking can be rescheduled`);
  // An event type deleted since leaves only the rule that the start is ahead.
  const et = old.eventTypeId === null ? undefined : await ctx.stores.bookings.findEventType(old.eventTypeId);
  // docs/rules.md#booking-availability: the new start must be a slot of the booking's host, its own time counting as free.
  if (et !== undefined && old.hostId !== null) await requireSlot(ctx, { eventType: et, start, reschedule: { uid: old.uid, hostId: old.hostId } });
  else requireNotice(start, now, et?.minimumBookingNotice ?? 0);
  // docs/integrating.md#booking-fields: the form's reason for a reschedule, when it requires one.
  const asked = et && bookingForm(et.bookingFields, et.locations.length).find((f) => f.slug === 'rescheduleReason');
  if (asked?.required && !asked.hidden && (reason === undefined || reason.trim() === '')) {
    throw invalid('reschedulingReason', `is required by this event type ("${asked.label}")`);
  }
  const end = start + (old.end - old.start);
  // A collective booking moves with all its hosts: those it had, as it was made with them.
  const coHostIds = await ctx.stores.bookings.coHosts(old.uid);
  const booking: Booking = { ...old, id: await ctx.stores.ids.next('bookings'), uid: randomId(), start, end, rescheduledFrom: old.uid, rescheduledTo: null, cancellationReason: null, absentHost: false, createdAt: now, updatedAt: now };
  await ctx.stores.transaction(async (tx) => {
    if (old.hostId !== null) {
      // As for a new booking: under the host's lock, the slot is asked again.
      if (et !== undefined) {
        if (isCollective(et)) await lockHosts(tx, et);
        else await tx.bookings.lockHost(old.hostId);
        await requireSlot({ ...ctx, stores: tx }, { eventType: et, start, reschedule: { uid: old.uid, hostId: old.hostId } });
      } else await holdHost(tx.bookings, old.hostId, start, end, HOST_BUSY, old.uid);
    }
    const moved = await tx.bookings.transition(old.uid, ACTIVE, 'rescheduled', { rescheduledTo: booking.uid, cancellationReason: reason ?? null, updatedAt: now });
    if (!moved) throw conflict('the booking changed meanwhile; read it again');
    await tx.bookings.insert(booking, coHostIds);
    // Its booker and guests came with the insert; those added later move with the booking too.
    const added = (await tx.api.bookingAttendees.list(old.uid)).filter((a) => a.role === 'added');
    await tx.api.bookingAttendees.insert(added.map(({ id: _id, absent: _absent, ...a }) => ({ ...a, bookingUid: booking.uid, createdAt: now })));
    await recordBookingEvent(tx, 'BOOKING_RESCHEDULED', booking, now);
  });
  return booking;
}

/** A booking of the host that still holds time: only such a booking's guests, location and host change. */
async function requireActive(ctx: PlatformContext, hostId: string, uid: string): Promise<Booking> {
  const b = await requireBooking(ctx, uid, { userId: hostId });
  if (!ACTIVE.includes(b.status)) throw conflict(`the booking is ${b.status}; only a pending or accepted booking can change`);
  return b;
}

/** Adds guests (at most 10 in all), conditional on the version read: two concurrent additions cannot lose one. */
export async function addGuests(ctx: PlatformContext, hostId: string, uid: string, added: string[]): Promise<Booking> {
  const b = await requireActive(ctx, hostId, uid);
  const guests = [...new Set([...b.guests, ...added.map((g) => g.toLowerCase())])];
  if (guests.length > 10) throw validation(`guests: a booking has at most 10 guests; it has ${b.guests.length}`, 'guests');
  const updatedAt = ctx.clock();
  await ctx.stores.transaction(async (tx) => {
    if (!(await tx.bookings.updateIfUnchanged(b.uid, b.updatedAt, { guests, updatedAt }))) throw conflict('the booking changed meanwhile; read it again and retry');
    // Each new guest is an attendee too (docs/integrating.md#booking-attendees), unless already one.
    const known = new Set((await tx.api.bookingAttendees.list(b.uid)).map((a) => a.email));
    const fresh = guests.filter((g) => !known.has(g));
    if (known.size + fresh.length > ATTENDEES_MAX) throw validation(`guests: a booking has at most ${ATTENDEES_MAX} attendees; this one has ${known.size}`, 'guests');
    await tx.api.bookingAttendees.insert(fresh.map((email) => ({ bookingUid: b.uid, role: 'guest' as const, email, name: '', timeZone: b.attendee.timeZone, phoneNumber: null, language: null, createdAt: updatedAt })));
  });
  return { ...b, guests, updatedAt };
}

export async function changeLocation(ctx: PlatformContext, hostId: string, uid: string, location: string): Promise<Booking> {
  const b = await requireActive(ctx, hostId, uid);
  await ctx.stores.bookings.update(b.uid, { location, updatedAt: ctx.clock() });
  return { ...b, location, updatedAt: ctx.clock() };
}

/**
 * Hands a team booking to another member of the team who is free at its time: the one named,
 * or, when none is, the first free member in round-robin order (the fewest upcoming team
 * bookings), as a round-robin booking picks its host. Free as a booking of them would be asked
 * (docs/integrating.md#slot-rules): their hours, time off, the buffers and their limits, not
 * only their other bookings; asked again under their lock.
 */
export async function reassignBooking(ctx: PlatformContext, hostId: string, uid: string, newHostId: string | undefined): Promise<Booking> {
  const b = await requireActive(ctx, hostId, uid);
  if (b.teamId === null) throw conflict('only a team booking can be reassigned');
  if (newHostId === b.hostId) throw validation('userId: already hosts this booking', 'userId');
  if (newHostId !== undefined && !(await ctx.stores.bookings.isTeamMember(b.teamId, newHostId))) throw validation("userId: is not a member of the booking's team", 'userId');
  const updatedAt = ctx.clock();
  // An event type deleted since leaves only the rule that the member has no other booking then.
  const et = b.eventTypeId === null ? undefined : await ctx.stores.bookings.findEventType(b.eventTypeId);
  if (et !== undefined && newHostId !== undefined) await requireHostFor(ctx, et, b, newHostId, 'userId');
  const chosen = newHostId ?? (await freeMember(ctx, b, updatedAt, et));
  await ctx.stores.transaction(async (tx) => {
    await holdHost(tx.bookings, chosen, b.start, b.end, newHostId === undefined ? 'the member picked is no longer available at the booking time; try again' : 'userId: that member is not available at the booking time');
    if (et !== undefined && newHostId !== undefined) await requireHostFor({ ...ctx, stores: tx }, et, b, chosen, 'userId');
    else if (et !== undefined && (await hostRefusal({ ...ctx, stores: tx }, et, b, chosen)) !== null) throw conflict('the member picked is no longer available at the booking time; try again');
    if (!(await tx.bookings.updateIfUnchanged(b.uid, b.updatedAt, { hostId: chosen, updatedAt }))) throw conflict('the booking changed meanwhile; read it again');
  });
  return { ...b, hostId: chosen, updatedAt };
}

/** The first member other than the host free at the booking's time (the slot check, when its event type is there); checked again under the lock. */
async function freeMember(ctx: PlatformContext, b: Booking, now: number, et: BookableEventType | undefined): Promise<string> {
  for (const candidate of await ctx.stores.bookings.rankTeamHosts(b.teamId!, now)) {
    if (candidate === b.hostId) continue;
    const free = et !== undefined ? (await hostRefusal(ctx, et, b, candidate)) === null : !(await ctx.stores.bookings.hostIsBusy(candidate, b.start, b.end));
    if (free) return candidate;
  }
  throw conflict('no other member of the team is available at the booking time');
}

/** Bookings with what their answers show beside them: hosts, event types and attendees, read together. */
export interface BookingsShown {
  bookings: Booking[];
  relations: BookingRelations;
}

/** The bookings with their relations, read in one go after the rule that found or changed them. */
export async function shown(ctx: PlatformContext, bookings: Booking[]): Promise<BookingsShown> {
  return { bookings, relations: await ctx.stores.bookings.relations(bookings) };
}

/** One booking with its relations (shown). */
export const shownOne = (ctx: PlatformContext, booking: Booking): Promise<BookingsShown> => shown(ctx, [booking]);

/** A booking in the caller's scope, or 404 (docs/rules.md#membership-rules). */
export function findBooking(ctx: PlatformContext, scope: BookingScope, uid: string): Promise<Booking> {
  return bookingInScope(ctx.stores.bookings, scope, uid);
}

/** A page of the scope's bookings, with the total and their relations. */
export async function listBookings(ctx: PlatformContext, scope: BookingScope, filter: BookingFilter, limit: number, offset: number): Promise<BookingsShown & { total: number }> {
  const found = await ctx.stores.bookings.page(scope, filter, limit, offset);
  return { ...(await shown(ctx, found.bookings)), total: found.total };
}

/**
 * A member's bookings as their organization's admins see them (docs/rules.md#membership-rules):
 * those the member hosts among the organization's (its teams' and its members' own, never
 * another organization's team bookings). A user who is not an accepted member of the
 * organization is as unknown as one who does not exist: 404, whatever they host elsewhere.
 */
export async function listMemberBookings(ctx: PlatformContext, organizationId: string, userId: string, filter: BookingFilter, limit: number, offset: number): Promise<BookingsShown & { total: number }> {
  if (!(await ctx.stores.api.memberships.isMember({ organizationId }, userId))) throw missing('user in this organization');
  return listBookings(ctx, { organizationId }, { ...filter, hostId: userId }, limit, offset);
}

/** What names a booking's event type: its id, or its slug with its owner's username or team slug. */
export interface EventTypeReference {
  eventTypeId?: string;
  eventTypeSlug?: string;
  username?: string;
  teamSlug?: string;
  organizationSlug?: string;
}

/** The event type a request names: by id, or by slug and its owner; an unknown one is 404 as an unknown id is. */
export async function eventTypeOf(ctx: PlatformContext, ref: EventTypeReference): Promise<string> {
  if (ref.eventTypeId !== undefined) return ref.eventTypeId;
  if (ref.eventTypeSlug === undefined) throw invalid('eventTypeId', 'is required, or eventTypeSlug with username or teamSlug');
  if ((ref.username === undefined) === (ref.teamSlug === undefined)) throw invalid('eventTypeSlug', 'needs exactly one of username and teamSlug beside it');
  const owner = ref.username !== undefined ? { username: ref.username } : { teamSlug: ref.teamSlug! };
  const id = await ctx.stores.bookings.findEventTypeIdBySlug(ref.eventTypeSlug, owner, ref.organizationSlug);
  if (id === undefined) throw missing('event type');
  return id;
}

/**
 * The booking of that uid, when an access token may write it (docs/rules.md#public-booking):
 * the booking write scope of its family, for its host or its team. Undefined when no booking
 * has the uid; the denial when the token may not.
 */
export async function bookingForTokenWrite(
  ctx: PlatformContext,
  uid: string,
  credentials: PresentedCredentials,
  audience: Audience,
): Promise<{ booking: Booking; decision: AccessGranted | AccessDenial } | undefined> {
  const found = await ctx.stores.bookings.find(uid);
  if (found === undefined) return undefined;
  const decision = await authorizeBookingWrite(ctx.stores.api.access, ctx.clock, credentials, { hostId: found.hostId, teamId: found.teamId }, audience);
  return { booking: found, decision };
}

/** The attendees of the host's booking; another's booking is 404. */
export async function listAttendees(ctx: PlatformContext, hostId: string, uid: string): Promise<Attendee[]> {
  await findBooking(ctx, { userId: hostId }, uid);
  return ctx.stores.api.bookingAttendees.list(uid);
}

/** One attendee of the host's booking; another's booking, or an attendee of another booking, is 404. */
export async function findAttendee(ctx: PlatformContext, hostId: string, uid: string, attendeeId: string): Promise<Attendee> {
  await findBooking(ctx, { userId: hostId }, uid);
  const found = await ctx.stores.api.bookingAttendees.find(uid, attendeeId);
  if (found === undefined) throw missing('attendee');
  return found;
}

/** docs/integrating.md#provider-records: a booking's calendar events in the scope, of one provider when `type` is given. */
export async function bookingReferences(ctx: PlatformContext, scope: BookingScope, uid: string, type?: string): Promise<BookingReference[]> {
  return ctx.stores.api.bookingProviders.references((await findBooking(ctx, scope, uid)).uid, type);
}

export async function bookingRecordings(ctx: PlatformContext, scope: BookingScope, uid: string): Promise<Recording[]> {
  return ctx.stores.api.bookingProviders.recordings((await findBooking(ctx, scope, uid)).uid);
}

/** The addresses of a booking's transcripts. */
export async function bookingTranscripts(ctx: PlatformContext, scope: BookingScope, uid: string): Promise<string[]> {
  return (await ctx.stores.api.bookingProviders.transcripts((await findBooking(ctx, scope, uid)).uid)).map((t) => t.url);
}

export async function bookingSessions(ctx: PlatformContext, scope: BookingScope, uid: string): Promise<ConferencingSession[]> {
  return ctx.stores.api.bookingProviders.sessions((await findBooking(ctx, scope, uid)).uid);
}

// What an operator records of a booking (the CLI's `bookings add-…`, docs/integrating.md#provider-records).
export {
  PROVIDER_LIST_MAX,
  recordRecording,
  recordReference,
  recordSession,
  recordTranscript,
  type BookingReference,
  type ConferencingSession,
  type Recording,
  type Transcript,
} from './provider-records.ts';

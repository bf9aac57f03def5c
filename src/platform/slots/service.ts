// The free slots of an event type (docs/integrating.md#slots): which event type, who hosts
// it, and what takes their time, read in a fixed number of statements (the event type, its
// hosts with their schedules, their bookings, their time off, the holds on its slots) whatever
// the number of hosts or bookings; compute.ts decides which times are free. Booking asks the
// same (requireSlot, docs/rules.md#booking-availability).
import { conflict, notFound, validation } from '../authorization-server.ts';
import type { BookableEventType } from '../bookings/store.ts';
import type { PlatformContext, PlatformStores } from '../stores.ts';
import { checkStart, DEFAULT_WEEK, freeSlots, type HostAvailability, type HostRule, type Interval, type Slot, type SlotRefusal, type SlotRules } from './compute.ts';
import type { HostTime } from './store.ts';

export type { Slot } from './compute.ts';

/** Which event type: by id, or by its slug and its owner's username or team slug (in an organization when named). */
export type EventTypeRef = { id: string } | { slug: string; username: string; organizationSlug?: string } | { slug: string; teamSlug: string; organizationSlug?: string };

export interface SlotQuery {
  eventType: EventTypeRef;
  /** Epoch milliseconds: slots starting in [start, end]. */
  start: number;
  end: number;
  /** The length asked for; an event type here has one length, so only that one is taken. */
  durationMinutes?: number;
  /** docs/integrating.md#slots: this booking's own time counts as free (it is being moved). */
  bookingUidToReschedule?: string;
}

export interface FreeSlots {
  slots: Slot[];
  lengthMinutes: number;
}

/** The longest period one request may ask about: Cal.com's booker asks a month at a time. */
export const MAX_PERIOD_DAYS = 92;
const DAY = 86_400_000;

export async function findFreeSlots(ctx: PlatformContext, query: SlotQuery): Promise<FreeSlots> {
  if (query.end < query.start) throw validation('end: must not be before start', 'end');
  if (query.end - query.start > MAX_PERIOD_DAYS * DAY) throw validation(`end: at most ${MAX_PERIOD_DAYS} days after start`, 'end');
  const now = ctx.clock();
  const { bookings } = ctx.stores;
  const id = 'id' in query.eventType ? query.eventType.id : await bookings.findEventTypeIdBySlug(query.eventType.slug, ownerOf(query.eventType), query.eventType.organizationSlug);
  const et = id === undefined ? undefined : await bookings.findEventType(id);
  // A hidden event type is booked only through its private link (docs/rules.md#public-booking):
  // without it, it is as absent here as it is to booking.
  if (et === undefined || et.hidden) throw notFound('no such event type');
  if (query.durationMinutes !== undefined && query.durationMinutes !== et.lengthMinutes) {
    throw validation(`duration: this event type lasts ${et.lengthMinutes} minutes and offers no other length`, 'duration');
  }
  const availability = await availabilityOf(ctx, et, query.start, query.end, query.bookingUidToReschedule);
  const held = await ctx.stores.api.slotReservations.liveOverlapping(et.id, query.start, query.end + et.lengthMinutes * 60_000, now);
  const slots = freeSlots(availability, rulesOf(et), { start: query.start, end: query.end }, now, hostRuleOf(et), held);
  return { slots, lengthMinutes: et.lengthMinutes };
}

/**
 * What the hosts' time looks like around [start, end]: their weeks, and what takes their time,
 * less the booking being moved. A day either side: a slot starting at the period's edge still
 * meets a booking or time off beyond it. Only `onlyHost` when given (a booking keeps its host
 * when it moves).
 */
async function availabilityOf(ctx: PlatformContext, et: BookableEventType, start: number, end: number, exceptUid?: string, onlyHost?: string): Promise<HostAvailability[]> {
  const { api } = ctx.stores;
  const owner = onlyHost !== undefined ? { userId: onlyHost } : et.userId !== null ? { userId: et.userId } : { teamId: et.teamId! };
  const hosts = await api.slots.hosts(owner);
  const ids = hosts.map((h) => h.id);
  const from = start - DAY;
  const to = end + et.lengthMinutes * 60_000 + DAY;
  const taken = byHost(await api.slots.bookings(ids, from, to, exceptUid));
  const away = byHost(await api.slots.away(ids, from, to));
  return hosts.map((h) => ({
    hostId: h.id,
    timeZone: h.schedule?.timeZone ?? h.timeZone,
    weeklyHours: h.schedule?.availability ?? DEFAULT_WEEK,
    overrides: h.schedule?.overrides ?? [],
    bookings: taken.get(h.id) ?? [],
    away: away.get(h.id) ?? [],
  }));
}

/**
 * The event type's rules for its slots. It holds no slot interval, buffers or booking window
 * yet: Cal.com's defaults (the length, none, none).
 */
function rulesOf(et: BookableEventType): SlotRules {
  return { lengthMinutes: et.lengthMinutes, intervalMinutes: et.lengthMinutes, minimumNoticeMinutes: et.minimumBookingNotice, beforeBufferMinutes: 0, afterBufferMinutes: 0, windowDays: null };
}

const hostRuleOf = (et: BookableEventType): HostRule => (et.schedulingType === 'roundRobin' ? 'any' : 'all');

/** What a booking of an event type at a start must agree with (docs/rules.md#booking-availability). */
export interface SlotRequest {
  eventType: BookableEventType;
  start: number;
  /** A booking being moved: its own time counts as free, and it keeps its host. */
  reschedule?: { uid: string; hostId: string };
  /** docs/integrating.md#slot-reservations: the caller's own hold, which does not keep them out. */
  reservationUid?: string;
  /** The request's name for the start, named by a refusal: start (bookings) or slotStart (holds). */
  field?: 'start' | 'slotStart';
}

/**
 * The hosts free for a booking at `start`, when `start` is a slot GET /v2/slots would offer
 * (the same reads and the same computation); otherwise the refusal saying why
 * (docs/rules.md#booking-availability): 400 naming start, or 409 when only a booking takes the
 * time. The caller still holds the host under lock before it writes
 * (ARCHITECTURE.md#single-use-is-atomic): this read is not the guard against a concurrent booking.
 */
export async function requireSlot(ctx: PlatformContext, request: SlotRequest): Promise<string[]> {
  const { eventType: et, start, reschedule } = request;
  const hosts = await availabilityOf(ctx, et, start, start, reschedule?.uid, reschedule?.hostId);
  // A host alone keeps a moved round-robin booking: their own time decides, as for one host.
  const rule = reschedule !== undefined ? 'all' : hostRuleOf(et);
  if (hosts.length === 0) throw conflict('the team has no member who could host this booking');
  const now = ctx.clock();
  const held = await ctx.stores.api.slotReservations.liveOverlapping(et.id, start, start + et.lengthMinutes * 60_000, now, request.reservationUid);
  const checked = checkStart(hosts, rulesOf(et), start, now, rule, held);
  if ('slot' in checked) return checked.slot.hostIds;
  throw refusalOf(checked.refusal, hosts.length > 1 ? 'one of the hosts' : 'the host', request.field ?? 'start');
}

/**
 * Refuses a start another's live hold keeps (docs/integrating.md#slot-reservations): asked again
 * inside the booking's transaction, under the host's lock that a hold's creation takes too.
 */
export async function requireNotHeld(stores: PlatformStores, eventTypeId: string, start: number, end: number, now: number, reservationUid?: string): Promise<void> {
  if ((await stores.api.slotReservations.liveOverlapping(eventTypeId, start, end, now, reservationUid)).length > 0) throw conflict(heldMessage('start'));
}

/**
 * Takes the row locks of every host of the event type, in id order (so two callers never wait
 * on each other crosswise), for the caller's transaction: a hold then excludes any booking or
 * hold of its slot that is decided after it.
 */
export async function lockHosts(stores: PlatformStores, et: BookableEventType): Promise<void> {
  const ids = et.userId !== null ? [et.userId] : (await stores.api.slots.hosts({ teamId: et.teamId! })).map((h) => h.id).sort();
  for (const id of ids) await stores.bookings.lockHost(id);
}

const heldMessage = (field: string) => `${field}: another booker holds this slot for a few minutes (a reservation); choose another slot, or try again when the hold ends`;

const SEE_SLOTS = 'GET /v2/slots lists the free times';

function refusalOf(refusal: SlotRefusal, host: string, field: 'start' | 'slotStart'): Error {
  const invalid = (words: string) => validation(`${field}: ${words}`, field);
  switch (refusal.reason) {
    case 'past':
      return invalid('must be in the future');
    case 'notice':
      return invalid(`must be at least ${refusal.minutes} minutes from now`);
    case 'window':
      return invalid(`is beyond the booking window, at most ${refusal.days} days from now`);
    case 'day_off':
      return invalid(`${refusal.date} is a day off for ${host} (${refusal.timeZone}); ${SEE_SLOTS}`);
    case 'outside_hours':
      return invalid(`${refusal.local} (${refusal.timeZone}) is outside the working hours of ${host}; ${SEE_SLOTS}`);
    case 'off_grid':
      return invalid(`is not a slot: this event type's slots start every ${refusal.stepMinutes} minutes from the start of the working hours; ${SEE_SLOTS}`);
    case 'away':
      return invalid(`${host} is out of office at that time; ${SEE_SLOTS}`);
    case 'held':
      return conflict(heldMessage(field));
    case 'busy':
      return conflict(field === 'start' ? HOST_BUSY : `${field}: the host is not available at that time`);
  }
}

/** A booking takes the host's time: the answer when another booking holds it (the race's loser gets it too). */
export const HOST_BUSY = 'start: the host is not available at that time';

function byHost(times: HostTime[]): Map<string, Interval[]> {
  const out = new Map<string, Interval[]>();
  for (const t of times) {
    const list = out.get(t.hostId);
    if (list === undefined) out.set(t.hostId, [{ start: t.start, end: t.end }]);
    else list.push({ start: t.start, end: t.end });
  }
  return out;
}

function ownerOf(ref: Exclude<EventTypeRef, { id: string }>): { username: string } | { teamSlug: string } {
  return 'username' in ref ? { username: ref.username } : { teamSlug: ref.teamSlug };
}

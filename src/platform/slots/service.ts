// The free slots of an event type (docs/integrating.md#slots): which event type, who hosts
// it, and what takes their time, read in a fixed number of statements (the event type, its
// hosts with their schedules, their bookings, their time off, the holds on its slots) whatever
// the number of hosts or bookings; compute.ts decides which times are free. Booking asks the
// same (requireSlot, docs/rules.md#booking-availability).
import { conflict, notFound, validation } from '../authorization-server.ts';
import type { BookableEventType } from '../bookings/store.ts';
import type { PlatformContext, PlatformStores } from '../stores.ts';
import { checkStart, DEFAULT_WEEK, freeSlots, type HostAvailability, type HostBooking, type HostRule, type Interval, type Slot, type SlotRefusal, type SlotRules } from './compute.ts';
import type { HostTime, SlotHost } from './store.ts';
import { windowRule, windowWords } from './window.ts';
import { isoInZone } from '../zoned-days.ts';

export type { Slot } from './compute.ts';

/**
 * Which event type: by id, or by its slug and its owner's username or team slug (in an
 * organization when named); or a dynamic group of users (docs/integrating.md#dynamic-groups).
 */
export type EventTypeRef =
  | { id: string }
  | { slug: string; username: string; organizationSlug?: string }
  | { slug: string; teamSlug: string; organizationSlug?: string }
  | { usernames: string[]; organizationSlug?: string };

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
  if ('usernames' in query.eventType) return groupSlots(ctx, query, query.eventType);
  const id = 'id' in query.eventType ? query.eventType.id : await bookings.findEventTypeIdBySlug(query.eventType.slug, ownerOf(query.eventType), query.eventType.organizationSlug);
  const et = id === undefined ? undefined : await bookings.findEventType(id);
  // A hidden event type is booked only through its private link (docs/rules.md#public-booking):
  // without it, it is as absent here as it is to booking.
  if (et === undefined || et.hidden) throw notFound('no such event type');
  if (query.durationMinutes !== undefined && query.durationMinutes !== et.lengthMinutes) {
    throw validation(`duration: this event type lasts ${et.lengthMinutes} minutes and offers no other length`, 'duration');
  }
  const read = readSpan(et, query.start, query.end, now);
  const availability = await availabilityOf(ctx, et, read, query.bookingUidToReschedule);
  const held = await ctx.stores.api.slotReservations.liveOverlapping(et.id, read.start, read.end, now);
  const slots = freeSlots(availability, rulesOf(et, now, availability), { start: query.start, end: query.end }, now, hostRuleOf(et), held);
  return { slots, lengthMinutes: et.lengthMinutes };
}

/** Cal.com's length of a dynamic group's slots when no duration is asked. */
export const GROUP_DEFAULT_MINUTES = 30;
const GROUP_MAX = 20;

/**
 * docs/integrating.md#dynamic-groups: when two or more people are all free, with no event type:
 * each one's working hours, bookings and time off, slots of `duration` minutes (30 when not
 * asked) every length from the start of the hours, in the future, no rule of an event type's.
 * Only people who publish their time (a personal event type that is not hidden) are found: any
 * other username is as unknown as a missing one.
 */
async function groupSlots(ctx: PlatformContext, query: SlotQuery, group: { usernames: string[]; organizationSlug?: string }): Promise<FreeSlots> {
  const names = [...new Set(group.usernames)];
  if (names.length < 2) throw validation('usernames: at least 2 usernames, separated by commas, such as alice,bob', 'usernames');
  if (names.length > GROUP_MAX) throw validation(`usernames: at most ${GROUP_MAX} usernames`, 'usernames');
  const now = ctx.clock();
  const { api } = ctx.stores;
  const found = await api.slots.publicHosts(names, group.organizationSlug);
  const missing = names.find((n) => !found.some((h) => h.username === n));
  if (missing !== undefined) throw notFound(`no such user "${missing}"${group.organizationSlug !== undefined ? ' in this organization' : ''}`);
  const lengthMinutes = query.durationMinutes ?? GROUP_DEFAULT_MINUTES;
  const span = { start: query.start - DAY, end: query.end + lengthMinutes * 60_000 + DAY };
  const ids = found.map((h) => h.id);
  const hosts = availabilityFrom(found, await api.slots.bookings(ids, span.start, span.end, query.bookingUidToReschedule), await api.slots.away(ids, span.start, span.end));
  const rules: SlotRules = { lengthMinutes, intervalMinutes: lengthMinutes, minimumNoticeMinutes: 0, beforeBufferMinutes: 0, afterBufferMinutes: 0, window: null };
  return { slots: freeSlots(hosts, rules, { start: query.start, end: query.end }, now, 'all'), lengthMinutes };
}

/**
 * What a computation over starts in [start, end] reads (docs/integrating.md#slot-rules): a day
 * either side, so a slot at the period's edge still meets a booking or time off beyond it, and
 * its buffers what lies beyond them; with a rolling window, everything from now to the window's
 * horizon (which dates count is decided there); with limits, the whole of the longest period
 * limited around them (a year at most), so a host's bookings of the event type are all counted.
 */
function readSpan(et: BookableEventType, start: number, end: number, now: number): Interval {
  const buffers = (et.beforeEventBuffer + et.afterEventBuffer) * 60_000;
  let from = start - DAY - buffers;
  let to = end + et.lengthMinutes * 60_000 + DAY + buffers;
  if (et.bookingWindow !== null && et.bookingWindow.type !== 'range' && et.bookingWindow.rolling) {
    from = Math.min(from, now - DAY);
    to = Math.max(to, now + (MAX_PERIOD_DAYS + 1) * DAY);
  }
  const limits = { ...et.bookingLimitsCount, ...et.bookingLimitsDuration };
  // The longest period limited, generously: a zone's year starts within a day of UTC's.
  const widest = limits.year !== undefined ? 367 : limits.month !== undefined ? 32 : limits.week !== undefined ? 8 : limits.day !== undefined ? 1 : 0;
  return { start: Math.min(from, start - widest * DAY - DAY), end: Math.max(to, end + widest * DAY + DAY) };
}

/**
 * What the hosts' time looks like over the span (readSpan's): their weeks, and what takes their
 * time, less the booking being moved. Only `onlyHost` when given (a booking keeps its host when
 * it moves, and is checked again under its host's lock).
 */
async function availabilityOf(ctx: PlatformContext, et: BookableEventType, span: Interval, exceptUid?: string, onlyHost?: string): Promise<HostAvailability[]> {
  const { api } = ctx.stores;
  const owner = onlyHost !== undefined ? { userId: onlyHost } : et.userId !== null ? { userId: et.userId } : { teamId: et.teamId! };
  const hosts = await api.slots.hosts(owner);
  const ids = hosts.map((h) => h.id);
  return availabilityFrom(hosts, await api.slots.bookings(ids, span.start, span.end, exceptUid), await api.slots.away(ids, span.start, span.end));
}

/** The hosts' weeks (their default schedule's, or Cal.com's default week in their zone) with what takes their time. */
function availabilityFrom(hosts: SlotHost[], bookingTimes: HostTime[], awayTimes: HostTime[]): HostAvailability[] {
  const taken = byHost(bookingTimes);
  const away = byHost(awayTimes);
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
 * The event type's rules for its slots (docs/integrating.md#slot-rules): its interval (the
 * length when it sets none), buffers, window (its days counted in the first host's zone), limits
 * and seats, its limits of minutes, its offset, and whether only each date's first slot (in
 * the first host's zone) is offered.
 */
function rulesOf(et: BookableEventType, now: number, hosts: HostAvailability[]): SlotRules {
  return {
    lengthMinutes: et.lengthMinutes,
    intervalMinutes: et.slotInterval ?? et.lengthMinutes,
    minimumNoticeMinutes: et.minimumBookingNotice,
    beforeBufferMinutes: et.beforeEventBuffer,
    afterBufferMinutes: et.afterEventBuffer,
    window: windowRule(et.bookingWindow, now, hosts[0]?.timeZone ?? 'UTC', MAX_PERIOD_DAYS),
    eventTypeId: et.id,
    limits: et.bookingLimitsCount,
    seatsPerSlot: et.seats?.perTimeSlot ?? null,
    durationLimits: et.bookingLimitsDuration,
    offsetMinutes: et.offsetStart,
    firstSlotOfDayIn: et.onlyShowFirstAvailableSlot ? (hosts[0]?.timeZone ?? 'UTC') : null,
  };
}

const hostRuleOf = (et: BookableEventType): HostRule => (et.schedulingType === 'roundRobin' ? 'any' : 'all');

/** A team event type every member hosts together: its bookings take each member's time (docs/integrating.md#finding-a-slot-and-booking-it). */
export const isCollective = (et: BookableEventType): boolean => et.teamId !== null && et.schedulingType !== 'roundRobin';

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
  /** Only this host's time: the booking's chosen host, checked again under their lock. */
  onlyHost?: string;
}

/**
 * The slot a booking at `start` takes, with the hosts free for it, when `start` is a slot GET
 * /v2/slots would offer (the same reads and the same computation); otherwise the refusal saying
 * why (docs/rules.md#booking-availability): 400 naming start, or 409 when what is booked keeps
 * it (a booking, its buffers, a full slot, a reached limit). Asked first to refuse early, then
 * again inside the booking's transaction under the host's lock (`onlyHost`,
 * ARCHITECTURE.md#single-use-is-atomic): that second answer is the guard against a concurrent
 * booking, seats and limits included.
 */
export async function requireSlot(ctx: PlatformContext, request: SlotRequest): Promise<Slot> {
  const { eventType: et, start, reschedule } = request;
  const now = ctx.clock();
  const span = readSpan(et, start, start, now);
  // A moved booking keeps its host; a collective one needs every member free again, as when made.
  const only = reschedule !== undefined && !isCollective(et) ? reschedule.hostId : request.onlyHost;
  const hosts = await availabilityOf(ctx, et, span, reschedule?.uid, only);
  // A host alone keeps a moved round-robin booking: their own time decides, as for one host.
  const rule = only !== undefined ? 'all' : hostRuleOf(et);
  if (hosts.length === 0) throw conflict('the team has no member who could host this booking');
  const held = await ctx.stores.api.slotReservations.liveOverlapping(et.id, span.start, span.end, now, request.reservationUid);
  const checked = checkStart(hosts, rulesOf(et, now, hosts), start, now, rule, held);
  if ('slot' in checked) return checked.slot;
  throw refusalOf(checked.refusal, et, hosts.length > 1 ? 'one of the hosts' : 'the host', request.field ?? 'start');
}

/**
 * Why `hostId` cannot take an existing booking of the event type handed to them (a
 * reassignment), or null when they can: the slot check of their own time, as a booking of them
 * is asked (their hours, time off, bookings with the buffers both sides, a full seated slot,
 * their limits of bookings and of minutes), the booking itself set aside. What concerned the
 * booker when it was made is not asked again: the notice, the window, where starts fall (each
 * host's hours have a grid of their own; the offset; each date's first slot).
 */
export async function hostRefusal(ctx: PlatformContext, et: BookableEventType, booking: { uid: string; start: number }, hostId: string): Promise<SlotRefusal | null> {
  const now = Math.min(ctx.clock(), booking.start);
  const span = readSpan(et, booking.start, booking.start, now);
  const hosts = await availabilityOf(ctx, et, span, booking.uid, hostId);
  if (hosts.length === 0) return { reason: 'busy', hostId };
  const rules: SlotRules = { ...rulesOf(et, now, hosts), minimumNoticeMinutes: 0, window: null, intervalMinutes: 1, offsetMinutes: 0, firstSlotOfDayIn: null };
  const checked = checkStart(hosts, rules, booking.start, now, 'all');
  return 'slot' in checked ? null : checked.refusal;
}

/** hostRefusal as the refusal a reassignment gets, naming the member. */
export async function requireHostFor(ctx: PlatformContext, et: BookableEventType, booking: { uid: string; start: number }, hostId: string, field: 'userId' | 'start'): Promise<void> {
  const refusal = await hostRefusal(ctx, et, booking, hostId);
  if (refusal !== null) throw refusalOf(refusal, et, 'that member', field);
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

const PERIOD_WORDS = { day: 'a day', week: 'a week (from Monday)', month: 'a month', year: 'a year' };

function refusalOf(refusal: SlotRefusal, et: BookableEventType, host: string, field: 'start' | 'slotStart' | 'userId'): Error {
  const invalid = (words: string) => validation(`${field}: ${words}`, field);
  switch (refusal.reason) {
    case 'past':
      return invalid('must be in the future');
    case 'notice':
      return invalid(`must be at least ${refusal.minutes} minutes from now`);
    case 'window':
      return invalid(`is ${refusal.before ? 'before' : 'beyond'} the booking window (${windowWords(et.bookingWindow!)}); ${SEE_SLOTS}`);
    case 'day_off':
      return invalid(`${refusal.date} is a day off for ${host} (${refusal.timeZone}); ${SEE_SLOTS}`);
    case 'outside_hours':
      return invalid(`${refusal.local} (${refusal.timeZone}) is outside the working hours of ${host}; ${SEE_SLOTS}`);
    case 'off_grid':
      return invalid(`is not a slot: this event type's slots start every ${refusal.stepMinutes} minutes from ${et.offsetStart > 0 ? `${et.offsetStart} minutes after ` : ''}the start of the working hours; ${SEE_SLOTS}`);
    case 'away':
      return invalid(`${host} is out of office at that time; ${SEE_SLOTS}`);
    case 'held':
      return conflict(heldMessage(field));
    case 'busy':
      return conflict(field === 'start' ? HOST_BUSY : `${field}: the host is not available at that time`);
    case 'buffer':
      return conflict(`${field}: too close to another booking of ${host}: the buffers around bookings keep that time free (this event type's: ${refusal.beforeMinutes} minutes before, ${refusal.afterMinutes} after); ${SEE_SLOTS}`);
    case 'full':
      return conflict(`${field}: the slot is full: its ${refusal.seats} seats are taken; ${SEE_SLOTS}`);
    case 'limit':
      return conflict(`${field}: the booking limit is reached: ${host} takes at most ${refusal.limit} booking${refusal.limit === 1 ? '' : 's'} of this event type ${PERIOD_WORDS[refusal.period]}; ${SEE_SLOTS}`);
    case 'duration_limit':
      return conflict(`${field}: the booking limit is reached: ${host} takes at most ${refusal.limitMinutes} minutes of bookings of this event type ${PERIOD_WORDS[refusal.period]} (${refusal.takenMinutes} are booked); ${SEE_SLOTS}`);
    case 'not_first':
      return invalid(`is not offered: this event type offers only the first free slot of each day, ${isoInZone(refusal.first, refusal.timeZone).slice(0, 16).replace('T', ' ')} (${refusal.timeZone}) for that day; ${SEE_SLOTS}`);
  }
}

/** A booking takes the host's time: the answer when another booking holds it (the race's loser gets it too). */
export const HOST_BUSY = 'start: the host is not available at that time';

function byHost<T extends HostTime>(times: T[]): Map<string, HostBooking[]> {
  const out = new Map<string, HostBooking[]>();
  for (const { hostId: _hostId, ...t } of times) {
    const list = out.get(_hostId);
    if (list === undefined) out.set(_hostId, [t]);
    else list.push(t);
  }
  return out;
}

function ownerOf(ref: Exclude<EventTypeRef, { id: string } | { usernames: string[] }>): { username: string } | { teamSlug: string } {
  return 'username' in ref ? { username: ref.username } : { teamSlug: ref.teamSlug };
}

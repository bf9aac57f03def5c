// The free slots of an event type (docs/integrating.md#slots): which event type, who hosts
// it, and what takes their time, read in a fixed number of statements (the event type, its
// hosts with their schedules, their bookings, their time off) whatever the number of hosts or
// bookings; compute.ts decides which times are free.
import { notFound, validation } from '../authorization-server.ts';
import type { PlatformContext } from '../stores.ts';
import { DEFAULT_WEEK, freeSlots, type HostAvailability, type Interval, type Slot } from './compute.ts';
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
  const { bookings, api } = ctx.stores;
  const id = 'id' in query.eventType ? query.eventType.id : await bookings.findEventTypeIdBySlug(query.eventType.slug, ownerOf(query.eventType), query.eventType.organizationSlug);
  const et = id === undefined ? undefined : await bookings.findEventType(id);
  // A hidden event type is booked only through its private link (docs/rules.md#public-booking):
  // without it, it is as absent here as it is to booking.
  if (et === undefined || et.hidden) throw notFound('no such event type');
  if (query.durationMinutes !== undefined && query.durationMinutes !== et.lengthMinutes) {
    throw validation(`duration: this event type lasts ${et.lengthMinutes} minutes and offers no other length`, 'duration');
  }
  const hosts = await api.slots.hosts(et.userId !== null ? { userId: et.userId } : { teamId: et.teamId! });
  const ids = hosts.map((h) => h.id);
  // A day either side: a slot starting at the period's edge still meets a booking or time off beyond it.
  const from = query.start - DAY;
  const to = query.end + et.lengthMinutes * 60_000 + DAY;
  const taken = byHost(await api.slots.bookings(ids, from, to, query.bookingUidToReschedule));
  const away = byHost(await api.slots.away(ids, from, to));
  const availability: HostAvailability[] = hosts.map((h) => ({
    hostId: h.id,
    timeZone: h.schedule?.timeZone ?? h.timeZone,
    weeklyHours: h.schedule?.availability ?? DEFAULT_WEEK,
    overrides: h.schedule?.overrides ?? [],
    bookings: taken.get(h.id) ?? [],
    away: away.get(h.id) ?? [],
  }));
  // The event type holds no slot interval, buffers or booking window yet: Cal.com's defaults
  // (the length, none, none).
  const rules = { lengthMinutes: et.lengthMinutes, intervalMinutes: et.lengthMinutes, minimumNoticeMinutes: et.minimumBookingNotice, beforeBufferMinutes: 0, afterBufferMinutes: 0, windowDays: null };
  const slots = freeSlots(availability, rules, { start: query.start, end: query.end }, now, et.schedulingType === 'roundRobin' ? 'any' : 'all');
  return { slots, lengthMinutes: et.lengthMinutes };
}

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

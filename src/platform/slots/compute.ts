// What makes a slot (docs/integrating.md#slots), as one pure function of the data: no store,
// no clock of its own, no framework. service.ts reads the data and hands it here; the unit
// tests call it with the world's data and fixed instants.
import type { BookingLimits } from '../event-types/store.ts';
import { dateIn, instantAt, isoInZone, nextDay, startOfDay, weekdayOf } from '../zoned-days.ts';

/** Half-open [start, end), epoch milliseconds. */
export interface Interval {
  start: number;
  end: number;
}

export interface WeeklyHours {
  /** Monday … Sunday. */
  days: string[];
  /** HH:MM in the schedule's zone; endTime may be 24:00. */
  startTime: string;
  endTime: string;
}

export interface DateOverride {
  /** YYYY-MM-DD in the schedule's zone. */
  date: string;
  startTime: string;
  endTime: string;
}

/** A booking of the host's: which event type's tells its seats and its limits (docs/integrating.md#slot-rules). */
export interface HostBooking extends Interval {
  uid?: string;
  eventTypeId?: string | null;
  /** Its own event type's buffers, which keep the time around it too (both sides: its and the new slot's). */
  beforeBufferMinutes?: number;
  afterBufferMinutes?: number;
}

/** A booking with the time its own event type's buffers keep around it. */
const withBuffers = (b: HostBooking): Interval => ({ start: b.start - (b.beforeBufferMinutes ?? 0) * MINUTE, end: b.end + (b.afterBufferMinutes ?? 0) * MINUTE });

/** A host's week and what takes their time, as service.ts reads it. */
export interface HostAvailability {
  hostId: string;
  /** The zone the hours are written in: the schedule's, or the host's own for Cal.com's default week. */
  timeZone: string;
  weeklyHours: readonly WeeklyHours[];
  /** Each date named here has these hours instead of its weekday's; 00:00-00:00 is a day off. */
  overrides: DateOverride[];
  /** Accepted and pending bookings (less the one being rescheduled): buffers keep clear of them. */
  bookings: HostBooking[];
  /** Out-of-office entries. */
  away: Interval[];
}

/** The event type's rules for its slots; minutes throughout. */
export interface SlotRules {
  lengthMinutes: number;
  /** Distance between two starts; the length when the event type sets none (Cal.com's default). */
  intervalMinutes: number;
  minimumNoticeMinutes: number;
  beforeBufferMinutes: number;
  afterBufferMinutes: number;
  /** The booking window (window.ts makes it of the event type's); null for none. */
  window: WindowRule | null;
  /** The event type's own id: its bookings share a seated slot and count against its limits. */
  eventTypeId?: string;
  /** Bookings of the event type a host takes per day, week (from Monday), month and year, in the host's zone. */
  limits?: BookingLimits | null;
  /** Bookers a slot takes; absent or null: one. */
  seatsPerSlot?: number | null;
  /** Minutes of the event type's bookings a host takes per day, week (from Monday), month and year, in the host's zone. */
  durationLimits?: BookingLimits | null;
  /** Minutes each start is shifted by from the start of the hours (Cal.com's offsetStart). */
  offsetMinutes?: number;
  /** Only the first free slot of each date in this zone is offered (Cal.com's onlyShowFirstAvailableSlot); absent or null: every one. */
  firstSlotOfDayIn?: string | null;
}

/**
 * Which starts the window lets in: those in [start, end] (a window of days counted from today,
 * or of dates), or those on the first `days` dates in the zone that have a free slot, looked for
 * up to horizonEnd (a rolling window).
 */
export type WindowRule = { kind: 'fixed'; start: number; end: number } | { kind: 'rolling'; days: number; businessDays: boolean; timeZone: string; horizonEnd: number };


/**
 * Who must be free: the one host of a personal event type, every host of a collective team
 * event type, any host of a round-robin one.
 */
export type HostRule = 'all' | 'any';

export interface Slot {
  start: number;
  end: number;
  /** The hosts free for it: all of them for `all`, those who could take it for `any`; for seats, the host whose booking it joins first. */
  hostIds: string[];
  /** A seated slot: the seats its booking has taken, and that booking's uid once it has one. */
  attendeesCount?: number;
  bookingUid?: string;
}

/** Cal.com's default week for a host with no schedule: Monday to Friday, 09:00-17:00 in their zone. */
export { DEFAULT_WEEK } from '../schedules/default-week.ts';

const WEEK_DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const MINUTE = 60_000;
const DAY = 86_400_000;

/**
 * The free slots whose start lies in [period.start, period.end], by start: each on the grid of
 * the working hours it falls in (starts every `intervalMinutes` from the hours' start), its
 * length inside the hours, at least the notice after `now`, within the window, clear of the
 * hosts' time off and of their bookings widened by the buffers, with a seat left and the
 * host's limits not reached (docs/integrating.md#slot-rules).
 */
export function freeSlots(hosts: HostAvailability[], rules: SlotRules, period: Interval, now: number, rule: HostRule, held: Interval[] = []): Slot[] {
  if (hosts.length === 0 || period.end < period.start) return [];
  const zone = rules.firstSlotOfDayIn;
  if (zone) {
    // Whether a start is its date's first free one is read from the date's start on.
    const all = freeSlots(hosts, { ...rules, firstSlotOfDayIn: null }, { start: Math.min(period.start, startOfDay(dateIn(period.start, zone), zone)), end: period.end }, now, rule, held);
    const dates = new Set<string>();
    return all.filter((slot) => {
      const date = dateIn(slot.start, zone);
      if (dates.has(date)) return false;
      dates.add(date);
      return slot.start >= period.start;
    });
  }
  const bounds = windowBounds(hosts, rules, now, rule, held);
  const length = rules.lengthMinutes * MINUTE;
  const step = Math.max(1, rules.intervalMinutes) * MINUTE;
  const offset = (rules.offsetMinutes ?? 0) * MINUTE;
  const earliest = Math.max(period.start, now + rules.minimumNoticeMinutes * MINUTE, bounds.start);
  const latest = Math.min(period.end, bounds.end);
  if (latest < earliest) return [];
  // The hours are read a day either side of the period: a zone far from UTC has working hours
  // on a date the period's instants do not name.
  const span = { start: earliest - DAY, end: latest + length + DAY };
  const hours = new Map(hosts.map((h) => [h.hostId, workingHours(h, span)]));
  const time = hostTime(hosts, rules, held);

  // Collective: the grid runs over the hours every host shares; round robin: over each host's own.
  const grids = rule === 'all' ? [hosts.map((h) => hours.get(h.hostId)!).reduce(intersect)] : hosts.map((h) => hours.get(h.hostId)!);
  const starts = new Set<number>();
  for (const ranges of grids) {
    for (const range of ranges) {
      for (let t = range.start + offset; t + length <= range.end; t += step) {
        if (t >= earliest && t <= latest) starts.add(t);
      }
    }
  }
  const slots: Slot[] = [];
  for (const start of [...starts].sort((x, y) => x - y)) {
    // docs/integrating.md#slot-reservations: a slot another booker holds is offered to nobody else (a seated one, one seat less).
    if (time.heldOff(start)) continue;
    const free = hosts.filter((h) => within(hours.get(h.hostId)!, start, start + length) && time.blockedBy(h, start) === null).map((h) => h.hostId);
    if (rule === 'all' ? free.length !== hosts.length : free.length === 0) continue;
    slots.push(rules.seatsPerSlot ? time.seated(start, free) : { start, end: start + length, hostIds: free });
  }
  return slots;
}

/** The instants the window lets a start take (docs/integrating.md#slot-rules); all of them without one. */
function windowBounds(hosts: HostAvailability[], rules: SlotRules, now: number, rule: HostRule, held: Interval[]): Interval {
  const w = rules.window;
  if (w === null) return { start: -Infinity, end: Infinity };
  if (w.kind === 'fixed') return { start: w.start, end: w.end };
  // Rolling: the window ends with the `days`-th date (a business day, for business days) that
  // has a free slot; looked for a week at a time, as it is most often found in the first.
  let counted = 0;
  let last = '';
  for (let from = now; from <= w.horizonEnd; from += 7 * DAY) {
    const week = { start: from, end: Math.min(from + 7 * DAY - 1, w.horizonEnd) };
    for (const slot of freeSlots(hosts, { ...rules, window: null }, week, now, rule, held)) {
      const date = dateIn(slot.start, w.timeZone);
      if (date === last || (w.businessDays && weekdayOf(date) >= 5)) continue;
      last = date;
      counted += 1;
      if (counted === w.days) return { start: -Infinity, end: startOfDay(nextDay(date), w.timeZone) - 1 };
    }
  }
  return { start: -Infinity, end: w.horizonEnd };
}

/**
 * What takes the hosts' time, read once for a computation: their time off, their bookings
 * (for a seated event type, its own apart: they share their slot), the holds, and the bookings
 * of the event type each host's limits count.
 */
function hostTime(hosts: HostAvailability[], rules: SlotRules, held: Interval[]) {
  const length = rules.lengthMinutes * MINUTE;
  const before = rules.beforeBufferMinutes * MINUTE;
  const after = rules.afterBufferMinutes * MINUTE;
  const seats = rules.seatsPerSlot ?? null;
  const own = (b: HostBooking) => rules.eventTypeId !== undefined && b.eventTypeId === rules.eventTypeId;
  const perHost = new Map(
    hosts.map((h) => {
      const seatsOf = seats === null ? [] : h.bookings.filter(own);
      const others = seats === null ? h.bookings : h.bookings.filter((b) => !own(b));
      return [
        h.hostId,
        {
          away: merge(h.away),
          // A seated slot's bookings take the time of every other start, not their own.
          others: merge(others),
          othersBuffered: merge(others.map(withBuffers)),
          seatsOf,
          counted: rules.limits ? countedByPeriod(h.bookings.filter(own), h.timeZone) : new Map<string, Set<number>>(),
          booked: rules.durationLimits ? minutesByPeriod(h.bookings.filter(own), h.timeZone) : new Map<string, Map<number, number>>(),
        },
      ];
    }),
  );
  const holds = merge(held);
  const heldAt = (start: number) => held.filter((x) => x.start === start).length;
  const seatsAt = (hostId: string, start: number) => perHost.get(hostId)!.seatsOf.filter((b) => b.start === start);
  /** Whether a seated slot's own bookings, but those at `start`, meet [from, to) (with their buffers, when asked). */
  const ownMeet = (hostId: string, start: number, from: number, to: number, buffered = false) =>
    perHost.get(hostId)!.seatsOf.some((b) => {
      const i = buffered ? withBuffers(b) : b;
      return b.start !== start && i.start < to && i.end > from;
    });

  return {
    /** Whether another's hold keeps the start from everyone: any hold over it, or, when seated, one elsewhere over it or the last seat. */
    heldOff(start: number): boolean {
      if (seats === null) return overlaps(holds, start, start + length);
      return held.some((x) => x.start !== start && x.start < start + length && x.end > start);
    },
    /** Why the host cannot take a booking at `start` (besides their hours), or null when they can: the refusal's reasons in order. */
    blockedBy(h: HostAvailability, start: number): SlotRefusal | null {
      const t = perHost.get(h.hostId)!;
      const end = start + length;
      if (overlaps(t.away, start, end)) return { reason: 'away', hostId: h.hostId };
      if (overlaps(t.others, start, end) || ownMeet(h.hostId, start, start, end)) return { reason: 'busy', hostId: h.hostId };
      if (overlaps(t.othersBuffered, start - before, end + after) || ownMeet(h.hostId, start, start - before, end + after, true)) {
        return { reason: 'buffer', hostId: h.hostId, beforeMinutes: rules.beforeBufferMinutes, afterMinutes: rules.afterBufferMinutes };
      }
      if (seats !== null && seatsAt(h.hostId, start).length + heldAt(start) >= seats) return { reason: 'full', seats };
      for (const period of PERIODS) {
        const limit = rules.limits?.[period];
        if (limit === undefined) continue;
        const starts = t.counted.get(periodKey(period, dateIn(start, h.timeZone)));
        // A seated slot already booked is joined, not booked again: it counts once.
        const taken = starts === undefined ? 0 : starts.size - (starts.has(start) ? 1 : 0);
        if (taken >= limit) return { reason: 'limit', hostId: h.hostId, period, limit };
      }
      for (const period of PERIODS) {
        const limit = rules.durationLimits?.[period];
        if (limit === undefined) continue;
        const minutes = t.booked.get(periodKey(period, dateIn(start, h.timeZone)));
        // A seated slot already booked is joined: its minutes are counted once, already.
        if (minutes?.has(start)) continue;
        const taken = minutes === undefined ? 0 : [...minutes.values()].reduce((sum, m) => sum + m, 0);
        if (taken + rules.lengthMinutes > limit) return { reason: 'duration_limit', hostId: h.hostId, period, limitMinutes: limit, takenMinutes: taken };
      }
      return null;
    },
    /** A seated slot: joined at the free host whose booking has the most seats taken, which is named first. */
    seated(start: number, free: string[]): Slot {
      const taken = free.map((id) => ({ id, bookings: seatsAt(id, start) }));
      const fullest = taken.reduce((best, x) => (x.bookings.length > best.bookings.length ? x : best));
      // By character code, not localeCompare: uids mix cases, and a locale's order folds them,
      // so the booking named would depend on the machine's locale.
      const first = [...fullest.bookings].sort((x, y) => ((x.uid ?? '') < (y.uid ?? '') ? -1 : (x.uid ?? '') > (y.uid ?? '') ? 1 : 0))[0];
      return {
        start,
        end: start + length,
        hostIds: [fullest.id, ...free.filter((id) => id !== fullest.id)],
        attendeesCount: fullest.bookings.length,
        ...(first?.uid !== undefined ? { bookingUid: first.uid } : {}),
      };
    },
  };
}

const PERIODS = ['day', 'week', 'month', 'year'] as const;
type Period = (typeof PERIODS)[number];

/** The period of a date (YYYY-MM-DD) a limit counts in: the date, its week's Monday, its month, its year. */
function periodKey(period: Period, date: string): string {
  switch (period) {
    case 'day':
      return `d${date}`;
    case 'week': {
      const monday = new Date(Date.parse(`${date}T00:00:00Z`) - weekdayOf(date) * DAY).toISOString().slice(0, 10);
      return `w${monday}`;
    }
    case 'month':
      return `m${date.slice(0, 7)}`;
    case 'year':
      return `y${date.slice(0, 4)}`;
  }
}

/** The starts of the event type's bookings by the periods they fall in, in the host's zone (a seated slot's bookings: one start). */
function countedByPeriod(bookings: HostBooking[], timeZone: string): Map<string, Set<number>> {
  const out = new Map<string, Set<number>>();
  for (const b of bookings) {
    const date = dateIn(b.start, timeZone);
    for (const period of PERIODS) {
      const key = periodKey(period, date);
      const starts = out.get(key);
      if (starts === undefined) out.set(key, new Set([b.start]));
      else starts.add(b.start);
    }
  }
  return out;
}

/** The minutes of the event type's bookings by the periods they fall in and their starts, in the host's zone (a seated slot's bookings: once). */
function minutesByPeriod(bookings: HostBooking[], timeZone: string): Map<string, Map<number, number>> {
  const out = new Map<string, Map<number, number>>();
  for (const b of bookings) {
    const date = dateIn(b.start, timeZone);
    for (const period of PERIODS) {
      const key = periodKey(period, date);
      const starts = out.get(key) ?? new Map<number, number>();
      starts.set(b.start, Math.max(starts.get(b.start) ?? 0, (b.end - b.start) / MINUTE));
      out.set(key, starts);
    }
  }
  return out;
}

/** The host's working hours as instants over the span, sorted and merged. */
export function workingHours(host: HostAvailability, span: Interval): Interval[] {
  const overridden = new Map<string, DateOverride[]>();
  for (const o of host.overrides) overridden.set(o.date, [...(overridden.get(o.date) ?? []), o]);
  const ranges: Interval[] = [];
  const last = dateIn(span.end, host.timeZone);
  for (let date = dateIn(span.start, host.timeZone); date <= last; date = nextDay(date)) {
    const day = WEEK_DAYS[weekdayOf(date)]!;
    // An override replaces the date's weekly hours; one of 00:00-00:00 (no time) leaves none.
    const todays = overridden.get(date) ?? host.weeklyHours.filter((h) => h.days.includes(day));
    for (const h of todays) {
      const start = instantAt(date, h.startTime, host.timeZone);
      const end = instantAt(date, h.endTime, host.timeZone);
      if (end > start) ranges.push({ start, end });
    }
  }
  return merge(ranges);
}

/** Sorted by start, touching or overlapping intervals joined. */
function merge(list: Interval[]): Interval[] {
  const sorted = [...list].sort((a, b) => a.start - b.start);
  const out: Interval[] = [];
  for (const i of sorted) {
    const last = out[out.length - 1];
    if (last !== undefined && i.start <= last.end) last.end = Math.max(last.end, i.end);
    else out.push({ ...i });
  }
  return out;
}

/** Where two sorted, merged lists both are. */
function intersect(a: Interval[], b: Interval[]): Interval[] {
  const out: Interval[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const start = Math.max(a[i]!.start, b[j]!.start);
    const end = Math.min(a[i]!.end, b[j]!.end);
    if (start < end) out.push({ start, end });
    if (a[i]!.end < b[j]!.end) i += 1;
    else j += 1;
  }
  return out;
}

/** The first interval of a sorted, merged list that ends after `at` (binary search). */
function firstEndingAfter(list: Interval[], at: number): Interval | undefined {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]!.end <= at) lo = mid + 1;
    else hi = mid;
  }
  return list[lo];
}

function within(list: Interval[], start: number, end: number): boolean {
  const range = firstEndingAfter(list, start);
  return range !== undefined && range.start <= start && end <= range.end;
}

function overlaps(list: Interval[], start: number, end: number): boolean {
  const next = firstEndingAfter(list, start);
  return next !== undefined && next.start < end;
}

/**
 * Why a start is not a slot (docs/rules.md#booking-availability), in the order a booker can
 * act on: when it is (past, too soon, outside the window), then the hours (a day off, outside
 * them), then the grid, then what takes the time (time off, another's hold, bookings, the
 * buffers around them, the seats, the host's limits), and last a free start that is not its
 * date's first when only the first is offered.
 */
export type SlotRefusal =
  | { reason: 'past' }
  | { reason: 'notice'; minutes: number }
  | { reason: 'window'; before: boolean }
  | { reason: 'day_off'; hostId: string; date: string; timeZone: string }
  | { reason: 'outside_hours'; hostId: string; local: string; timeZone: string }
  | { reason: 'off_grid'; stepMinutes: number }
  | { reason: 'away'; hostId: string }
  | { reason: 'held' }
  | { reason: 'busy'; hostId: string }
  | { reason: 'buffer'; hostId: string; beforeMinutes: number; afterMinutes: number }
  | { reason: 'full'; seats: number }
  | { reason: 'limit'; hostId: string; period: Period; limit: number }
  | { reason: 'duration_limit'; hostId: string; period: Period; limitMinutes: number; takenMinutes: number }
  | { reason: 'not_first'; first: number; timeZone: string };

/**
 * Whether `start` is a slot, asked of freeSlots itself (one source of truth: a booking is
 * refused exactly when GET /v2/slots would not offer its start), and when it is not, why.
 * Returns the slot, or the first refusal that explains it.
 */
export function checkStart(hosts: HostAvailability[], rules: SlotRules, start: number, now: number, rule: HostRule, held: Interval[] = []): { slot: Slot } | { refusal: SlotRefusal } {
  const [slot] = freeSlots(hosts, rules, { start, end: start }, now, rule, held);
  if (slot !== undefined && slot.start === start) return { slot };
  const zone = rules.firstSlotOfDayIn;
  if (zone) {
    const every = checkStart(hosts, { ...rules, firstSlotOfDayIn: null }, start, now, rule, held);
    if ('refusal' in every) return every;
    // Free, but an earlier start of its date is too: that one is the date's slot.
    const [first] = freeSlots(hosts, rules, { start: startOfDay(dateIn(start, zone), zone), end: start }, now, rule, held);
    return { refusal: { reason: 'not_first', first: first!.start, timeZone: zone } };
  }
  return { refusal: explain(hosts, rules, start, now, rule, held) };
}

/** The reason freeSlots left `start` out; checkStart asks it only for a start it did. */
function explain(hosts: HostAvailability[], rules: SlotRules, start: number, now: number, rule: HostRule, held: Interval[]): SlotRefusal {
  if (start < now) return { reason: 'past' };
  if (start < now + rules.minimumNoticeMinutes * MINUTE) return { reason: 'notice', minutes: rules.minimumNoticeMinutes };
  const bounds = windowBounds(hosts, rules, now, rule, held);
  if (start < bounds.start || start > bounds.end) return { reason: 'window', before: start < bounds.start };
  const length = rules.lengthMinutes * MINUTE;
  const end = start + length;
  const span = { start: start - DAY, end: end + DAY };
  const hours = new Map(hosts.map((h) => [h.hostId, workingHours(h, span)]));
  // Collective: the first host whose hours miss it; round robin: the first host's, when none has it.
  const outside = hosts.filter((h) => !within(hours.get(h.hostId)!, start, end));
  if (outside.length > 0 && (rule === 'all' || outside.length === hosts.length)) {
    const h = outside[0]!;
    const date = dateIn(start, h.timeZone);
    // Read over that one date: its weekday's hours or its override, none on a day off.
    const dayStart = startOfDay(date, h.timeZone);
    if (workingHours(h, { start: dayStart, end: dayStart }).length === 0) return { reason: 'day_off', hostId: h.hostId, date, timeZone: h.timeZone };
    return { reason: 'outside_hours', hostId: h.hostId, local: isoInZone(start, h.timeZone).slice(0, 16).replace('T', ' '), timeZone: h.timeZone };
  }
  // Inside the hours of the hosts who count, yet not offered for its time: a start off the grid,
  // unless what takes a host's time keeps it (hostTime's tests, in their order).
  const step = Math.max(1, rules.intervalMinutes) * MINUTE;
  const candidates = hosts.filter((h) => within(hours.get(h.hostId)!, start, end));
  const gridRanges = rule === 'all' ? [hosts.map((h) => hours.get(h.hostId)!).reduce(intersect)] : candidates.map((h) => hours.get(h.hostId)!);
  const onGrid = gridRanges.some((ranges) => {
    const range = firstEndingAfter(ranges, start);
    const offset = (rules.offsetMinutes ?? 0) * MINUTE;
    return range !== undefined && range.start + offset <= start && (start - range.start - offset) % step === 0;
  });
  if (!onGrid) return { reason: 'off_grid', stepMinutes: Math.max(1, rules.intervalMinutes) };
  const time = hostTime(hosts, rules, held);
  const reasons = candidates.map((h) => time.blockedBy(h, start));
  // Time off first, as a booker can do nothing about it; then another's hold; then the host's own reason.
  const away = reasons.find((r) => r?.reason === 'away');
  if (away && (rule === 'all' || reasons.every((r) => r?.reason === 'away'))) return away;
  if (time.heldOff(start)) return { reason: 'held' };
  return reasons.find((r) => r !== null) ?? { reason: 'busy', hostId: candidates[0]!.hostId };
}

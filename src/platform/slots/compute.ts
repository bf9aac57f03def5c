// What makes a slot (docs/integrating.md#slots), as one pure function of the data: no store,
// no clock of its own, no framework. service.ts reads the data and hands it here; the unit
// tests call it with the world's data and fixed instants.
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

/** A host's week and what takes their time, as service.ts reads it. */
export interface HostAvailability {
  hostId: string;
  /** The zone the hours are written in: the schedule's, or the host's own for Cal.com's default week. */
  timeZone: string;
  weeklyHours: WeeklyHours[];
  /** Each date named here has these hours instead of its weekday's; 00:00-00:00 is a day off. */
  overrides: DateOverride[];
  /** Accepted and pending bookings (less the one being rescheduled): buffers keep clear of them. */
  bookings: Interval[];
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
  /** How far ahead a start may be, counted from now; null for no limit. */
  windowDays: number | null;
}

/**
 * Who must be free: the one host of a personal event type, every host of a collective team
 * event type, any host of a round-robin one.
 */
export type HostRule = 'all' | 'any';

export interface Slot {
  start: number;
  end: number;
  /** The hosts free for it: all of them for `all`, those who could take it for `any`. */
  hostIds: string[];
}

/** Cal.com's default week for a host with no schedule: Monday to Friday, 09:00-17:00 in their zone. */
export const DEFAULT_WEEK: WeeklyHours[] = [{ days: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'], startTime: '09:00', endTime: '17:00' }];

const WEEK_DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const MINUTE = 60_000;
const DAY = 86_400_000;

/**
 * The free slots whose start lies in [period.start, period.end], by start: each on the grid of
 * the working hours it falls in (starts every `intervalMinutes` from the hours' start), its
 * length inside the hours, at least the notice after `now`, within the window, and clear of
 * the hosts' time off and of their bookings widened by the buffers.
 */
export function freeSlots(hosts: HostAvailability[], rules: SlotRules, period: Interval, now: number, rule: HostRule, held: Interval[] = []): Slot[] {
  if (hosts.length === 0 || period.end < period.start) return [];
  const length = rules.lengthMinutes * MINUTE;
  const step = Math.max(1, rules.intervalMinutes) * MINUTE;
  const earliest = Math.max(period.start, now + rules.minimumNoticeMinutes * MINUTE);
  const latest = rules.windowDays === null ? period.end : Math.min(period.end, now + rules.windowDays * DAY);
  if (latest < earliest) return [];
  // The hours are read a day either side of the period: a zone far from UTC has working hours
  // on a date the period's instants do not name.
  const span = { start: earliest - DAY, end: latest + length + DAY };
  const hours = new Map(hosts.map((h) => [h.hostId, workingHours(h, span)]));
  const blocked = new Map(hosts.map((h) => [h.hostId, { bookings: merge(h.bookings), away: merge(h.away) }]));
  const freeAt = (hostId: string, start: number): boolean => {
    const end = start + length;
    const b = blocked.get(hostId)!;
    return within(hours.get(hostId)!, start, end) && !overlaps(b.bookings, start - rules.beforeBufferMinutes * MINUTE, end + rules.afterBufferMinutes * MINUTE) && !overlaps(b.away, start, end);
  };

  // Collective: the grid runs over the hours every host shares; round robin: over each host's own.
  const grids = rule === 'all' ? [hosts.map((h) => hours.get(h.hostId)!).reduce(intersect)] : hosts.map((h) => hours.get(h.hostId)!);
  const starts = new Set<number>();
  for (const ranges of grids) {
    for (const range of ranges) {
      for (let t = range.start; t + length <= range.end; t += step) {
        if (t >= earliest && t <= latest) starts.add(t);
      }
    }
  }
  // docs/integrating.md#slot-reservations: a slot another booker holds is offered to nobody else.
  const holds = merge(held);
  const slots: Slot[] = [];
  for (const start of [...starts].sort((a, b) => a - b)) {
    if (overlaps(holds, start, start + length)) continue;
    const free = hosts.filter((h) => freeAt(h.hostId, start)).map((h) => h.hostId);
    if (rule === 'all' ? free.length === hosts.length : free.length > 0) slots.push({ start, end: start + length, hostIds: free });
  }
  return slots;
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
 * act on: when it is (past, too soon, beyond the window), then the hours (a day off, outside
 * them), then the grid, then what takes the time (time off, another's hold, bookings).
 */
export type SlotRefusal =
  | { reason: 'past' }
  | { reason: 'notice'; minutes: number }
  | { reason: 'window'; days: number }
  | { reason: 'day_off'; hostId: string; date: string; timeZone: string }
  | { reason: 'outside_hours'; hostId: string; local: string; timeZone: string }
  | { reason: 'off_grid'; stepMinutes: number }
  | { reason: 'away'; hostId: string }
  | { reason: 'held' }
  | { reason: 'busy'; hostId: string };

/**
 * Whether `start` is a slot, asked of freeSlots itself (one source of truth: a booking is
 * refused exactly when GET /v2/slots would not offer its start), and when it is not, why.
 * Returns the slot, or the first refusal that explains it.
 */
export function checkStart(hosts: HostAvailability[], rules: SlotRules, start: number, now: number, rule: HostRule, held: Interval[] = []): { slot: Slot } | { refusal: SlotRefusal } {
  const [slot] = freeSlots(hosts, rules, { start, end: start }, now, rule, held);
  if (slot !== undefined && slot.start === start) return { slot };
  return { refusal: explain(hosts, rules, start, now, rule, held) };
}

/** The reason freeSlots left `start` out; checkStart asks it only for a start it did. */
function explain(hosts: HostAvailability[], rules: SlotRules, start: number, now: number, rule: HostRule, held: Interval[]): SlotRefusal {
  if (start < now) return { reason: 'past' };
  if (start < now + rules.minimumNoticeMinutes * MINUTE) return { reason: 'notice', minutes: rules.minimumNoticeMinutes };
  if (rules.windowDays !== null && start > now + rules.windowDays * DAY) return { reason: 'window', days: rules.windowDays };
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
  // unless a host's time off or bookings keep it (freeAt's two other tests, in its order).
  const step = Math.max(1, rules.intervalMinutes) * MINUTE;
  const candidates = hosts.filter((h) => within(hours.get(h.hostId)!, start, end));
  const gridRanges = rule === 'all' ? [hosts.map((h) => hours.get(h.hostId)!).reduce(intersect)] : candidates.map((h) => hours.get(h.hostId)!);
  const onGrid = gridRanges.some((ranges) => {
    const range = firstEndingAfter(ranges, start);
    return range !== undefined && range.start <= start && (start - range.start) % step === 0;
  });
  if (!onGrid) return { reason: 'off_grid', stepMinutes: Math.max(1, rules.intervalMinutes) };
  const awayHost = candidates.find((h) => overlaps(merge(h.away), start, end));
  if (awayHost !== undefined && (rule === 'all' || candidates.every((h) => overlaps(merge(h.away), start, end)))) return { reason: 'away', hostId: awayHost.hostId };
  if (overlaps(merge(held), start, end)) return { reason: 'held' };
  const busyHost = candidates.find((h) => overlaps(merge(h.bookings), start - rules.beforeBufferMinutes * MINUTE, end + rules.afterBufferMinutes * MINUTE)) ?? candidates[0]!;
  return { reason: 'busy', hostId: busyHost.hostId };
}

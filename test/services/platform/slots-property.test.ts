// A property of the slot computation (src/platform/slots/compute.ts, docs/integrating.md#slots)
// on random schedules, overrides, bookings and time off, in zones with daylight-saving changes
// inside the period: every slot offered lies in the host's hours and clear of what takes their
// time (no booked time is offered), and every start of the hours' grid that is clear is
// offered (nothing free is withheld). The check is written naively, interval by interval.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { freeSlots, workingHours, type HostAvailability, type Interval, type SlotRules } from '../../../src/platform/slots/compute.ts';

const MINUTE = 60_000;
const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
// Ten days around Europe's spring-forward night (31 March 2030); Lord Howe moves by half an hour.
const PERIOD_START = Date.parse('2030-03-27T00:00:00Z');
const PERIOD_DAYS = 10;
const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe'];

const hhmm = (quarter: number) => `${String(Math.floor(quarter / 4)).padStart(2, '0')}:${String((quarter % 4) * 15).padStart(2, '0')}`;
/** Working hours as quarter-hours of the day, start before end (96 is 24:00). */
const hoursArb = fc.tuple(fc.integer({ min: 0, max: 95 }), fc.integer({ min: 1, max: 96 })).map(([a, b]): [number, number] => (a < b ? [a, b] : [b - 1, a + 1]));
const intervalArb = fc.tuple(fc.integer({ min: 0, max: PERIOD_DAYS * 24 * 4 }), fc.integer({ min: 1, max: 24 })).map(([q, len]): Interval => ({ start: PERIOD_START + q * 15 * MINUTE, end: PERIOD_START + (q + len) * 15 * MINUTE }));

const hostArb = fc.record({
  timeZone: fc.constantFrom(...ZONES),
  weeklyHours: fc.array(fc.record({ days: fc.subarray(DAYS, { minLength: 1 }), hours: hoursArb }), { maxLength: 3 }),
  overrides: fc.array(fc.record({ day: fc.integer({ min: 0, max: PERIOD_DAYS - 1 }), hours: fc.option(hoursArb) }), { maxLength: 3 }),
  bookings: fc.array(intervalArb, { maxLength: 8 }),
  away: fc.array(intervalArb, { maxLength: 2 }),
});

const rulesArb = fc.record({
  lengthMinutes: fc.constantFrom(15, 30, 45, 60, 90),
  intervalMinutes: fc.constantFrom(15, 30, 60),
  minimumNoticeMinutes: fc.constantFrom(0, 120, 2 * 24 * 60),
  beforeBufferMinutes: fc.constantFrom(0, 10, 30),
  afterBufferMinutes: fc.constantFrom(0, 15),
  // A fixed window ending five days after the period starts, or none (window.ts makes an event type's; the rolling one is slots-rules.test.ts's).
  window: fc.constantFrom(null, { kind: 'fixed' as const, start: -Infinity, end: PERIOD_START + 5 * 86_400_000 }),
});

type RawHost = typeof hostArb extends fc.Arbitrary<infer T> ? T : never;

function toHost(id: string, h: RawHost): HostAvailability {
  return {
    hostId: id,
    timeZone: h.timeZone,
    weeklyHours: h.weeklyHours.map((w) => ({ days: w.days, startTime: hhmm(w.hours[0]), endTime: hhmm(w.hours[1]) })),
    // An override without hours is a day off: 00:00-00:00.
    overrides: h.overrides.map((o) => ({
      date: new Date(PERIOD_START + o.day * 86_400_000).toISOString().slice(0, 10),
      startTime: o.hours === null ? '00:00' : hhmm(o.hours[0]),
      endTime: o.hours === null ? '00:00' : hhmm(o.hours[1]),
    })),
    bookings: h.bookings,
    away: h.away,
  };
}

const overlapsAny = (list: Interval[], start: number, end: number) => list.some((i) => i.start < end && start < i.end);

describe('slot computation, on random data', () => {
  it('offers exactly the clear starts of the hours’ grid: no booked or away time, nothing outside the hours, nothing free withheld', () => {
    fc.assert(
      fc.property(fc.array(hostArb, { minLength: 1, maxLength: 3 }), rulesArb, fc.constantFrom<'all' | 'any'>('all', 'any'), fc.integer({ min: -2 * 24 * 60, max: 3 * 24 * 60 }), (raw, rules: SlotRules, rule, nowOffset) => {
        const hosts = raw.map((h, i) => toHost(`h${i}`, h));
        const now = PERIOD_START + nowOffset * MINUTE;
        const period = { start: PERIOD_START, end: PERIOD_START + PERIOD_DAYS * 86_400_000 - 1 };
        const slots = freeSlots(hosts, rules, period, now, rule);
        const length = rules.lengthMinutes * MINUTE;
        const span = { start: period.start - 2 * 86_400_000, end: period.end + 2 * 86_400_000 };
        const hours = new Map(hosts.map((h) => [h.hostId, workingHours(h, span)]));
        const earliest = Math.max(period.start, now + rules.minimumNoticeMinutes * MINUTE);
        const latest = rules.window?.kind === 'fixed' ? Math.min(period.end, rules.window.end) : period.end;
        const clear = (h: HostAvailability, t: number) =>
          hours.get(h.hostId)!.some((r) => r.start <= t && t + length <= r.end) &&
          !overlapsAny(h.bookings, t - rules.beforeBufferMinutes * MINUTE, t + length + rules.afterBufferMinutes * MINUTE) &&
          !overlapsAny(h.away, t, t + length);

        // Every slot offered: in the period, after the notice, inside the window, and clear for the hosts it names.
        for (const s of slots) {
          expect(s.end - s.start).toBe(length);
          expect(s.start >= earliest && s.start <= latest).toBe(true);
          const free = hosts.filter((h) => clear(h, s.start)).map((h) => h.hostId);
          expect(s.hostIds).toEqual(free);
          expect(rule === 'all' ? free.length === hosts.length : free.length > 0).toBe(true);
        }
        // Nothing free withheld: each grid start of a host's hours (or, collective, of the hours all share) that is clear is offered.
        const offered = new Set(slots.map((s) => s.start));
        const grids = rule === 'all' ? [shared(hosts.map((h) => hours.get(h.hostId)!))] : hosts.map((h) => hours.get(h.hostId)!);
        for (const ranges of grids) {
          for (const r of ranges) {
            for (let t = r.start; t + length <= r.end; t += rules.intervalMinutes * MINUTE) {
              if (t < earliest || t > latest) continue;
              const free = hosts.filter((h) => clear(h, t));
              if (rule === 'all' ? free.length === hosts.length : free.length > 0) expect(offered.has(t)).toBe(true);
            }
          }
        }
      }),
      { numRuns: 100 },
    );
  });
});

/** Where every list of intervals has time, minute by minute: the naive intersection. */
function shared(lists: Interval[][]): Interval[] {
  const [first, ...rest] = lists;
  const out: Interval[] = [];
  for (const r of first!) {
    let start: number | undefined;
    for (let t = r.start; t <= r.end; t += 15 * MINUTE) {
      const inAll = t < r.end && rest.every((l) => l.some((i) => i.start <= t && t < i.end));
      if (inAll && start === undefined) start = t;
      if (!inAll && start !== undefined) {
        out.push({ start, end: t });
        start = undefined;
      }
    }
  }
  return out;
}

// The rules of the slot computation (src/platform/slots/compute.ts, docs/integrating.md#slots)
// that an event type holds no field for yet, checked on the pure function with fixed instants:
// the slot interval, buffers before and after, and the booking window. The rules read from the
// world's data are in slots.test.ts.
import { describe, expect, it } from 'vitest';
import { freeSlots, type HostAvailability, type SlotRules } from '../../../src/platform/slots/compute.ts';

const at = (iso: string) => Date.parse(iso);
const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);
const NOW = at('2030-01-01T00:00:00Z');
const MONDAY = { start: at('2030-01-07T00:00:00Z'), end: at('2030-01-07T23:59:59.999Z') };

/** A host working Mondays 09:00-12:00 UTC, with these bookings. */
const host = (bookings: Array<[string, string]> = []): HostAvailability => ({
  hostId: 'h1',
  timeZone: 'UTC',
  weeklyHours: [{ days: ['Monday'], startTime: '09:00', endTime: '12:00' }],
  overrides: [],
  bookings: bookings.map(([s, e]) => ({ start: at(`2030-01-07T${s}:00Z`), end: at(`2030-01-07T${e}:00Z`) })),
  away: [],
});
const rules = (over: Partial<SlotRules> = {}): SlotRules => ({ lengthMinutes: 60, intervalMinutes: 60, minimumNoticeMinutes: 0, beforeBufferMinutes: 0, afterBufferMinutes: 0, windowDays: null, ...over });
const startsOf = (h: HostAvailability, r: SlotRules, period = MONDAY, now = NOW) => freeSlots([h], r, period, now, 'all').map((s) => hhmm(s.start));

describe('slot rules', () => {
  it('slot interval: starts step by the interval, not the length', () => {
    expect(startsOf(host(), rules({ intervalMinutes: 30 }))).toEqual(['09:00', '09:30', '10:00', '10:30', '11:00']);
    expect(startsOf(host(), rules())).toEqual(['09:00', '10:00', '11:00']);
  });

  it('buffer before: a slot needs that much free time before it', () => {
    const busy = host([['09:00', '09:30']]);
    expect(startsOf(busy, rules({ intervalMinutes: 30 }))).toEqual(['09:30', '10:00', '10:30', '11:00']);
    expect(startsOf(busy, rules({ intervalMinutes: 30, beforeBufferMinutes: 15 }))).toEqual(['10:00', '10:30', '11:00']);
  });

  it('buffer after: a slot needs that much free time after it', () => {
    const busy = host([['11:00', '12:00']]);
    expect(startsOf(busy, rules({ intervalMinutes: 30 }))).toEqual(['09:00', '09:30', '10:00']);
    expect(startsOf(busy, rules({ intervalMinutes: 30, afterBufferMinutes: 15 }))).toEqual(['09:00', '09:30']);
  });

  it('booking window: no start later than the window after now', () => {
    const period = { start: at('2030-01-07T00:00:00Z'), end: at('2030-01-21T23:59:59.999Z') };
    const now = at('2030-01-05T10:00:00Z');
    // Ten days from Saturday 10:00 is Tuesday 15 January 10:00: the Monday of the 14th is in, the 21st is not.
    const dates = freeSlots([host()], rules({ windowDays: 10 }), period, now, 'all').map((s) => new Date(s.start).toISOString().slice(0, 10));
    expect([...new Set(dates)]).toEqual(['2030-01-07', '2030-01-14']);
  });

  it('minimum notice and now: the first start is at least the notice after now', () => {
    expect(startsOf(host(), rules({ minimumNoticeMinutes: 30 }), MONDAY, at('2030-01-07T08:45:00Z'))).toEqual(['10:00', '11:00']);
  });

  it('no hosts, or a period that ends before it starts, offers nothing', () => {
    expect(freeSlots([], rules(), MONDAY, NOW, 'any')).toEqual([]);
    expect(freeSlots([host()], rules(), { start: MONDAY.end, end: MONDAY.start }, NOW, 'all')).toEqual([]);
  });
});
